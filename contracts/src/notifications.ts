import { z } from 'zod';

export const NOTIFICATION_TYPES = [
  'post_like',
  'post_comment',
  'new_post_vet_notification',
  'adoption_request',
  'adoption_request_accepted',
  'adoption_request_rejected',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_LIMITS = {
  panelPageSize: 20,
  pagePageSize: 5,
  pageSizeMax: 50,
  pollIntervalMs: 120_000,
  rateLimitPauseMs: 120_000,
  healthTimeoutMs: 5000,
  listTimeoutMs: 10_000,
  badgeMax: 99,
  socketReconnectionAttempts: 3,
  socketReconnectionDelayMs: 1000,
  socketTimeoutMs: 10_000,
  socketFallbackMs: 5000,
  relativeDays: 30,
} as const;

/** Every user-visible text of the notifications. */
export const NOTIFICATION_MESSAGES = {
  title: 'Notifications',
  markAllRead: 'Mark All Read',
  deleteAll: 'Delete All',
  loadMore: 'Load More',
  empty: 'No notifications yet',
  viewAll: 'View all',
  deleteAllTitle: 'Delete All Notifications',
  deleteAllConfirm: 'Are you sure you want to delete all notifications? This action cannot be undone.',
  realtime: 'Real-time',
  polling: 'Polling',
  offline: 'Offline',
  connectionError: 'Connection error: ',
  notAvailable: 'Notification service not available',
  rateLimited: 'Too many requests. Please wait a moment.',
  rateLimitedResume: 'Rate limited. Notifications will resume shortly.',
  authRequired: 'Authentication required',
  noToken: 'No token provided',
  fetchFailed: 'Failed to fetch notifications',
  backendUnavailable: 'Backend service not available',
  justNow: 'Just now',
  notFound: 'Notification not found',
  markedRead: 'Notification marked as read',
  allMarkedRead: 'All notifications marked as read',
  deleted: 'Notification deleted',
  allDeleted: 'All notifications deleted',
  // Client texts of our own
  actionFailed: 'Failed to update notifications',
  deleteOne: 'Delete notification',
  markRead: 'Mark as read',
  unread: 'Unread',
  close: 'Close notifications',
  deleting: 'Deleting...',
  tryAgain: 'Try Again',
  signIn: 'Sign in',
} as const;

/**
 * The title and message of each kind of notification, in the words the recipient reads. The projection writes them
 * when it creates a notification (with the names as they were then), so a rebuild writes the same text.
 */
export const NOTIFICATION_TEXTS = {
  post_like: { title: 'New like', message: (actor: string) => `${actor} liked your post` },
  post_comment: { title: 'New comment', message: (actor: string) => `${actor} commented on your post` },
  /** A reply, to the author of the comment answered. */
  comment_reply: { title: 'New reply', message: (actor: string) => `${actor} replied to your comment` },
  new_post_vet_notification: {
    title: 'New post from a veterinarian',
    message: (actor: string) => `Veterinarian ${actor} shared a new post`,
  },
  adoption_request: {
    title: 'New adoption request',
    message: (actor: string, pet: string) => `${actor} wants to adopt ${pet}`,
  },
  adoption_request_accepted: {
    title: 'Adoption request accepted',
    message: (pet: string) => `Your request to adopt ${pet} was accepted`,
  },
  adoption_request_rejected: {
    title: 'Adoption request declined',
    message: (pet: string) => `Your request to adopt ${pet} was declined`,
  },
  /** Declined because the owner accepted someone else's request. */
  adoption_request_rejected_other: {
    title: 'Adoption request declined',
    message: (pet: string) => `${pet} has found another home: your request was declined`,
  },
  /** Who did it, when that account is not known (any more). */
  someone: 'Someone',
} as const;

export const notificationListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(NOTIFICATION_LIMITS.pageSizeMax)
    .default(NOTIFICATION_LIMITS.panelPageSize),
});

export type NotificationDto = {
  _id: string;
  id: string;
  type: NotificationType;
  title: string;
  message: string;
  /** The ids needed to open it: postId for post types; adId and requestId for adoption types. */
  data: { postId?: string; adId?: string; requestId?: string; commentId?: string; actorId?: string };
  read: boolean;
  createdAt: string;
};

/** PUT /:id/read, PUT /mark-all-read, DELETE /:id, DELETE /delete-all. No position when nothing changed. */
export type NotificationCommandResponse = { success: true; message: string; position?: string };

export type UnreadCountResponse = { success: true; count: number };

export type NotificationPage = {
  success: true;
  notifications: NotificationDto[];
  pagination: { page: number; limit: number; total: number; hasMore: boolean };
  unreadCount: number;
};
