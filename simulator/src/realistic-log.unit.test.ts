import { describe, expect, it } from 'vitest';
import { ADOPTION_MESSAGES, sessionStream, userStream } from '@pawhaven/contracts';
import type { Decider, NewEvent } from '@pawhaven/platform';
import {
  adoptionAdDecider,
  conversationDecider,
  conversationIdFor,
  postDecider,
  postLikeDecider,
  sessionDecider,
  userDecider,
  usernameKeys,
  type AdoptionCommand,
  type ConversationCommand,
  type PostCommand,
  type PostLikeCommand,
  type SessionCommand,
  type UserCommand,
  type UserState,
} from '@pawhaven/command-api';
import { asciiUsernameKeys, realisticLog, type PlannedAppend, type RealisticLogOptions } from './index';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function take(n: number, opts: RealisticLogOptions = {}): PlannedAppend[] {
  const out: PlannedAppend[] = [];
  let events = 0;
  for (const a of realisticLog({ seed: 42, now: NOW, ...opts })) {
    if (events >= n) break;
    out.push(a);
    events += a.events.length;
  }
  return out;
}

const json = (appends: PlannedAppend[]) =>
  JSON.stringify(appends, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

// One log for the checks below: long enough that users are deleted, ads adopted, chats read.
const LOG = take(40_000, { deletionsPerMillion: 3000 });
const events = LOG.flatMap((a) => a.events.map((e) => ({ ...e, streamId: a.streamId })));
const ofType = (type: string) => events.filter((e) => e.type === type);
type Data = Record<string, unknown>;
const dataOf = (e: NewEvent) => e.data as Data;
/** A command's data from the event's (the decider takes the fields it needs) and the time. */
const withNow = (d: Data, now: Date) => ({ ...d, now }) as never;

describe('realisticLog', () => {
  it('is deterministic for a seed and a time, and another seed gives another log', () => {
    expect(json(take(3000))).toBe(json(take(3000)));
    expect(json(take(3000, { seed: 43 }))).not.toBe(json(take(3000)));
  });

  it('gives every event a unique UUID, expected revisions that follow each stream, and deps on earlier appends', () => {
    const ids = new Set<string>();
    for (const e of events) {
      expect(e.eventId).toMatch(UUID);
      ids.add(e.eventId!);
    }
    expect(ids.size).toBe(events.length);
    const revisions = new Map<string, bigint>();
    LOG.forEach((a, i) => {
      const rev = revisions.get(a.streamId);
      expect(a.expected, `append ${i} to ${a.streamId}`).toBe(rev === undefined ? 'no_stream' : rev);
      revisions.set(a.streamId, (rev ?? -1n) + BigInt(a.events.length));
      for (const d of a.deps) expect(d >= 0 && d < i).toBe(true);
    });
  });

  it('records the product mix: accounts, adoption, community, chat, notifications, contact, directory', () => {
    const count = (type: string) => ofType(type).length;
    for (const type of [
      'UserRegistered',
      'EmailClaimed',
      'UsernameHeld',
      'UsernameConfirmed',
      'EmailVerified',
      'SessionStarted',
      'SessionRevoked',
      'ProfileUpdated',
      'ProfileImageChanged',
      'UserDeleted',
      'AdoptionAdPublished',
      'AdoptionRequested',
      'AdoptionRequestAccepted',
      'PetAdopted',
      'AdoptionRequestRejected',
      'PostPublished',
      'CommentAdded',
      'PostLiked',
      'PostUnliked',
      'ConversationStarted',
      'MessageSent',
      'MessagesDelivered',
      'MessagesRead',
      'AllNotificationsRead',
      'NotificationRead',
      'ContactMessageReceived',
      'NgoListed',
      'ClinicListed',
      'FaqPublished',
      'TeamMemberAdded',
    ])
      expect(count(type), type).toBeGreaterThan(0);
    expect(count('PostLiked')).toBeGreaterThan(count('CommentAdded'));
    expect(count('CommentAdded')).toBeGreaterThan(count('PostPublished'));
    expect(count('AdoptionRequested')).toBeGreaterThan(count('AdoptionAdPublished'));
    expect(ofType('CommentAdded').some((e) => dataOf(e).parentCommentId !== null)).toBe(true);
    expect(ofType('ConversationStarted').some((e) => dataOf(e).adId !== null)).toBe(true);
    expect(ofType('UserRegistered').some((e) => dataOf(e).via === 'google')).toBe(true);
    expect(ofType('UserRegistered').some((e) => dataOf(e).isVeterinarian === true)).toBe(true);
  });

  it('keeps times monotonic in the order of the appends', () => {
    let last = '';
    for (const e of events) {
      const d = dataOf(e);
      const t = (d.registeredAt ?? d.startedAt ?? d.publishedAt ?? d.sentAt ?? d.likedAt ?? d.addedAt) as
        string | undefined;
      if (!t) continue;
      expect(t >= last).toBe(true);
      last = t;
    }
    expect(Date.parse(last)).toBeLessThan(NOW.getTime());
  });

  it('derives usernames keys and conversation ids as the command side does', () => {
    for (const e of ofType('UserRegistered')) {
      const d = dataOf(e);
      expect(d.usernameKeys).toEqual(usernameKeys(d.username as string));
    }
    for (const name of ['admin', 'Maryam Iqbal', 'Imran_paws', 'ali.khan10', 'MIRZA  01']) {
      expect(asciiUsernameKeys(name)).toEqual(usernameKeys(name));
    }
    for (const e of ofType('ConversationStarted')) {
      const [a, b] = dataOf(e).memberIds as [string, string];
      expect(dataOf(e).conversationId).toBe(conversationIdFor(a, b));
      expect(conversationIdFor(b, a)).toBe(conversationIdFor(a, b));
    }
  });

  it('has nobody act after their account was deleted, nor on what they had', () => {
    const deletedAt = new Map<string, number>();
    const admins = new Set(
      ofType('UserRegistered')
        .filter((e) => dataOf(e).isAdmin === true)
        .map((e) => dataOf(e).userId as string),
    );
    const adOwner = new Map<string, string>();
    events.forEach((e, i) => {
      const d = dataOf(e);
      const actor = e.metadata?.actorId;
      if (e.type === 'UserDeleted') {
        expect(admins.has(d.userId as string)).toBe(false);
        deletedAt.set(d.userId as string, i);
        return;
      }
      if (e.type === 'AdoptionAdPublished') adOwner.set(e.streamId, d.ownerId as string);
      const gone = (id: unknown) => typeof id === 'string' && deletedAt.has(id);
      expect(gone(actor), `${e.type} by a deleted user`).toBe(false);
      if (['PostLiked', 'PostUnliked', 'CommentAdded'].includes(e.type))
        expect(gone(d.postAuthorId), `${e.type} on a deleted user's post`).toBe(false);
      if (e.type === 'MessageSent') expect(gone(d.recipientId)).toBe(false);
      if (e.type === 'AdoptionRequested') expect(gone(adOwner.get(e.streamId))).toBe(false);
      // Admins moderate; they never post, like, comment, request or chat.
      if (['PostPublished', 'PostLiked', 'CommentAdded', 'AdoptionRequested', 'MessageSent'].includes(e.type))
        expect(admins.has(actor!)).toBe(false);
    });
    expect(deletedAt.size).toBeGreaterThan(0);
  });

  it("records what the command side's deciders decide, append by append", () => {
    const admins = new Set(
      ofType('UserRegistered')
        .filter((e) => dataOf(e).isAdmin === true)
        .map((e) => dataOf(e).userId as string),
    );
    const states = new Map<string, unknown>();
    const checked = new Map<string, number>();
    const check = <S, C, E extends { type: string; data: unknown }>(
      a: PlannedAppend,
      decider: Decider<S, C, E>,
      command: (first: E, actor: string, now: Date, state: S, recorded: E[]) => C | null,
    ) => {
      const state = (states.get(a.streamId) as S | undefined) ?? decider.initialState();
      const recorded = a.events.map((e) => ({ type: e.type, data: e.data }) as E);
      const first = recorded[0]!;
      const d = first.data as Data;
      const time = Object.entries(d).find(([k, v]) => /(^at|At)$/.test(k) && typeof v === 'string')?.[1];
      const cmd = command(
        first,
        a.events[0]!.metadata!.actorId!,
        new Date((time as string) ?? 0),
        state,
        recorded,
      );
      if (cmd !== null) {
        expect(decider.decide(cmd, state), `${first.type} on ${a.streamId}`).toEqual(recorded);
        checked.set(first.type, (checked.get(first.type) ?? 0) + 1);
      }
      states.set(a.streamId, recorded.reduce(decider.evolve, state));
    };

    for (const a of LOG) {
      const s = a.streamId;
      if (s.startsWith('adoption-'))
        check(a, adoptionAdDecider, (e, actorId, now): AdoptionCommand | null => {
          const d = e.data as Data;
          switch (e.type) {
            case 'AdoptionAdPublished':
              return { type: 'PublishAd', data: withNow(d, now) };
            case 'AdoptionAdUpdated':
              return { type: 'UpdateAd', data: { actorId, changes: d.changes as never, now } };
            case 'AdoptionAdDeleted':
              return { type: 'DeleteAd', data: { actorId, isAdmin: admins.has(actorId), now } };
            case 'AdoptionRequested':
              return { type: 'RequestAdoption', data: withNow(d, now) };
            case 'AdoptionRequestAccepted':
              return { type: 'AcceptRequest', data: { requestId: d.requestId as string, actorId, now } };
            case 'AdoptionRequestRejected':
              expect(d.reason).toBe(ADOPTION_MESSAGES.declinedByOwner);
              return { type: 'RejectRequest', data: { requestId: d.requestId as string, actorId, now } };
            case 'AdoptionRequestWithdrawn':
              return { type: 'WithdrawRequest', data: { requestId: d.requestId as string, actorId, now } };
            case 'AdoptionRequestDeleted':
              return {
                type: 'DeleteRequest',
                data: { requestId: d.requestId as string, actorId, isAdmin: admins.has(actorId), now },
              };
            default:
              throw new Error(`unexpected first event ${(e as { type: string }).type}`);
          }
        });
      else if (s.startsWith('post-like-'))
        check(a, postLikeDecider, (e, _actor, now): PostLikeCommand => {
          const d = e.data as Data;
          return {
            type: 'ToggleLike',
            data: {
              postId: d.postId as string,
              userId: d.userId as string,
              postExists: true,
              postAuthorId: d.postAuthorId as string,
              now,
            },
          };
        });
      else if (s.startsWith('post-'))
        check(a, postDecider, (e, actorId, now): PostCommand => {
          const d = e.data as Data;
          switch (e.type) {
            case 'PostPublished':
              return { type: 'PublishPost', data: withNow(d, now) };
            case 'PostCaptionEdited':
              return { type: 'EditCaption', data: { actorId, caption: d.caption as string, now } };
            case 'PostDeleted':
              return { type: 'DeletePost', data: { actorId, isAdmin: admins.has(actorId), now } };
            case 'CommentAdded':
              return d.parentCommentId === null
                ? { type: 'AddComment', data: withNow(d, now) }
                : { type: 'ReplyToComment', data: withNow(d, now) };
            case 'CommentDeleted':
              return {
                type: 'DeleteComment',
                data: { commentId: d.commentId as string, actorId, isAdmin: admins.has(actorId), now },
              };
            default:
              throw new Error(`unexpected first event ${(e as { type: string }).type}`);
          }
        });
      else if (s.startsWith('conversation-'))
        check(a, conversationDecider, (e, actorId, now): ConversationCommand => {
          const d = e.data as Data;
          switch (e.type) {
            case 'ConversationStarted': {
              const [starterId, otherId] = d.memberIds as [string, string];
              const common = { conversationId: d.conversationId as string, otherExists: true, now };
              return {
                type: 'StartConversation',
                data: { ...common, starterId, otherId, adId: d.adId as null },
              };
            }
            case 'ConversationAboutAd': {
              const state = states.get(s) as { memberIds: string[] };
              return {
                type: 'StartConversation',
                data: {
                  conversationId: d.conversationId as string,
                  starterId: actorId,
                  otherId: state.memberIds.find((m) => m !== actorId)!,
                  otherExists: true,
                  adId: d.adId as string,
                  now,
                },
              };
            }
            case 'MessageSent':
              return { type: 'SendMessage', data: withNow(d, now) };
            case 'MessagesDelivered':
            case 'MessagesRead':
              return {
                type: e.type === 'MessagesRead' ? 'MarkRead' : 'MarkDelivered',
                data: { userId: actorId, upToMessageId: d.upToMessageId as string, now },
              };
            default:
              throw new Error(`unexpected first event ${(e as { type: string }).type}`);
          }
        });
      else if (s.startsWith(sessionStream('')))
        check(a, sessionDecider, (e, _actor, now): SessionCommand => {
          const d = e.data as Data;
          if (e.type === 'SessionRevoked') return { type: 'RevokeSession', data: { now } };
          // Decided on the user's stream as the log has it at this point.
          const user = states.get(userStream(d.userId as string)) as UserState;
          return {
            type: 'StartSession',
            data: {
              user,
              userRevision: BigInt(d.userRevision as number),
              sessionId: d.sessionId as string,
              secretHash: d.secretHash as string,
              rememberMe: d.rememberMe as boolean,
              rememberMeDays: 30,
              now: new Date(d.startedAt as string),
            },
          };
        });
      else if (s.startsWith('user-') && !s.startsWith('user-email-'))
        check(a, userDecider, (e, actorId, now, state, recorded): UserCommand | null => {
          const d = e.data as Data;
          if (recorded.at(-1)!.type === 'UserDeleted')
            return { type: 'DeleteUser', data: { deletedBy: actorId, now } };
          switch (e.type) {
            case 'SessionRevoked':
              return { type: 'RevokeSession', data: { sessionId: d.sessionId as string, now } };
            case 'ProfileUpdated':
              return { type: 'UpdateProfile', data: d as never };
            case 'ProfileImageChanged':
              return { type: 'ChangeProfileImage', data: d as never };
            case 'ProfileImageRemoved':
              return { type: 'RemoveProfileImage', data: {} };
            case 'EmailVerified':
              // The code's hash is not the decider's business here: the one issued last.
              return state.registrationCode && state.registration
                ? {
                    type: 'VerifyEmail',
                    data: {
                      codeHash: state.registrationCode.codeHash,
                      tokenHash: state.registration.tokenHashes.at(-1)!,
                      now,
                    },
                  }
                : null;
            default:
              return null;
          }
        });
    }
    // UserDeleted ends the sessions (each in its own stream) by itself: it is its append's only event.
    for (const a of LOG) if (a.events.at(-1)!.type === 'UserDeleted') expect(a.events).toHaveLength(1);
    for (const type of [
      'AdoptionRequested',
      'AdoptionRequestAccepted',
      'CommentAdded',
      'PostLiked',
      'MessageSent',
    ])
      expect(checked.get(type), type).toBeGreaterThan(0);
  });
});
