import { NOTIFICATION_MESSAGES as M, type NotificationEvent } from '@pawhaven/contracts';
import { notFound } from '@pawhaven/platform';

/**
 * What a user does with their notifications, stream `notifications-{userId}`. The notifications themselves are a
 * read model (projections/notifications): the route hands the decider the notification as that read model has it
 * for this user (null: unknown, or someone else's), and the decider adds what its own stream knows and the read
 * model may not show yet (read or deleted a moment ago), so a repeated click records nothing twice.
 */

/** The notification as the read model shows it to its owner; null when this user has no such notification. */
export type SeenNotification = { read: boolean } | null;

export type NotificationCommand =
  | { type: 'MarkRead'; data: { userId: string; notificationId: string; seen: SeenNotification; now: Date } }
  | { type: 'MarkAllRead'; data: { userId: string; unread: number; now: Date } }
  | {
      type: 'DeleteNotification';
      data: { userId: string; notificationId: string; seen: SeenNotification; now: Date };
    }
  | { type: 'DeleteAllNotifications'; data: { userId: string; total: number; now: Date } };

type NotificationsState = {
  /** Read one by one since the last delete-all. */
  read: Record<string, true>;
  /** Deleted one by one since the last delete-all. */
  deleted: Record<string, true>;
};

const initialNotificationsState = (): NotificationsState => ({ read: {}, deleted: {} });

function evolveNotifications(state: NotificationsState, event: NotificationEvent): NotificationsState {
  switch (event.type) {
    case 'NotificationRead':
      return { ...state, read: { ...state.read, [event.data.notificationId]: true } };
    case 'NotificationDeleted':
      return { ...state, deleted: { ...state.deleted, [event.data.notificationId]: true } };
    case 'AllNotificationsRead':
      return state;
    // Everything before is gone: nothing older needs remembering.
    case 'AllNotificationsDeleted':
      return initialNotificationsState();
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

function decideNotifications(command: NotificationCommand, state: NotificationsState): NotificationEvent[] {
  const at = command.data.now.toISOString();
  const { userId } = command.data;
  const existing = (notificationId: string, seen: SeenNotification) => {
    if (!seen || state.deleted[notificationId]) throw notFound(M.notFound);
    return seen;
  };

  switch (command.type) {
    case 'MarkRead': {
      const { notificationId } = command.data;
      const seen = existing(notificationId, command.data.seen);
      if (seen.read || state.read[notificationId]) return [];
      return [{ type: 'NotificationRead', data: { userId, notificationId, at } }];
    }
    case 'MarkAllRead':
      if (command.data.unread === 0) return [];
      return [{ type: 'AllNotificationsRead', data: { userId, at } }];
    case 'DeleteNotification': {
      const { notificationId } = command.data;
      existing(notificationId, command.data.seen);
      return [{ type: 'NotificationDeleted', data: { userId, notificationId, at } }];
    }
    case 'DeleteAllNotifications':
      if (command.data.total === 0) return [];
      return [{ type: 'AllNotificationsDeleted', data: { userId, at } }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const notificationsDecider = {
  initialState: initialNotificationsState,
  evolve: evolveNotifications,
  decide: decideNotifications,
};
