import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import {
  adIdOfStream,
  ADOPTION_MESSAGES,
  NOTIFICATION_EVENT_TYPES,
  NOTIFICATION_TEXTS as T,
  userIdOfNotificationsStream,
  userIdOfStream,
  type AdoptionEvent,
  type CommunityEvent,
  type NotificationDto,
  type NotificationEvent,
  type NotificationType,
  type UserEvent,
} from '@pawhaven/contracts';
import { defineProjection, type Notices, type RecordedEvent } from '@pawhaven/platform';

/**
 * A notification's id: UUID-shaped (version 5 layout) from the SHA-1 of the event that caused it and its recipient,
 * so a rebuild gives every notification the id it had, and the reads and deletes recorded against it still apply.
 */
export function notificationId(eventId: string, recipientId: string): string {
  const h = createHash('sha1').update(`${eventId}\n${recipientId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

type Handled = CommunityEvent | AdoptionEvent | UserEvent | NotificationEvent;

type NewNotification = {
  recipientId: string;
  type: NotificationType;
  title: string;
  message: string;
  actorId: string;
  postId?: string;
  commentId?: string;
  adId?: string;
  requestId?: string;
};

const HANDLES = [
  'PostPublished',
  'PostDeleted',
  'CommentAdded',
  'CommentDeleted',
  'PostLiked',
  'PostUnliked',
  'AdoptionAdPublished',
  'AdoptionAdUpdated',
  'AdoptionRequested',
  'AdoptionRequestAccepted',
  'AdoptionRequestRejected',
  'UserRegistered',
  'RegistrationRenewed',
  'EmailVerified',
  'UserDeleted',
  'AdoptionRequestDeleted',
  ...NOTIFICATION_EVENT_TYPES,
] as const satisfies readonly Handled['type'][];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Rows per INSERT: a vet's post fans out to every other vet, and a statement takes at most 65,535 bindings. */
const CHUNK = 1000;

/** The event's own time when it is one, else the time it was recorded: both replay identically. */
const timeOf = (value: unknown, recorded: RecordedEvent): string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : recorded.createdAt.toISOString();

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Creates the notifications (never one for the recipient's own action) and announces each to its recipient. */
async function notify(
  tx: Knex.Transaction,
  recorded: RecordedEvent,
  notices: Notices,
  createdAt: string,
  list: NewNotification[],
): Promise<void> {
  const seen = new Set<string>();
  // Nobody is told anything once their account is deleted (a reply to their comment, say).
  const gone = new Set<string>(
    list.length === 0
      ? []
      : await tx('notification_users')
          .whereIn(
            'id',
            list.map((n) => n.recipientId),
          )
          .andWhere({ deleted: true })
          .pluck('id'),
  );
  const rows = list
    .filter(
      (n) =>
        n.recipientId !== n.actorId &&
        !gone.has(n.recipientId) &&
        !seen.has(n.recipientId) &&
        seen.add(n.recipientId),
    )
    .map((n) => {
      const data: NotificationDto['data'] = {};
      if (n.postId) data.postId = n.postId;
      if (n.commentId) data.commentId = n.commentId;
      if (n.adId) data.adId = n.adId;
      if (n.requestId) data.requestId = n.requestId;
      data.actorId = n.actorId;
      return {
        id: notificationId(recorded.eventId, n.recipientId),
        user_id: n.recipientId,
        type: n.type,
        title: n.title,
        message: n.message,
        data: JSON.stringify(data),
        actor_id: n.actorId,
        post_id: n.postId ?? null,
        comment_id: n.commentId ?? null,
        ad_id: n.adId ?? null,
        request_id: n.requestId ?? null,
        read: false,
        created_at: createdAt,
      };
    });
  for (let i = 0; i < rows.length; i += CHUNK) {
    const created = await tx('notifications')
      .insert(rows.slice(i, i + CHUNK))
      .onConflict('id')
      .ignore()
      .returning<{ id: string; user_id: string }[]>(['id', 'user_id']);
    for (const r of created) notices.push({ kind: 'notification', userId: r.user_id, id: r.id });
  }
}

/** Announces to each recipient whose list changed (read, deleted, removed) that it did. */
const changed = (notices: Notices, rows: { user_id: string }[]) => {
  for (const userId of new Set(rows.map((r) => r.user_id)))
    notices.push({ kind: 'notifications-changed', userId });
};

const usernameOf = async (tx: Knex.Transaction, userId: string) =>
  (await tx('notification_users').where({ id: userId }).first<{ username: string } | undefined>('username'))
    ?.username ?? T.someone;

const postIsLive = async (tx: Knex.Transaction, postId: string) =>
  (await tx('notification_posts').where({ id: postId }).first('id')) !== undefined;

/** The request with its ad, as this projection recorded them, or null. */
const requestOf = async (tx: Knex.Transaction, requestId: string) =>
  ((await tx('notification_adoption_requests as r')
    .join('notification_ads as a', 'a.id', 'r.ad_id')
    .where('r.id', requestId)
    .first('r.requester_id', 'a.id as ad_id', 'a.owner_id', 'a.name')) as
    { requester_id: string; ad_id: string; owner_id: string; name: string } | undefined) ?? null;

/**
 * `notifications`: what happened to each user, built from the log alone (ARCHITECTURE §9), never written by a
 * command handler:
 * - post_like and post_comment to a post's author, and post_comment to the author of a comment answered; an unlike
 *   takes the like's notification back; deleting a post or a comment takes away the notifications about it;
 * - new_post_vet_notification to every other (verified) veterinarian known when a veterinarian posts;
 * - adoption_request to the ad's owner; adoption_request_accepted / _rejected to the requester, including each one
 *   declined because another request was accepted.
 * Nobody is notified of their own action. What a user does with their notifications is recorded in
 * `notifications-{userId}` (read, deleted, all read, all deleted) and applied here to that user's rows only, so a
 * rebuild reproduces the same list with the same read flags. Each created notification is announced to the
 * realtime gateway ({ kind: 'notification', userId, id }); each change of a list ({ kind: 'notifications-changed',
 * userId }).
 */
export const notificationsProjection = defineProjection({
  name: 'notifications',
  tables: [
    'notifications',
    'notification_users',
    'notification_posts',
    'notification_ads',
    'notification_adoption_requests',
  ],
  handles: HANDLES,
  async apply(tx, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
    switch (event.type) {
      // ── who is who ──
      case 'UserRegistered': {
        const d = event.data;
        // A lapsed sign-up's stream can be registered again (by Google): the new registration wins.
        await tx('notification_users')
          .insert({
            id: userIdOfStream(recorded.streamId),
            username: String(d.username),
            is_veterinarian: d.isVeterinarian === true,
            verified: d.via !== 'password',
          })
          .onConflict('id')
          .merge();
        return;
      }
      case 'RegistrationRenewed':
        await tx('notification_users')
          .where({ id: userIdOfStream(recorded.streamId) })
          .update({
            username: String(event.data.username),
            is_veterinarian: event.data.isVeterinarian === true,
          });
        return;
      case 'EmailVerified':
        await tx('notification_users')
          .where({ id: userIdOfStream(recorded.streamId) })
          .update({ verified: true });
        return;

      case 'UserDeleted': {
        const userId = text(event.data.userId);
        if (!userId) return;
        // Their own notifications and every one they caused go; the lookups forget their posts, ads and requests.
        // The user's row stays as a tombstone (name blanked) so nothing later notifies them.
        changed(
          notices,
          await tx('notifications')
            .where({ actor_id: userId })
            .orWhere({ user_id: userId })
            .delete()
            .returning('user_id'),
        );
        await tx('notification_posts').where({ author_id: userId }).delete();
        await tx('notification_adoption_requests')
          .where({ requester_id: userId })
          .orWhereIn('ad_id', tx('notification_ads').where({ owner_id: userId }).select('id'))
          .delete();
        await tx('notification_ads').where({ owner_id: userId }).delete();
        await tx('notification_users')
          .insert({ id: userId, username: '', is_veterinarian: false, verified: false, deleted: true })
          .onConflict('id')
          .merge();
        return;
      }

      // ── community ──
      case 'PostPublished': {
        const d = event.data;
        const postId = text(d.postId);
        const authorId = text(d.authorId);
        if (!postId || !authorId) return;
        await tx('notification_posts').insert({ id: postId, author_id: authorId }).onConflict('id').ignore();
        if (d.authorIsVeterinarian !== true) return;
        const author = await usernameOf(tx, authorId);
        const vets: string[] = await tx('notification_users')
          .where({ is_veterinarian: true, verified: true })
          .whereNot({ id: authorId })
          .orderBy('id')
          .pluck('id');
        const { title, message } = T.new_post_vet_notification;
        await notify(
          tx,
          recorded,
          notices,
          timeOf(d.publishedAt, recorded),
          vets.map((recipientId) => ({
            recipientId,
            type: 'new_post_vet_notification',
            title,
            message: message(author),
            actorId: authorId,
            postId,
          })),
        );
        return;
      }
      case 'PostDeleted': {
        const postId = text(event.data.postId);
        if (!postId) return;
        await tx('notification_posts').where({ id: postId }).delete();
        changed(notices, await tx('notifications').where({ post_id: postId }).delete().returning('user_id'));
        return;
      }
      case 'CommentAdded': {
        const d = event.data;
        const [postId, commentId, actorId] = [text(d.postId), text(d.commentId), text(d.authorId)];
        // A comment recorded after its post was deleted notifies nobody.
        if (!postId || !commentId || !actorId || !(await postIsLive(tx, postId))) return;
        const actor = await usernameOf(tx, actorId);
        const postAuthorId = text(d.postAuthorId);
        const parentAuthorId = text(d.parentAuthorId);
        const about = { type: 'post_comment' as const, actorId, postId, commentId };
        const list: NewNotification[] = [];
        if (postAuthorId) {
          const t = parentAuthorId === postAuthorId ? T.comment_reply : T.post_comment;
          list.push({ ...about, recipientId: postAuthorId, title: t.title, message: t.message(actor) });
        }
        if (parentAuthorId)
          list.push({
            ...about,
            recipientId: parentAuthorId,
            title: T.comment_reply.title,
            message: T.comment_reply.message(actor),
          });
        await notify(tx, recorded, notices, timeOf(d.addedAt, recorded), list);
        return;
      }
      case 'CommentDeleted': {
        const commentId = text(event.data.commentId);
        if (!commentId) return;
        changed(
          notices,
          await tx('notifications').where({ comment_id: commentId }).delete().returning('user_id'),
        );
        return;
      }
      case 'PostLiked': {
        const d = event.data;
        const [postId, actorId, postAuthorId] = [text(d.postId), text(d.userId), text(d.postAuthorId)];
        if (!postId || !actorId || !postAuthorId || !(await postIsLive(tx, postId))) return;
        // One like notification per liker and post, whatever a history of repeated likes says.
        const already = await tx('notifications')
          .where({ post_id: postId, type: 'post_like', actor_id: actorId, user_id: postAuthorId })
          .first('id');
        if (already) return;
        await notify(tx, recorded, notices, timeOf(d.likedAt, recorded), [
          {
            recipientId: postAuthorId,
            type: 'post_like',
            title: T.post_like.title,
            message: T.post_like.message(await usernameOf(tx, actorId)),
            actorId,
            postId,
          },
        ]);
        return;
      }
      case 'PostUnliked': {
        const [postId, actorId] = [text(event.data.postId), text(event.data.userId)];
        if (!postId || !actorId) return;
        changed(
          notices,
          await tx('notifications')
            .where({ post_id: postId, type: 'post_like', actor_id: actorId })
            .delete()
            .returning('user_id'),
        );
        return;
      }

      // ── adoption ──
      case 'AdoptionAdPublished': {
        const d = event.data;
        const ownerId = text(d.ownerId);
        if (!ownerId) return;
        await tx('notification_ads')
          .insert({
            id: adIdOfStream(recorded.streamId),
            owner_id: ownerId,
            name: String(d.details?.name ?? ''),
          })
          .onConflict('id')
          .ignore();
        return;
      }
      case 'AdoptionAdUpdated': {
        const name = event.data.changes?.name;
        if (typeof name !== 'string') return;
        await tx('notification_ads')
          .where({ id: adIdOfStream(recorded.streamId) })
          .update({ name });
        return;
      }
      case 'AdoptionRequested': {
        const d = event.data;
        const [requestId, requesterId] = [text(d.requestId), text(d.requesterId)];
        if (!requestId || !requesterId) return;
        const adId = adIdOfStream(recorded.streamId);
        await tx('notification_adoption_requests')
          .insert({ id: requestId, ad_id: adId, requester_id: requesterId })
          .onConflict('id')
          .ignore();
        const ad = await tx('notification_ads')
          .where({ id: adId })
          .first<{ owner_id: string; name: string } | undefined>('owner_id', 'name');
        if (!ad) return;
        await notify(tx, recorded, notices, timeOf(d.requestedAt, recorded), [
          {
            recipientId: ad.owner_id,
            type: 'adoption_request',
            title: T.adoption_request.title,
            message: T.adoption_request.message(await usernameOf(tx, requesterId), ad.name),
            actorId: requesterId,
            adId,
            requestId,
          },
        ]);
        return;
      }
      case 'AdoptionRequestAccepted':
      case 'AdoptionRequestRejected': {
        const requestId = text(event.data.requestId);
        const request = requestId ? await requestOf(tx, requestId) : null;
        if (!requestId || !request) return;
        const accepted = event.type === 'AdoptionRequestAccepted';
        const t = accepted
          ? T.adoption_request_accepted
          : event.data.reason === ADOPTION_MESSAGES.anotherAccepted
            ? T.adoption_request_rejected_other
            : T.adoption_request_rejected;
        await notify(
          tx,
          recorded,
          notices,
          timeOf(accepted ? event.data.acceptedAt : event.data.rejectedAt, recorded),
          [
            {
              recipientId: request.requester_id,
              type: accepted ? 'adoption_request_accepted' : 'adoption_request_rejected',
              title: t.title,
              message: t.message(request.name),
              actorId: request.owner_id,
              adId: request.ad_id,
              requestId,
            },
          ],
        );
        return;
      }

      case 'AdoptionRequestDeleted': {
        const requestId = text(event.data.requestId);
        if (!requestId) return;
        await tx('notification_adoption_requests').where({ id: requestId }).delete();
        changed(
          notices,
          await tx('notifications').where({ request_id: requestId }).delete().returning('user_id'),
        );
        return;
      }

      // ── what the user did with their notifications ──
      case 'NotificationRead':
      case 'NotificationDeleted':
      case 'AllNotificationsRead':
      case 'AllNotificationsDeleted': {
        // The stream says whose: a user's events touch that user's rows only, whatever their data names.
        const userId = userIdOfNotificationsStream(recorded.streamId);
        const mine = tx('notifications').where({ user_id: userId });
        if (event.type === 'NotificationRead' || event.type === 'NotificationDeleted') {
          const id = text(event.data.notificationId);
          if (!id || !UUID.test(id)) return;
          mine.andWhere({ id });
        }
        const reading = event.type === 'NotificationRead' || event.type === 'AllNotificationsRead';
        const count = reading
          ? await mine.andWhere({ read: false }).update({ read: true })
          : await mine.delete();
        if (count > 0) notices.push({ kind: 'notifications-changed', userId });
        return;
      }
      default:
        return;
    }
  },
});
