import type { Notices, RecordedEvent } from '@pawhaven/platform';
import {
  notificationId,
  notificationRow,
  type NewNotification,
  type NotificationRow,
  type NotificationStore,
} from './notifications.rows';

/**
 * Creates an event's notifications, each announced to its recipient ({ kind: 'notification', userId, id }): one per
 * recipient, never one for the recipient's own action, and none for a deleted account (a reply to their comment,
 * say). Its id comes from the event and the recipient (`notificationId`), so a notification is created once.
 */
export function notify(
  rows: NotificationStore,
  recorded: RecordedEvent,
  notices: Notices,
  createdAt: string,
  list: readonly NewNotification[],
): void {
  const seen = new Set<string>();
  for (const n of list) {
    const userId = n.recipientId;
    if (userId === n.actorId || seen.has(userId)) continue;
    if (rows.notification_users.get(userId)?.deleted === true) continue;
    seen.add(userId);
    const id = notificationId(recorded.eventId, userId);
    if (rows.notifications.get(id)) continue;
    rows.notifications.put(notificationRow(id, n, createdAt));
    notices.push({ kind: 'notification', userId, id });
  }
}

/** Announces to each of `userIds` once that their list changed (read, deleted, removed). */
export function changed(notices: Notices, userIds: Iterable<string>): void {
  for (const userId of new Set(userIds)) notices.push({ kind: 'notifications-changed', userId });
}

/** Takes notifications away (each once, if listed twice), telling their recipients. */
export function takeAway(rows: NotificationStore, notices: Notices, list: readonly NotificationRow[]): void {
  const gone = new Map<string, string>();
  for (const n of list) gone.set(n.id, n.user_id);
  for (const id of gone.keys()) rows.notifications.delete(id);
  changed(notices, gone.values());
}
