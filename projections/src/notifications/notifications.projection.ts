import type { Knex } from 'knex';
import {
  adIdOfStream,
  ADOPTION_MESSAGES,
  NOTIFICATION_EVENT_TYPES,
  NOTIFICATION_TEXTS as T,
  userIdOfNotificationsStream,
  userIdOfStream,
} from '@pawhaven/contracts';
import { defineProjection, type Notices, type RecordedEvent } from '@pawhaven/platform';
import { foldNotifications } from './notifications.fold';
import {
  broadcastRow,
  contentOf,
  isVet,
  notificationId,
  text,
  timeOf,
  UUID,
  type Handled,
  type NewNotification,
  type UserRow,
} from './notifications.rows';

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

/** Rows per INSERT: a vet's post fans out to every other vet, and a statement takes at most 65,535 bindings. */
const CHUNK = 1000;

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
      const content = contentOf(n, createdAt);
      return {
        id: notificationId(recorded.eventId, n.recipientId),
        user_id: n.recipientId,
        ...content,
        data: JSON.stringify(content.data),
        read: false,
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

/** After a user's row changed at `recorded`: opens their term as a verified veterinarian, or closes it. */
async function reconsiderVet(tx: Knex.Transaction, userId: string, recorded: RecordedEvent): Promise<void> {
  const user = await tx('notification_users').where({ id: userId }).first<UserRow | undefined>();
  const terms = tx('notification_vet_terms').where({ user_id: userId }).whereNull('until');
  const open = (await terms.clone().first('since')) !== undefined;
  const vet = user !== undefined && isVet(user);
  if (vet && !open)
    await tx('notification_vet_terms').insert({ user_id: userId, since: String(recorded.position) });
  else if (!vet && open) await terms.update({ until: String(recorded.position) });
}

/** Takes broadcasts away (a deleted post, a deleted author) with their receipts, telling everyone they reached. */
async function dropBroadcasts(
  tx: Knex.Transaction,
  notices: Notices,
  which: { post_id: string } | { actor_id: string },
): Promise<void> {
  const gone = await tx('notification_broadcasts')
    .where(which)
    .delete()
    .returning<{ id: string; position: string; actor_id: string }[]>(['id', 'position', 'actor_id']);
  if (gone.length === 0) return;
  await tx('notification_receipts')
    .whereIn(
      'broadcast_id',
      gone.map((b) => b.id),
    )
    .delete();
  const { rows } = await tx.raw<{ rows: { user_id: string }[] }>(
    `SELECT DISTINCT t.user_id
       FROM jsonb_to_recordset(?::jsonb) AS b(position bigint, actor_id text)
       JOIN notification_vet_terms t
         ON b.position > t.since AND (t.until IS NULL OR b.position < t.until) AND b.actor_id <> t.user_id`,
    [JSON.stringify(gone)],
  );
  changed(notices, rows);
}

/**
 * `notifications`: what happened to each user, built from the log alone (a projection, so it can be rebuilt), never
 * written by a command handler:
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
    'notification_broadcasts',
    'notification_vet_terms',
    'notification_receipts',
    'notification_marks',
  ],
  handles: HANDLES,
  // Ids and the product's own texts; usernames and pets' names are the personal fields it reads (sealed).
  readsPersonalData: ['UserRegistered', 'RegistrationRenewed', 'AdoptionAdPublished', 'AdoptionAdUpdated'],
  async apply(tx, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
    switch (event.type) {
      // ── who is who ──
      case 'UserRegistered': {
        const d = event.data;
        // A lapsed sign-up's stream can be registered again (by Google): the new registration wins. A deleted
        // account's tombstone keeps no name: one recorded after the deletion may be readable or not, depending on
        // whether the person's key was destroyed yet (a replay must not differ).
        await tx('notification_users')
          .insert({
            id: userIdOfStream(recorded.streamId),
            username: String(d.username),
            is_veterinarian: d.isVeterinarian === true,
            verified: d.via !== 'password',
          })
          .onConflict('id')
          .merge({
            username: tx.raw(`CASE WHEN notification_users.deleted THEN '' ELSE excluded.username END`),
            is_veterinarian: tx.raw('excluded.is_veterinarian'),
            verified: tx.raw('excluded.verified'),
          });
        await reconsiderVet(tx, userIdOfStream(recorded.streamId), recorded);
        return;
      }
      case 'RegistrationRenewed':
        await tx('notification_users')
          .where({ id: userIdOfStream(recorded.streamId) })
          .update({
            username: tx.raw(`CASE WHEN deleted THEN '' ELSE ? END`, [String(event.data.username)]),
            is_veterinarian: event.data.isVeterinarian === true,
          });
        await reconsiderVet(tx, userIdOfStream(recorded.streamId), recorded);
        return;
      case 'EmailVerified':
        await tx('notification_users')
          .where({ id: userIdOfStream(recorded.streamId) })
          .update({ verified: true });
        await reconsiderVet(tx, userIdOfStream(recorded.streamId), recorded);
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
        // Their posts' broadcasts go; they stop receiving any, and what they did with them is forgotten.
        await dropBroadcasts(tx, notices, { actor_id: userId });
        for (const table of ['notification_vet_terms', 'notification_receipts', 'notification_marks'])
          await tx(table).where({ user_id: userId }).delete();
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
        // Kept once for every veterinarian it tells (see `vetPostBroadcastsMigration`).
        const row = broadcastRow(
          recorded,
          postId,
          authorId,
          await usernameOf(tx, authorId),
          timeOf(d.publishedAt, recorded),
        );
        const created = await tx('notification_broadcasts')
          .insert({ ...row, position: String(row.position), data: JSON.stringify(row.data) })
          .onConflict('id')
          .ignore()
          .returning('id');
        if (created.length === 0) return;
        const vets: string[] = await tx('notification_vet_terms')
          .whereNull('until')
          .whereNot({ user_id: authorId })
          .pluck('user_id');
        for (const userId of vets)
          notices.push({ kind: 'notification', userId, id: notificationId(recorded.eventId, userId) });
        return;
      }
      case 'PostDeleted': {
        const postId = text(event.data.postId);
        if (!postId) return;
        await tx('notification_posts').where({ id: postId }).delete();
        changed(notices, await tx('notifications').where({ post_id: postId }).delete().returning('user_id'));
        await dropBroadcasts(tx, notices, { post_id: postId });
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
      case 'NotificationDeleted': {
        // The stream says whose: a user's events touch that user's notifications only, whatever their data names.
        const userId = userIdOfNotificationsStream(recorded.streamId);
        const id = text(event.data.notificationId);
        if (!id || !UUID.test(id)) return;
        const reading = event.type === 'NotificationRead';
        const { rows } = await tx.raw<{ rows: { read: boolean; broadcast_id: string | null }[] }>(
          'SELECT read, broadcast_id FROM user_notifications(?) WHERE id = ?',
          [userId, id],
        );
        const n = rows[0];
        if (!n || (reading && n.read)) return;
        if (n.broadcast_id === null) {
          const mine = tx('notifications').where({ user_id: userId, id });
          await (reading ? mine.update({ read: true }) : mine.delete());
        } else
          await tx('notification_receipts')
            .insert({ broadcast_id: n.broadcast_id, user_id: userId, deleted: !reading })
            .onConflict(['user_id', 'broadcast_id'])
            .merge(['deleted']);
        notices.push({ kind: 'notifications-changed', userId });
        return;
      }
      case 'AllNotificationsRead':
      case 'AllNotificationsDeleted': {
        const userId = userIdOfNotificationsStream(recorded.streamId);
        const mine = tx('notifications').where({ user_id: userId });
        const reading = event.type === 'AllNotificationsRead';
        const count = reading
          ? await mine.andWhere({ read: false }).update({ read: true })
          : await mine.delete();
        // Every broadcast before this event is read (deleted) for them: receipts saying so are no longer needed.
        const receipts = tx('notification_receipts').where({ user_id: userId });
        await (reading ? receipts.andWhere({ deleted: false }) : receipts).delete();
        const mark = reading ? 'read_before' : 'deleted_before';
        await tx('notification_marks')
          .insert({ user_id: userId, [mark]: String(recorded.position) })
          .onConflict('user_id')
          .merge([mark]);
        const receives = await tx('notification_vet_terms').where({ user_id: userId }).first('since');
        if (count > 0 || receives) notices.push({ kind: 'notifications-changed', userId });
        return;
      }
      default:
        return;
    }
  },
  fold: foldNotifications,
});
