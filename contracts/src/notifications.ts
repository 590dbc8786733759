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

/** Every user-visible text of the notifications (spec 001 §5, §8). */
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

export type NotificationPage = {
  success: true;
  notifications: NotificationDto[];
  pagination: { page: number; limit: number; total: number; hasMore: boolean };
  unreadCount: number;
};
