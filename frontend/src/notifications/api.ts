import {
  NOTIFICATION_LIMITS,
  NOTIFICATION_MESSAGES,
  type NotificationDto,
  type NotificationPage,
} from '@pawhaven/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { api } from '../shared/api';
import { sessionStore } from '../shared/session-store';
import { NotificationRequestError, notificationGate, type RequestKind } from './gate';
import { notificationId } from './format';

/** Calls of the notifications: every one carries the bearer token. */
const BASE = '/api/notifications';
const id = (value: string) => encodeURIComponent(value);

export type NotificationsData = InfiniteData<NotificationPage, number>;

/**
 * Every notification call goes through the gate: refused at once during a rate-limit pause or without a token,
 * and its answer moves the gate (a 429 pauses, a 404 on a list stops polling).
 */
async function guarded<T>(kind: RequestKind, call: () => Promise<T>): Promise<T> {
  if (!sessionStore.get().token) {
    const err = new NotificationRequestError(NOTIFICATION_MESSAGES.noToken);
    notificationGate.failed(err, kind);
    throw err;
  }
  if (!notificationGate.allows()) {
    const { stopped, error } = notificationGate.get();
    throw new NotificationRequestError(
      stopped ? (error ?? NOTIFICATION_MESSAGES.notAvailable) : NOTIFICATION_MESSAGES.rateLimitedResume,
    );
  }
  try {
    const result = await call();
    notificationGate.succeeded();
    return result;
  } catch (err) {
    notificationGate.failed(err, kind);
    throw err;
  }
}

/** The list answer with its defaults filled in (`hasMore` may also come at the top level). */
function normalisePage(raw: unknown, page: number, limit: number): NotificationPage {
  const body = (raw ?? {}) as Partial<NotificationPage> & { hasMore?: boolean; data?: unknown };
  const list = Array.isArray(body.notifications)
    ? body.notifications
    : Array.isArray(body.data)
      ? (body.data as NotificationDto[])
      : [];
  const notifications = list.map((n) => ({ ...n, _id: notificationId(n), id: notificationId(n) }));
  const p = body.pagination;
  const total = typeof p?.total === 'number' ? p.total : notifications.length;
  const hasMore = p?.hasMore ?? body.hasMore ?? page * limit < total;
  return {
    success: true,
    notifications,
    pagination: { page: p?.page ?? page, limit: p?.limit ?? limit, total, hasMore: Boolean(hasMore) },
    unreadCount:
      typeof body.unreadCount === 'number' ? body.unreadCount : notifications.filter((n) => !n.read).length,
  };
}

export const notificationsApi = {
  list: (page: number, limit: number, kind: RequestKind = 'load', signal?: AbortSignal) =>
    guarded(kind, async () =>
      normalisePage(
        await api.get(`${BASE}?page=${page}&limit=${limit}`, {
          timeoutMs: NOTIFICATION_LIMITS.listTimeoutMs,
          signal,
        }),
        page,
        limit,
      ),
    ),
  unreadCount: (signal?: AbortSignal) =>
    guarded('load', async () => {
      const body = await api.get<{ count?: number; unreadCount?: number }>(`${BASE}/unread-count`, {
        signal,
      });
      return Number(body?.count ?? body?.unreadCount ?? 0);
    }),
  markRead: (notification: string) =>
    guarded('action', () => api.put<unknown>(`${BASE}/${id(notification)}/read`)),
  markAllRead: () => guarded('action', () => api.put<unknown>(`${BASE}/mark-all-read`)),
  remove: (notification: string) =>
    guarded('action', () => api.delete<unknown>(`${BASE}/${id(notification)}`)),
  removeAll: () => guarded('action', () => api.delete<unknown>(`${BASE}/delete-all`)),
};

/** Everything cached for one user lives under ['notifications', userId]. */
export const notificationKeys = {
  all: (userId: string) => ['notifications', userId] as const,
  lists: (userId: string) => ['notifications', userId, 'list'] as const,
  list: (userId: string, pageSize: number) => ['notifications', userId, 'list', pageSize] as const,
  unread: (userId: string) => ['notifications', userId, 'unread'] as const,
  poll: (userId: string) => ['notifications', userId, 'poll'] as const,
};

/** Changes every cached list: `change` gets the flat list of a page and answers the new one. */
export function patchLists(
  queryClient: QueryClient,
  userId: string,
  change: (items: NotificationDto[], pageIndex: number) => NotificationDto[],
  totalDelta: (before: NotificationDto[], after: NotificationDto[]) => number = (b, a) => a.length - b.length,
) {
  queryClient.setQueriesData<NotificationsData>({ queryKey: notificationKeys.lists(userId) }, (old) => {
    if (!old) return old;
    let delta = 0;
    const pages = old.pages.map((page, i) => {
      const next = change(page.notifications, i);
      delta += totalDelta(page.notifications, next);
      return next === page.notifications ? page : { ...page, notifications: next };
    });
    return {
      ...old,
      pages: pages.map((page) => ({
        ...page,
        pagination: { ...page.pagination, total: Math.max(0, page.pagination.total + delta) },
      })),
    };
  });
}

/** A new notification (pushed or polled) goes first in every list, once; unread ones raise the badge. */
export function addNotification(queryClient: QueryClient, userId: string, n: NotificationDto) {
  const key = notificationId(n);
  const item = { ...n, _id: key, id: key };
  let known = false;
  const lists = queryClient.getQueriesData<NotificationsData>({ queryKey: notificationKeys.lists(userId) });
  for (const [, data] of lists)
    if (data?.pages.some((p) => p.notifications.some((x) => notificationId(x) === key))) known = true;
  if (known) return;
  patchLists(queryClient, userId, (items, i) => (i === 0 ? [item, ...items] : items));
  if (!item.read) queryClient.setQueryData<number>(notificationKeys.unread(userId), (c) => (c ?? 0) + 1);
}

/** Every notification of the cached lists, newest first, each once (pages can overlap after new arrivals). */
export function flatten(data: { pages: NotificationPage[] } | undefined): NotificationDto[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: NotificationDto[] = [];
  for (const page of data.pages)
    for (const n of page.notifications) {
      const key = notificationId(n);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(n);
    }
  return out;
}
