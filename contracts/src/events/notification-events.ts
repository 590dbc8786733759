/**
 * Events of one user's notifications (stream `notifications-{userId}`), version 1. The notifications themselves
 * are built by a projection from what happened (likes, comments, vet posts, adoption requests); only what the user
 * does with them is recorded here, so a rebuild reproduces the same list with the same read flags.
 */
export type NotificationEvent =
  | { type: 'NotificationRead'; data: { userId: string; notificationId: string; at: string } }
  | { type: 'AllNotificationsRead'; data: { userId: string; at: string } }
  | { type: 'NotificationDeleted'; data: { userId: string; notificationId: string; at: string } }
  | { type: 'AllNotificationsDeleted'; data: { userId: string; at: string } };

export type NotificationEventType = NotificationEvent['type'];

export const NOTIFICATION_EVENT_TYPES = [
  'NotificationRead',
  'AllNotificationsRead',
  'NotificationDeleted',
  'AllNotificationsDeleted',
] as const satisfies readonly NotificationEventType[];

export const notificationsStream = (userId: string) => `notifications-${userId}`;
export const userIdOfNotificationsStream = (streamId: string) => streamId.slice('notifications-'.length);
