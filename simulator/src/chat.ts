import { conversationStream } from '@pawhaven/contracts';
import type { NewEvent } from '@pawhaven/platform';
import { conversationIdFor } from '@pawhaven/command-api';
import { MESSAGES } from './texts';
import { ACTIVE, DELETED, AD_DELETED, type User, type Ad, type Conversation } from './state';
import { SEC, MIN, HOUR, type World } from './world';

/** One-to-one chat: conversations opened from an ad or a post, messages and their receipts. */

function convAppend(w: World, c: Conversation, events: NewEvent[], deps: number[], actor: User): number {
  const idx = w.emit(c.stream, events, c.rev, deps, actor);
  c.rev += events.length;
  return idx;
}

export function startConversation(w: World): void {
  if (w.rng.chance(0.55)) {
    // From an adoption card: a requester writes to the owner about the pet.
    const r = w.recentRequests.pick(w.rng);
    if (r && r.requester.status === ACTIVE && r.ad.owner.status === ACTIVE && r.ad.status !== AD_DELETED)
      openChat(w, r.requester, r.ad.owner, r.ad);
    return;
  }
  // From a post: someone writes to its author.
  const starter = w.pickUser();
  const post = w.posts.pick(w.rng, 1000, 0.7);
  if (starter && post && post.author !== starter && post.author.status === ACTIVE)
    openChat(w, starter, post.author, null);
}

/** POST /conversations: finds or starts the pair's conversation (about an ad, when opened from one). */
export function openChat(w: World, starter: User, other: User, ad: Ad | null): void {
  if (starter.status !== ACTIVE || other.status !== ACTIVE || (ad && ad.status === AD_DELETED)) return;
  const key =
    starter.idx < other.idx ? starter.idx * 4_194_304 + other.idx : other.idx * 4_194_304 + starter.idx;
  let c = w.conversations.get(key);
  const adId = ad?.id ?? null;
  const deps = [starter.readyIdx, other.readyIdx, ad?.createdIdx ?? -1];
  if (!c) {
    const id = conversationIdFor(starter.id, other.id);
    c = {
      id,
      stream: conversationStream(id),
      members: [starter, other],
      adId,
      rev: -1,
      createdIdx: -1,
      count: 0,
      lastSeq: [0, 0],
      lastId: ['', ''],
      delivered: [0, 0],
      read: [0, 0],
      busy: false,
    };
    w.conversations.set(key, c);
    c.createdIdx = convAppend(
      w,
      c,
      [
        w.ev(
          'ConversationStarted',
          {
            conversationId: id,
            memberIds: [starter.id, other.id],
            startedBy: starter.id,
            adId,
            startedAt: w.iso(),
          },
          { actorId: starter.id },
        ),
      ],
      deps,
      starter,
    );
    w.recentConversations.push(c);
  } else if (adId && adId !== c.adId) {
    c.adId = adId;
    convAppend(
      w,
      c,
      [
        w.ev(
          'ConversationAboutAd',
          { conversationId: c.id, adId, by: starter.id, at: w.iso() },
          { actorId: starter.id },
        ),
      ],
      deps,
      starter,
    );
  }
  if (c.busy) return;
  c.busy = true;
  const side = c.members[0] === starter ? 0 : 1;
  w.at(w.rng.range(3, 90) * SEC, () => chat(w, c, side));
}

export function resumeConversation(w: World): void {
  const c = w.recentConversations.pick(w.rng);
  if (!c || c.busy || c.members[0].status !== ACTIVE || c.members[1].status !== ACTIVE) return;
  c.busy = true;
  chat(w, c, w.rng.int(2));
}

/** One message of a back-and-forth: the sender first reads what came in, then writes; the other may answer. */
export function chat(w: World, c: Conversation, side: number): void {
  const [a, b] = c.members;
  if (a.status !== ACTIVE || b.status !== ACTIVE) {
    c.busy = false;
    return;
  }
  const sender = c.members[side]!;
  const other = 1 - side;
  if (c.lastSeq[other]! > c.read[side]! && w.rng.chance(0.6)) receipt(w, c, side, 'MessagesRead');
  const messageId = w.rng.uuid();
  convAppend(
    w,
    c,
    [
      w.ev(
        'MessageSent',
        {
          conversationId: c.id,
          messageId,
          senderId: sender.id,
          recipientId: c.members[other]!.id,
          text: w.fill(w.rng.pick(MESSAGES)),
          clientMessageId: w.rng.uuid(),
          sentAt: w.iso(),
        },
        { actorId: sender.id },
      ),
    ],
    [sender.readyIdx],
    sender,
  );
  c.count++;
  c.lastSeq[side] = c.count;
  c.lastId[side] = messageId;
  if (w.rng.chance(0.3)) w.at(w.rng.range(1, 40) * SEC, () => receipt(w, c, other, 'MessagesDelivered'));
  if (w.rng.chance(0.82)) {
    const next = w.rng.chance(0.7) ? other : side;
    w.at(w.rng.exp(4 * MIN) + 5 * SEC, () => chat(w, c, next));
    return;
  }
  c.busy = false;
  if (w.rng.chance(0.45)) w.at(w.rng.exp(6 * HOUR) + MIN, () => receipt(w, c, other, 'MessagesRead'));
}

/** The member `side` has received / seen the other's messages: recorded only when it moves their mark. */
function receipt(w: World, c: Conversation, side: number, type: 'MessagesDelivered' | 'MessagesRead'): void {
  const u = c.members[side]!;
  if (u.status !== ACTIVE || c.members[1 - side]!.status === DELETED) return;
  const seq = c.lastSeq[1 - side]!;
  const mark = type === 'MessagesRead' ? c.read : c.delivered;
  if (seq === 0 || seq <= mark[side]!) return;
  convAppend(
    w,
    c,
    [
      w.ev(
        type,
        { conversationId: c.id, userId: u.id, upToMessageId: c.lastId[1 - side]!, at: w.iso() },
        { actorId: u.id },
      ),
    ],
    [u.readyIdx],
    u,
  );
  mark[side] = seq;
  if (type === 'MessagesRead' && c.delivered[side]! < seq) c.delivered[side] = seq;
}
