/** The notifications read model's tables (rows, keys, lookups), its notification ids and its row makers. */
import { hash } from 'node:crypto';
import {
  NOTIFICATION_TEXTS as T,
  type AdoptionEvent,
  type CommunityEvent,
  type NotificationDto,
  type NotificationEvent,
  type NotificationType,
  type UserEvent,
} from '@pawhaven/contracts';
import type { RecordedEvent, RowStore, TableSpec } from '@pawhaven/platform';

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

export type Handled = CommunityEvent | AdoptionEvent | UserEvent | NotificationEvent;

export type NewNotification = {
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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The event's own time when it is one, else the time it was recorded: both replay identically. */
export const timeOf = (value: unknown, recorded: RecordedEvent): string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : recorded.createdAt.toISOString();

export const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A `notifications` row, every column included; `data` is what its jsonb column holds. */
export type NotificationRow = {
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
export type UserRow = {
  id: string;
  username: string;
  is_veterinarian: boolean;
  verified: boolean;
  deleted: boolean;
};
export type PostRow = { id: string; author_id: string };
export type AdRow = { id: string; owner_id: string; name: string };
export type RequestRow = { id: string; ad_id: string; requester_id: string };

/** `n` as its recipient's row (`id`), unread, created at `createdAt`. */
export function notificationRow(id: string, n: NewNotification, createdAt: string): NotificationRow {
  const data: NotificationDto['data'] = {};
  if (n.postId) data.postId = n.postId;
  if (n.commentId) data.commentId = n.commentId;
  if (n.adId) data.adId = n.adId;
  if (n.requestId) data.requestId = n.requestId;
  data.actorId = n.actorId;
  // Every column, in one order (rows of every kind share one shape).
  return {
    id,
    user_id: n.recipientId,
    type: n.type,
    title: n.title,
    message: n.message,
    data,
    actor_id: n.actorId,
    post_id: n.postId ?? null,
    comment_id: n.commentId ?? null,
    ad_id: n.adId ?? null,
    request_id: n.requestId ?? null,
    read: false,
    created_at: createdAt,
  };
}

/** A `notification_broadcasts` row, every column included; `position` is the PostPublished event's. */
export type BroadcastRow = {
  id: string;
  position: number;
  type: 'new_post_vet_notification';
  title: string;
  message: string;
  data: NotificationDto['data'];
  actor_id: string;
  post_id: string;
  created_at: string;
};
/** Log positions (bigint columns) are numbers: a log holds fewer than 2^53 events. */
export type VetTermRow = { user_id: string; since: number; until: number | null };
export type ReceiptRow = { broadcast_id: string; user_id: string; deleted: boolean };
export type MarkRow = { user_id: string; read_before: number; deleted_before: number };

/** Whether a user receives veterinarians' posts: a verified veterinarian whose account is not deleted. */
export const isVet = (u: Pick<UserRow, 'is_veterinarian' | 'verified' | 'deleted'>) =>
  u.is_veterinarian && u.verified && !u.deleted;

/** The broadcast of a veterinarian's post `postId`. */
export function broadcastRow(
  recorded: RecordedEvent,
  postId: string,
  authorId: string,
  author: string,
  createdAt: string,
): BroadcastRow {
  const { title, message } = T.new_post_vet_notification;
  return {
    id: recorded.eventId,
    position: Number(recorded.position),
    type: 'new_post_vet_notification',
    title,
    message: message(author),
    data: { postId, actorId: authorId },
    actor_id: authorId,
    post_id: postId,
    created_at: createdAt,
  };
}

export type NotificationRows = {
  notifications: NotificationRow;
  notification_users: UserRow;
  notification_posts: PostRow;
  notification_ads: AdRow;
  notification_adoption_requests: RequestRow;
  notification_broadcasts: BroadcastRow;
  notification_vet_terms: VetTermRow;
  notification_receipts: ReceiptRow;
  notification_marks: MarkRow;
};
export type NotificationStore = RowStore<NotificationRows>;

/**
 * Keys, and what each table is found by: a user's notifications, those they caused, those about a post, a comment,
 * a request; an author's posts, an owner's ads, a requester's requests and an ad's; a post's and an author's
 * broadcasts, and broadcasts by position; a user's terms, and terms by their end (NULL: open); a user's receipts and
 * a broadcast's.
 */
export const NOTIFICATION_TABLES: { [K in keyof NotificationRows]: TableSpec<NotificationRows[K]> } = {
  notifications: { key: ['id'], lookups: ['user_id', 'actor_id', 'post_id', 'comment_id', 'request_id'] },
  notification_users: { key: ['id'] },
  notification_posts: { key: ['id'], lookups: ['author_id'] },
  notification_ads: { key: ['id'], lookups: ['owner_id'] },
  notification_adoption_requests: { key: ['id'], lookups: ['requester_id', 'ad_id'] },
  notification_broadcasts: { key: ['id'], lookups: ['post_id', 'actor_id'], ranges: ['position'] },
  notification_vet_terms: { key: ['user_id', 'since'], lookups: ['user_id'], ranges: ['until'] },
  notification_receipts: { key: ['user_id', 'broadcast_id'], lookups: ['user_id', 'broadcast_id'] },
  notification_marks: { key: ['user_id'] },
};

/** A user's name as notifications quote it. */
export const usernameOf = (rows: NotificationStore, userId: string) =>
  rows.notification_users.get(userId)?.username ?? T.someone;
