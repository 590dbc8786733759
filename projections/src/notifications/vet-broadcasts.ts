import { NO_NOTICES, type Notices } from '@pawhaven/platform';
import { changed } from './deliver';
import { notificationId, type BroadcastRow, type NotificationStore } from './notifications.rows';

/**
 * A veterinarian's post tells every verified veterinarian, and is kept once (`notification_broadcasts`) rather than
 * once per recipient: it reaches each user whose veterinarian's term (`notification_vet_terms`, from `since` until
 * `until`, NULL while open) holds its position, except its author. Each recipient still sees it under an id of their
 * own, `notificationId(broadcast, recipient)`; what they did with it is a receipt (`notification_receipts`: read, or
 * deleted) or a mark (`notification_marks`: everything before a position read, or deleted).
 */

/** Keeps the broadcast (once), announcing it to every veterinarian now but its author. */
export function broadcast(rows: NotificationStore, notices: Notices, b: BroadcastRow): void {
  if (rows.notification_broadcasts.get(b.id)) return;
  rows.notification_broadcasts.put(b);
  if (notices === NO_NOTICES) return;
  for (const term of rows.notification_vet_terms.findNull('until'))
    if (term.user_id !== b.actor_id)
      notices.push({ kind: 'notification', userId: term.user_id, id: notificationId(b.id, term.user_id) });
}

/** Takes broadcasts away (a deleted post, a deleted author) with their receipts, telling everyone they reached. */
export function dropBroadcasts(
  rows: NotificationStore,
  notices: Notices,
  list: readonly BroadcastRow[],
): void {
  if (list.length === 0) return;
  for (const b of list) {
    rows.notification_broadcasts.delete(b.id);
    for (const r of rows.notification_receipts.find('broadcast_id', b.id))
      rows.notification_receipts.delete(r.user_id, r.broadcast_id);
  }
  if (notices === NO_NOTICES) return;
  // The terms holding a position: open ones, and those that ended after it (after the first, for all of them).
  const first = Math.min(...list.map((b) => b.position));
  const terms = [
    ...rows.notification_vet_terms.findNull('until'),
    ...rows.notification_vet_terms.between('until', first, undefined),
  ];
  const reached = new Set<string>();
  for (const b of list)
    for (const t of terms)
      if (b.position > t.since && (t.until === null || b.position < t.until) && b.actor_id !== t.user_id)
        reached.add(t.user_id);
  changed(notices, reached);
}

/** Per row store (a rebuild's, a live batch's), per user: their broadcasts' ids as they see them, once computed. */
const idsSeen = new WeakMap<object, Map<string, Map<string, string>>>();

/**
 * The broadcast `id` names among `userId`'s notifications, with whether they read it; null if it is none they
 * still have (taken away, outside their terms, deleted by them).
 */
export function broadcastSeen(
  rows: NotificationStore,
  userId: string,
  id: string,
): { b: BroadcastRow; read: boolean } | null {
  const mark = rows.notification_marks.get(userId);
  const deletedBefore = mark?.deleted_before ?? 0;
  let seen = idsSeen.get(rows);
  if (!seen) idsSeen.set(rows, (seen = new Map()));
  let mine = seen.get(userId);
  if (!mine) seen.set(userId, (mine = new Map()));
  let b: BroadcastRow | undefined;
  // The broadcasts of their terms not deleted by a mark: each id computed once per store (a SHA-1 each).
  for (const t of rows.notification_vet_terms.find('user_id', userId)) {
    for (const candidate of rows.notification_broadcasts.between(
      'position',
      Math.max(t.since, deletedBefore),
      t.until ?? undefined,
    )) {
      if (candidate.actor_id === userId) continue;
      let its = mine.get(candidate.id);
      if (its === undefined) mine.set(candidate.id, (its = notificationId(candidate.id, userId)));
      if (its === id) b = candidate;
    }
  }
  if (!b) return null;
  const receipt = rows.notification_receipts.get(userId, b.id);
  if (receipt?.deleted === true) return null;
  return { b, read: b.position < (mark?.read_before ?? 0) || receipt !== undefined };
}
