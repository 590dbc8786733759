import { userIdOfNotificationsStream, type NotificationEvent } from '@pawhaven/contracts';
import { NO_NOTICES, type Notices, type RecordedEvent } from '@pawhaven/platform';
import { text, UUID, type NotificationStore } from './notifications.rows';
import { broadcastSeen } from './vet-broadcasts';

/**
 * What a user did with their notifications, recorded in `notifications-{userId}` (read, deleted, all read, all
 * deleted): applied to that user's notifications only, whatever the data names, so a rebuild reproduces the same
 * list with the same read flags. Each change is announced ({ kind: 'notifications-changed', userId }).
 */
export function applyListEvent(
  rows: NotificationStore,
  recorded: RecordedEvent,
  event: NotificationEvent,
  notices: Notices,
): void {
  const userId = userIdOfNotificationsStream(recorded.streamId);
  switch (event.type) {
    case 'NotificationRead':
    case 'NotificationDeleted': {
      const id = text(event.data.notificationId);
      if (!id || !UUID.test(id)) return;
      const reading = event.type === 'NotificationRead';
      const own = rows.notifications.get(id);
      if (own?.user_id === userId) {
        if (reading && own.read) return;
        if (reading) rows.notifications.put({ ...own, read: true });
        else rows.notifications.delete(id);
      } else {
        const seen = broadcastSeen(rows, userId, id);
        if (!seen || (reading && seen.read)) return;
        rows.notification_receipts.put({ broadcast_id: seen.b.id, user_id: userId, deleted: !reading });
      }
      notices.push({ kind: 'notifications-changed', userId });
      return;
    }
    case 'AllNotificationsRead':
    case 'AllNotificationsDeleted': {
      const reading = event.type === 'AllNotificationsRead';
      let count = 0;
      for (const n of rows.notifications.find('user_id', userId)) {
        if (reading && n.read) continue;
        if (reading) rows.notifications.put({ ...n, read: true });
        else rows.notifications.delete(n.id);
        count++;
      }
      // Every broadcast before this event is read (deleted) for them: receipts saying so are no longer needed.
      for (const r of rows.notification_receipts.find('user_id', userId))
        if (!reading || !r.deleted) rows.notification_receipts.delete(r.user_id, r.broadcast_id);
      const mark = rows.notification_marks.get(userId) ?? {
        user_id: userId,
        read_before: 0,
        deleted_before: 0,
      };
      const at = Number(recorded.position);
      rows.notification_marks.put(reading ? { ...mark, read_before: at } : { ...mark, deleted_before: at });
      if (notices === NO_NOTICES) return;
      // Their list changed if they had notifications of their own, or may have had broadcasts.
      if (count > 0 || rows.notification_vet_terms.find('user_id', userId).length > 0)
        notices.push({ kind: 'notifications-changed', userId });
      return;
    }
    default: {
      const _exhaustive: never = event;
      return;
    }
  }
}
