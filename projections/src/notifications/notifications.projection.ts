import { hash } from 'node:crypto';
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
import { addTo, removeFrom } from '../fold-index';

/**
 * A notification's id: UUID-shaped (version 5 layout) from the SHA-1 of the event that caused it and its recipient,
 * so a rebuild gives every notification the id it had, and the reads and deletes recorded against it still apply.
 */
export function notificationId(eventId: string, recipientId: string): string {
  const hex = hash('sha1', `${eventId}\n${recipientId}`);
  for (let i = 0; i < 32; i++) ID_TEXT[ID_AT[i]!] = hex.charCodeAt(i);
  ID_TEXT[14] = 0x35; // version 5: the high digit of byte 6
  const digit = hex.charCodeAt(16); // variant 10xx: the high digit of byte 8 keeps its two low bits
  ID_TEXT[19] = VARIANT_DIGITS[(digit <= 0x39 ? digit - 0x30 : digit - 0x57) & 3]!;
  // One flat string: a rebuild holds a few million of them.
  return ID_TEXT.toString('latin1');
}

/** Where each of the 32 hex digits goes in the 36 characters of a UUID. */
const ID_AT = Array.from(
  { length: 32 },
  (_, i) => i + (i >= 8 ? 1 : 0) + (i >= 12 ? 1 : 0) + (i >= 16 ? 1 : 0) + (i >= 20 ? 1 : 0),
);
/** Scratch for `notificationId`, dashes in place. */
const ID_TEXT = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');
const VARIANT_DIGITS = Buffer.from('89ab', 'latin1');

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

/** A `notifications` row, every column included; `data` is what its jsonb column holds. */
type NotificationRow = {
  id: string;
  user_id: string;
  type: NotificationType;
  title: string;
  message: string;
  data: NotificationDto['data'];
  actor_id: string;
  post_id: string | null;
  comment_id: string | null;
  ad_id: string | null;
  request_id: string | null;
  read: boolean;
  created_at: string;
};
/** The lookups' rows, every column included (`deleted`: migration 0160). */
type UserRow = {
  id: string;
  username: string;
  is_veterinarian: boolean;
  verified: boolean;
  deleted: boolean;
};
type PostRow = { id: string; author_id: string };
type AdRow = { id: string; owner_id: string; name: string };
type RequestRow = { id: string; ad_id: string; requester_id: string };

/** What a notification says and is about: every column but whose it is (`id`, `user_id`) and `read`. */
type NotificationContent = Omit<NotificationRow, 'id' | 'user_id' | 'read'>;

/** What `n` tells its recipient, created at `createdAt`, as both `apply` and `fold` write it. */
function contentOf(n: Omit<NewNotification, 'recipientId'>, createdAt: string): NotificationContent {
  const data: NotificationDto['data'] = {};
  if (n.postId) data.postId = n.postId;
  if (n.commentId) data.commentId = n.commentId;
  if (n.adId) data.adId = n.adId;
  if (n.requestId) data.requestId = n.requestId;
  data.actorId = n.actorId;
  return {
    type: n.type,
    title: n.title,
    message: n.message,
    data,
    actor_id: n.actorId,
    post_id: n.postId ?? null,
    comment_id: n.commentId ?? null,
    ad_id: n.adId ?? null,
    request_id: n.requestId ?? null,
    created_at: createdAt,
  };
}

/** A `notification_broadcasts` row, every column included; `position` is the PostPublished event's. */
type BroadcastRow = {
  id: string;
  position: bigint;
  type: 'new_post_vet_notification';
  title: string;
  message: string;
  data: NotificationDto['data'];
  actor_id: string;
  post_id: string;
  created_at: string;
};
type VetTermRow = { user_id: string; since: bigint; until: bigint | null };
type ReceiptRow = { broadcast_id: string; user_id: string; deleted: boolean };
type MarkRow = { user_id: string; read_before: bigint; deleted_before: bigint };

/** The broadcast of a veterinarian's post `postId`, as both `apply` and `fold` write it. */
function broadcastRow(
  recorded: RecordedEvent,
  postId: string,
  authorId: string,
  author: string,
  createdAt: string,
): BroadcastRow {
  const { title, message } = T.new_post_vet_notification;
  return {
    id: recorded.eventId,
    position: recorded.position,
    type: 'new_post_vet_notification',
    title,
    message: message(author),
    data: { postId, actorId: authorId },
    actor_id: authorId,
    post_id: postId,
    created_at: createdAt,
  };
}

/**
 * In a fold, what one event tells its recipients, held once for all of them, with the event's position. Every deletion
 * but a user's own takes an announcement away whole (all its rows share the post, comment, request and actor deleted
 * by): the fold notes when each actor, post, comment and request was deleted, and whatever was announced about it
 * before then is gone. (Deletions are rare: indexing every announcement by what it is about, to find it when one
 * came, took a third of the fold's time.) Its rows' content is made when they are read.
 */
type Announcement = Omit<NewNotification, 'recipientId'> & { createdAt: string; position: bigint };
/** One recipient's notification in a fold: the row is its `id`, `user_id` and `read` with what `of` says. */
type Delivered = { id: string; user_id: string; read: boolean; deleted: boolean; of: Announcement };

/**
 * Files `row` under `key` of a fold's secondary index. A row deleted otherwise stays listed (cheaper than finding it
 * in every list): whoever reads a list skips the rows deleted since.
 */
function file<R>(index: Map<string, R[]>, key: string, row: R): void {
  const list = index.get(key);
  if (list) list.push(row);
  else index.set(key, [row]);
}

/** Deletes from `table` every row of `index` under `key` it still holds, and the list itself. */
function deleteListed<R extends { id: string }>(table: Map<string, R>, index: Map<string, R[]>, key: string) {
  const list = index.get(key);
  if (!list) return;
  for (const row of list) if (table.get(row.id) === row) table.delete(row.id);
  index.delete(key);
}

/** Keeps in `list` (in place) only what passes `keep`; answers how many are left. */
function keepOnly<R>(list: R[], keep: (item: R) => boolean): number {
  let kept = 0;
  for (const item of list) if (keep(item)) list[kept++] = item;
  list.length = kept;
  return kept;
}

/** Deleted notifications still listed in a fold, past which they are swept out (see `sweep`). */
const SWEEP_AFTER = 10_000;

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

/** Whether a user receives veterinarians' posts: a verified veterinarian whose account is not deleted. */
const isVet = (u: Pick<UserRow, 'is_veterinarian' | 'verified' | 'deleted'>) =>
  u.is_veterinarian && u.verified && !u.deleted;

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
  fold: () => {
    /** Each user's notifications (deleted ones too, until swept): what the rows are read from. */
    const toUser = new Map<string, Delivered[]>();
    /** When each actor (user), post, comment and request was last deleted: what was announced before is gone. */
    const actorGone = new Map<string, bigint>();
    const postGone = new Map<string, bigint>();
    const commentGone = new Map<string, bigint>();
    const requestGone = new Map<string, bigint>();
    /** Per post, per liker, their post_like notifications, for a repeated like and an unlike. */
    const likes = new Map<string, Map<string, Delivered[]>>();
    const users = new Map<string, UserRow>();
    /** Veterinarians' posts' broadcasts in log order (taken-away ones too: `liveBroadcasts` holds the rest). */
    const broadcasts: BroadcastRow[] = [];
    const liveBroadcasts = new Map<string, BroadcastRow>();
    const broadcastsOfPost = new Map<string, Set<BroadcastRow>>();
    const broadcastsBy = new Map<string, Set<BroadcastRow>>();
    const terms = new Map<string, VetTermRow[]>();
    /** Per user, per broadcast id. A taken-away broadcast's receipts are simply not written (`apply` deletes them). */
    const receipts = new Map<string, Map<string, ReceiptRow>>();
    const marks = new Map<string, MarkRow>();
    /**
     * Per user who acted on one notification: the ids of the broadcasts they received (`notificationId`), computed
     * up to `next` in `broadcasts`. A term only ever starts after every broadcast listed, so an entry stays right.
     */
    const received = new Map<string, { byId: Map<string, BroadcastRow>; next: number }>();
    const posts = new Map<string, PostRow>();
    const postsBy = new Map<string, PostRow[]>();
    const ads = new Map<string, AdRow>();
    const adsOf = new Map<string, AdRow[]>();
    const requests = new Map<string, RequestRow>();
    const requestsBy = new Map<string, RequestRow[]>();
    const requestsOn = new Map<string, RequestRow[]>();

    const goneSince = (gone: Map<string, bigint>, key: string | undefined, position: bigint) => {
      if (key === undefined || gone.size === 0) return false;
      const at = gone.get(key);
      return at !== undefined && at > position;
    };
    const isHeld = (a: Announcement) =>
      !goneSince(actorGone, a.actorId, a.position) &&
      !goneSince(postGone, a.postId, a.position) &&
      !goneSince(commentGone, a.commentId, a.position) &&
      !goneSince(requestGone, a.requestId, a.position);
    const isLive = (n: Delivered) => !n.deleted && isHeld(n.of);
    /** Notifications not deleted, and deleted ones still listed: swept once they outnumber the live ones. */
    let live = 0;
    let unswept = 0;
    const sweep = () => {
      if (unswept < SWEEP_AFTER || unswept < live) return;
      for (const index of [toUser, ...likes.values()])
        for (const [key, list] of index) if (keepOnly(list, isLive) === 0) index.delete(key);
      unswept = 0;
    };
    const deleteOne = (n: Delivered) => {
      if (!isLive(n)) return;
      n.deleted = true;
      live--;
      unswept++;
    };
    /** Deletes every notification listed under `key`, and the list. */
    const deleteDelivered = (index: Map<string, Delivered[]>, key: string) => {
      for (const n of index.get(key) ?? []) deleteOne(n);
      index.delete(key);
      sweep();
    };
    /** Takes away everything announced so far about `key` (an actor, post, comment or request). */
    const deleteAnnounced = (gone: Map<string, bigint>, key: string, recorded: RecordedEvent) => {
      gone.set(key, recorded.position);
    };

    const usernameOf = (userId: string) => users.get(userId)?.username ?? T.someone;
    /** As `reconsiderVet`. */
    const reconsiderVet = (user: UserRow, recorded: RecordedEvent) => {
      const list = terms.get(user.id);
      const open = list?.find((t) => t.until === null);
      if (isVet(user) && !open) {
        const term = { user_id: user.id, since: recorded.position, until: null };
        if (list) list.push(term);
        else terms.set(user.id, [term]);
      } else if (!isVet(user) && open) open.until = recorded.position;
    };
    const receives = (userId: string, b: BroadcastRow) =>
      b.actor_id !== userId &&
      (terms.get(userId)?.some((t) => b.position > t.since && (t.until === null || b.position < t.until)) ??
        false);
    /** The broadcast `id` names among `userId`'s notifications, with whether they read it; null if none. */
    const broadcastSeen = (userId: string, id: string): { b: BroadcastRow; read: boolean } | null => {
      let r = received.get(userId);
      if (!r) received.set(userId, (r = { byId: new Map(), next: 0 }));
      for (; r.next < broadcasts.length; r.next++) {
        const b = broadcasts[r.next]!;
        if (receives(userId, b)) r.byId.set(notificationId(b.id, userId), b);
      }
      const b = r.byId.get(id);
      if (!b || !liveBroadcasts.has(b.id)) return null;
      const mark = marks.get(userId);
      const receipt = receipts.get(userId)?.get(b.id);
      if (b.position <= (mark?.deleted_before ?? 0n) || receipt?.deleted === true) return null;
      return { b, read: b.position < (mark?.read_before ?? 0n) || receipt !== undefined };
    };
    const dropBroadcasts = (index: Map<string, Set<BroadcastRow>>, key: string) => {
      for (const b of index.get(key) ?? []) {
        liveBroadcasts.delete(b.id);
        removeFrom(broadcastsOfPost, b.post_id, b);
        removeFrom(broadcastsBy, b.actor_id, b);
      }
    };
    const markAll = (userId: string, mark: 'read_before' | 'deleted_before', recorded: RecordedEvent) => {
      let row = marks.get(userId);
      if (!row) marks.set(userId, (row = { user_id: userId, read_before: 0n, deleted_before: 0n }));
      row[mark] = recorded.position;
    };

    const announce = (
      recorded: RecordedEvent,
      about: Omit<NewNotification, 'recipientId'>,
      createdAt: string,
    ): Announcement => ({
      // Every field, in one order (not a spread: V8 would give each kind a hidden class of its own, and the rows are
      // read from announcements of every kind alike).
      type: about.type,
      title: about.title,
      message: about.message,
      actorId: about.actorId,
      postId: about.postId,
      commentId: about.commentId,
      adId: about.adId,
      requestId: about.requestId,
      createdAt,
      position: recorded.position,
    });
    /** The recipients `notify` already kept for the event it was last called for: one notification each (its id). */
    let telling: RecordedEvent | null = null;
    const told = new Set<string>();
    /**
     * As `notify`: nobody hears of their own action nor after their account was deleted, once per event. Answers
     * the notification made, if any.
     */
    const notify = (recorded: RecordedEvent, a: Announcement, recipientId: string): Delivered | null => {
      if (recipientId === a.actorId || users.get(recipientId)?.deleted === true) return null;
      if (telling !== recorded) {
        telling = recorded;
        told.clear();
      }
      if (told.has(recipientId)) return null;
      told.add(recipientId);
      const n: Delivered = {
        id: notificationId(recorded.eventId, recipientId),
        user_id: recipientId,
        read: false,
        deleted: false,
        of: a,
      };
      live++;
      file(toUser, recipientId, n);
      return n;
    };
    function* notificationRows(): Generator<NotificationRow> {
      for (const list of toUser.values())
        for (const n of list) {
          if (!isLive(n)) continue;
          const c = contentOf(n.of, n.of.createdAt);
          yield {
            id: n.id,
            user_id: n.user_id,
            type: c.type,
            title: c.title,
            message: c.message,
            data: c.data,
            actor_id: c.actor_id,
            post_id: c.post_id,
            comment_id: c.comment_id,
            ad_id: c.ad_id,
            request_id: c.request_id,
            read: n.read,
            created_at: c.created_at,
          };
        }
    }

    function* receiptRows(): Generator<ReceiptRow> {
      for (const mine of receipts.values())
        for (const receipt of mine.values()) if (liveBroadcasts.has(receipt.broadcast_id)) yield receipt;
    }

    return {
      apply(recorded) {
        const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
        switch (event.type) {
          // ── who is who ──
          case 'UserRegistered': {
            const d = event.data;
            const id = userIdOfStream(recorded.streamId);
            // The merge leaves `deleted` as it was: a deleted account stays one.
            let user = users.get(id);
            if (!user)
              users.set(
                id,
                (user = { id, username: '', is_veterinarian: false, verified: false, deleted: false }),
              );
            user.username = user.deleted ? '' : String(d.username);
            user.is_veterinarian = d.isVeterinarian === true;
            user.verified = d.via !== 'password';
            reconsiderVet(user, recorded);
            return;
          }
          case 'RegistrationRenewed': {
            const user = users.get(userIdOfStream(recorded.streamId));
            if (!user) return;
            user.username = user.deleted ? '' : String(event.data.username);
            user.is_veterinarian = event.data.isVeterinarian === true;
            reconsiderVet(user, recorded);
            return;
          }
          case 'EmailVerified': {
            const user = users.get(userIdOfStream(recorded.streamId));
            if (!user) return;
            user.verified = true;
            reconsiderVet(user, recorded);
            return;
          }

          case 'UserDeleted': {
            const userId = text(event.data.userId);
            if (!userId) return;
            deleteAnnounced(actorGone, userId, recorded);
            deleteDelivered(toUser, userId);
            deleteListed(posts, postsBy, userId);
            deleteListed(requests, requestsBy, userId);
            // The requests on their ads go with the ads.
            for (const ad of adsOf.get(userId) ?? [])
              if (ads.get(ad.id) === ad) deleteListed(requests, requestsOn, ad.id);
            deleteListed(ads, adsOf, userId);
            let user = users.get(userId);
            if (!user)
              users.set(
                userId,
                (user = { id: userId, username: '', is_veterinarian: false, verified: false, deleted: true }),
              );
            user.username = '';
            user.is_veterinarian = false;
            user.verified = false;
            user.deleted = true;
            dropBroadcasts(broadcastsBy, userId);
            for (const table of [terms, receipts, marks, received]) table.delete(userId);
            return;
          }

          // ── community ──
          case 'PostPublished': {
            const d = event.data;
            const postId = text(d.postId);
            const authorId = text(d.authorId);
            if (!postId || !authorId) return;
            if (!posts.has(postId)) {
              const post = { id: postId, author_id: authorId };
              posts.set(postId, post);
              file(postsBy, authorId, post);
            }
            if (d.authorIsVeterinarian !== true) return;
            const b = broadcastRow(
              recorded,
              postId,
              authorId,
              usernameOf(authorId),
              timeOf(d.publishedAt, recorded),
            );
            broadcasts.push(b);
            liveBroadcasts.set(b.id, b);
            addTo(broadcastsOfPost, postId, b);
            addTo(broadcastsBy, authorId, b);
            return;
          }
          case 'PostDeleted': {
            const postId = text(event.data.postId);
            if (!postId) return;
            posts.delete(postId);
            deleteAnnounced(postGone, postId, recorded);
            dropBroadcasts(broadcastsOfPost, postId);
            return;
          }
          case 'CommentAdded': {
            const d = event.data;
            const [postId, commentId, actorId] = [text(d.postId), text(d.commentId), text(d.authorId)];
            if (!postId || !commentId || !actorId || !posts.has(postId)) return;
            const actor = usernameOf(actorId);
            const postAuthorId = text(d.postAuthorId);
            const parentAuthorId = text(d.parentAuthorId);
            const createdAt = timeOf(d.addedAt, recorded);
            const about = { type: 'post_comment' as const, actorId, postId, commentId };
            if (postAuthorId) {
              const t = parentAuthorId === postAuthorId ? T.comment_reply : T.post_comment;
              notify(
                recorded,
                announce(recorded, { ...about, title: t.title, message: t.message(actor) }, createdAt),
                postAuthorId,
              );
            }
            if (parentAuthorId)
              notify(
                recorded,
                announce(
                  recorded,
                  { ...about, title: T.comment_reply.title, message: T.comment_reply.message(actor) },
                  createdAt,
                ),
                parentAuthorId,
              );
            return;
          }
          case 'CommentDeleted': {
            const commentId = text(event.data.commentId);
            if (commentId) deleteAnnounced(commentGone, commentId, recorded);
            return;
          }
          case 'PostLiked': {
            const d = event.data;
            const [postId, actorId, postAuthorId] = [text(d.postId), text(d.userId), text(d.postAuthorId)];
            if (!postId || !actorId || !postAuthorId || !posts.has(postId)) return;
            let onPost = likes.get(postId);
            if (!onPost) likes.set(postId, (onPost = new Map()));
            const already = onPost.get(actorId);
            if (already?.some((n) => isLive(n) && n.user_id === postAuthorId)) return;
            const like = announce(
              recorded,
              {
                type: 'post_like',
                title: T.post_like.title,
                message: T.post_like.message(usernameOf(actorId)),
                actorId,
                postId,
              },
              timeOf(d.likedAt, recorded),
            );
            const n = notify(recorded, like, postAuthorId);
            if (n && already) already.push(n);
            else if (n) onPost.set(actorId, [n]);
            return;
          }
          case 'PostUnliked': {
            const [postId, actorId] = [text(event.data.postId), text(event.data.userId)];
            const onPost = postId ? likes.get(postId) : undefined;
            if (onPost && actorId) deleteDelivered(onPost, actorId);
            return;
          }

          // ── adoption ──
          case 'AdoptionAdPublished': {
            const d = event.data;
            const ownerId = text(d.ownerId);
            const id = adIdOfStream(recorded.streamId);
            if (!ownerId || ads.has(id)) return;
            const ad = { id, owner_id: ownerId, name: String(d.details?.name ?? '') };
            ads.set(id, ad);
            file(adsOf, ownerId, ad);
            return;
          }
          case 'AdoptionAdUpdated': {
            const name = event.data.changes?.name;
            const ad = ads.get(adIdOfStream(recorded.streamId));
            if (typeof name === 'string' && ad) ad.name = name;
            return;
          }
          case 'AdoptionRequested': {
            const d = event.data;
            const [requestId, requesterId] = [text(d.requestId), text(d.requesterId)];
            if (!requestId || !requesterId) return;
            const adId = adIdOfStream(recorded.streamId);
            if (!requests.has(requestId)) {
              const request = { id: requestId, ad_id: adId, requester_id: requesterId };
              requests.set(requestId, request);
              file(requestsBy, requesterId, request);
              file(requestsOn, adId, request);
            }
            const ad = ads.get(adId);
            if (!ad) return;
            const requested = announce(
              recorded,
              {
                type: 'adoption_request',
                title: T.adoption_request.title,
                message: T.adoption_request.message(usernameOf(requesterId), ad.name),
                actorId: requesterId,
                adId,
                requestId,
              },
              timeOf(d.requestedAt, recorded),
            );
            notify(recorded, requested, ad.owner_id);
            return;
          }
          case 'AdoptionRequestAccepted':
          case 'AdoptionRequestRejected': {
            const requestId = text(event.data.requestId);
            const request = requestId ? requests.get(requestId) : undefined;
            const ad = request ? ads.get(request.ad_id) : undefined;
            if (!requestId || !request || !ad) return;
            const accepted = event.type === 'AdoptionRequestAccepted';
            const t = accepted
              ? T.adoption_request_accepted
              : event.data.reason === ADOPTION_MESSAGES.anotherAccepted
                ? T.adoption_request_rejected_other
                : T.adoption_request_rejected;
            const decision = announce(
              recorded,
              {
                type: accepted ? 'adoption_request_accepted' : 'adoption_request_rejected',
                title: t.title,
                message: t.message(ad.name),
                actorId: ad.owner_id,
                adId: ad.id,
                requestId,
              },
              timeOf(accepted ? event.data.acceptedAt : event.data.rejectedAt, recorded),
            );
            notify(recorded, decision, request.requester_id);
            return;
          }

          case 'AdoptionRequestDeleted': {
            const requestId = text(event.data.requestId);
            if (!requestId) return;
            requests.delete(requestId);
            deleteAnnounced(requestGone, requestId, recorded);
            return;
          }

          // ── what the user did with their notifications ──
          case 'NotificationRead':
          case 'NotificationDeleted': {
            const id = text(event.data.notificationId);
            if (!id || !UUID.test(id)) return;
            // Only the stream's own user's notifications, whatever the data names.
            const userId = userIdOfNotificationsStream(recorded.streamId);
            const reading = event.type === 'NotificationRead';
            const n = toUser.get(userId)?.find((n) => n.id === id && isLive(n));
            if (n) {
              if (reading) n.read = true;
              else {
                deleteOne(n);
                sweep();
              }
              return;
            }
            const seen = broadcastSeen(userId, id);
            if (!seen || (reading && seen.read)) return;
            let mine = receipts.get(userId);
            if (!mine) receipts.set(userId, (mine = new Map()));
            mine.set(seen.b.id, { broadcast_id: seen.b.id, user_id: userId, deleted: !reading });
            return;
          }
          case 'AllNotificationsRead': {
            const userId = userIdOfNotificationsStream(recorded.streamId);
            for (const n of toUser.get(userId) ?? []) if (isLive(n)) n.read = true;
            const mine = receipts.get(userId);
            for (const [id, receipt] of mine ?? []) if (!receipt.deleted) mine!.delete(id);
            markAll(userId, 'read_before', recorded);
            return;
          }
          case 'AllNotificationsDeleted': {
            const userId = userIdOfNotificationsStream(recorded.streamId);
            deleteDelivered(toUser, userId);
            receipts.delete(userId);
            markAll(userId, 'deleted_before', recorded);
            return;
          }
          default:
            return;
        }
      },
      rows: () => ({
        notifications: notificationRows(),
        notification_users: users.values(),
        notification_posts: posts.values(),
        notification_ads: ads.values(),
        notification_adoption_requests: requests.values(),
        notification_broadcasts: liveBroadcasts.values(),
        notification_vet_terms: [...terms.values()].flat(),
        notification_receipts: receiptRows(),
        notification_marks: marks.values(),
      }),
    };
  },
});
