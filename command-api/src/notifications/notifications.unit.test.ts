import { describe, it } from 'vitest';
import { NOTIFICATION_MESSAGES as M, type NotificationEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { notificationsDecider, type SeenNotification } from './notifications';

const given = deciderSpec(notificationsDecider);
const now = new Date('2026-11-21T10:00:00.000Z');
const at = now.toISOString();
const earlier = '2026-11-20T09:00:00.000Z';
const N1 = '11111111-1111-5111-8111-111111111111';
const N2 = '22222222-2222-5222-8222-222222222222';

const unread: SeenNotification = { read: false };
const alreadyRead: SeenNotification = { read: true };

const read = (notificationId: string): NotificationEvent => ({
  type: 'NotificationRead',
  data: { userId: 'alice', notificationId, at: earlier },
});
const deleted = (notificationId: string): NotificationEvent => ({
  type: 'NotificationDeleted',
  data: { userId: 'alice', notificationId, at: earlier },
});
const allRead: NotificationEvent = { type: 'AllNotificationsRead', data: { userId: 'alice', at: earlier } };
const allDeleted: NotificationEvent = {
  type: 'AllNotificationsDeleted',
  data: { userId: 'alice', at: earlier },
};

const markRead = (notificationId: string, seen: SeenNotification) => ({
  type: 'MarkRead' as const,
  data: { userId: 'alice', notificationId, seen, now },
});
const markAllRead = (unreadCount: number) => ({
  type: 'MarkAllRead' as const,
  data: { userId: 'alice', unread: unreadCount, now },
});
const remove = (notificationId: string, seen: SeenNotification) => ({
  type: 'DeleteNotification' as const,
  data: { userId: 'alice', notificationId, seen, now },
});
const removeAll = (total: number) => ({
  type: 'DeleteAllNotifications' as const,
  data: { userId: 'alice', total, now },
});

describe('MarkRead', () => {
  it('records that the user read an unread notification of theirs', () =>
    given()
      .when(markRead(N1, unread))
      .then([{ type: 'NotificationRead', data: { userId: 'alice', notificationId: N1, at } }]));

  it('records nothing for a notification already read, as the read model shows it', () =>
    given().when(markRead(N1, alreadyRead)).thenNothing());

  it('records nothing for one read a moment ago that the read model does not show read yet', () =>
    given(read(N1)).when(markRead(N1, unread)).thenNothing());

  it('reads another notification after one was read', () =>
    given(read(N1))
      .when(markRead(N2, unread))
      .then([{ type: 'NotificationRead', data: { userId: 'alice', notificationId: N2, at } }]));

  it('answers 404 for a notification that is not this user’s (someone else’s or unknown)', () =>
    given().when(markRead(N1, null)).thenRefuses(404, M.notFound));

  it('answers 404 for one deleted a moment ago that the read model still shows', () =>
    given(deleted(N1)).when(markRead(N1, unread)).thenRefuses(404, M.notFound));
});

describe('MarkAllRead', () => {
  it('records that the user read everything while something is unread', () =>
    given(read(N1))
      .when(markAllRead(2))
      .then([{ type: 'AllNotificationsRead', data: { userId: 'alice', at } }]));

  it('records nothing when nothing is unread', () => given().when(markAllRead(0)).thenNothing());

  it('may be recorded again later, for notifications that arrived since', () =>
    given(allRead)
      .when(markAllRead(1))
      .then([{ type: 'AllNotificationsRead', data: { userId: 'alice', at } }]));
});

describe('DeleteNotification', () => {
  it('records that the user deleted a notification of theirs, read or not', () => {
    given()
      .when(remove(N1, unread))
      .then([{ type: 'NotificationDeleted', data: { userId: 'alice', notificationId: N1, at } }]);
    given(read(N1))
      .when(remove(N1, alreadyRead))
      .then([{ type: 'NotificationDeleted', data: { userId: 'alice', notificationId: N1, at } }]);
  });

  it('answers 404 for a notification that is not this user’s (someone else’s or unknown)', () =>
    given().when(remove(N1, null)).thenRefuses(404, M.notFound));

  it('answers 404 for a second delete, even while the read model still shows it', () =>
    given(deleted(N1)).when(remove(N1, unread)).thenRefuses(404, M.notFound));
});

describe('DeleteAllNotifications', () => {
  it('records that the user deleted everything while they have something', () =>
    given()
      .when(removeAll(3))
      .then([{ type: 'AllNotificationsDeleted', data: { userId: 'alice', at } }]));

  it('records nothing when there is nothing to delete', () => given().when(removeAll(0)).thenNothing());

  it('forgets what was read and deleted before it: the stream state starts afresh', () => {
    given(read(N1), deleted(N2), allDeleted)
      .when(markRead(N1, unread))
      .then([{ type: 'NotificationRead', data: { userId: 'alice', notificationId: N1, at } }]);
    given(read(N1), deleted(N2), allDeleted)
      .when(remove(N2, unread))
      .then([{ type: 'NotificationDeleted', data: { userId: 'alice', notificationId: N2, at } }]);
  });
});
