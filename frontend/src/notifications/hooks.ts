import { useEffect, useRef, useSyncExternalStore } from 'react';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import {
  NOTIFICATION_LIMITS,
  NOTIFICATION_MESSAGES,
  type NotificationDto,
  type NotificationPage,
} from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import { useSession } from '../shared/session';
import { useToast } from '../shared/toast';
import { useRealtime, useSocketEvent } from '../realtime';
import { useBackendReady } from '../realtime/RealtimeProvider';
import { addNotification, flatten, notificationKeys, notificationsApi, patchLists } from './api';
import { notificationId } from './format';
import { failureMessage, gateAllows, isNotFound, notificationGate } from './gate';
import { userIdOf } from '../shared/user-id';

/** Only a lost answer is worth one more try; a 4xx answer (429, 404, 401) would only make things worse. */
const retryLostAnswer = (failureCount: number, err: unknown) =>
  failureCount < 1 && err instanceof ApiError && err.kind === 'network';

const useNotificationGate = () =>
  useSyncExternalStore(notificationGate.subscribe, notificationGate.get, notificationGate.get);

/**
 * Who the notifications are for, and whether they may be requested now: signed in with a token, the health check
 * answered and no rate-limit pause or 404 stop.
 */
export function useNotificationAccess() {
  const { user, token, ready } = useSession();
  const userId = userIdOf(user);
  const gate = useNotificationGate();
  const { backendReady, recheck } = useBackendReady();
  const signedIn = ready && Boolean(userId && token);
  return {
    userId,
    signedIn,
    enabled: signedIn && backendReady && gateAllows(gate, Date.now()),
    gate,
    /** After a stop or an error: open the gate and ask again. */
    retry: () => {
      notificationGate.reset();
      recheck();
    },
  };
}

/** The bell's number: GET /unread-count once, then kept by pushes, polls, list answers and our own actions. */
export function useUnreadCount() {
  const { userId, enabled } = useNotificationAccess();
  const query = useQuery({
    queryKey: notificationKeys.unread(userId ?? ''),
    queryFn: ({ signal }) => notificationsApi.unreadCount(signal),
    enabled,
    staleTime: Infinity,
    retry: retryLostAnswer,
  });
  return query.data ?? 0;
}

/** The list, newest first, `pageSize` at a time (20 in the panel, 5 on the page); `open` while it is shown. */
export function useNotificationList(pageSize: number, open = true) {
  const queryClient = useQueryClient();
  const { userId, enabled } = useNotificationAccess();
  const query = useInfiniteQuery({
    queryKey: notificationKeys.list(userId ?? '', pageSize),
    queryFn: async ({ pageParam, signal }) => {
      const page = await notificationsApi.list(pageParam, pageSize, 'load', signal);
      if (pageParam === 1 && userId)
        queryClient.setQueryData<number>(notificationKeys.unread(userId), page.unreadCount);
      return page;
    },
    initialPageParam: 1 as number,
    getNextPageParam: (last: NotificationPage): number | undefined =>
      last.pagination.hasMore && last.notifications.length > 0 ? last.pagination.page + 1 : undefined,
    enabled: enabled && open,
    retry: retryLostAnswer,
  });
  return { ...query, notifications: flatten(query.data) };
}

/**
 * Keeps the notifications current, mounted once for the signed-in user (the header's bell):
 * - a `notification` push goes first in the lists and raises the badge;
 * - while the socket is down (status 'polling') the first page (limit 5) is read every 2 minutes; what it brings
 *   sets the badge, and an unknown notification has the lists read again;
 * - when the socket is back after being down, everything is read again (pushes may have been missed).
 */
export function useNotificationsLive() {
  const queryClient = useQueryClient();
  const { status } = useRealtime();
  const { userId, enabled } = useNotificationAccess();

  // A new user starts with an open gate.
  useEffect(() => {
    notificationGate.reset();
  }, [userId]);

  const pushed = useRef(new Set<string>());
  useSocketEvent('notification', (n) => {
    if (!userId || !n) return;
    const key = notificationId(n);
    if (!key || pushed.current.has(key)) return;
    pushed.current.add(key);
    addNotification(queryClient, userId, n);
  });

  const poll = useQuery({
    queryKey: notificationKeys.poll(userId ?? ''),
    queryFn: ({ signal }) => notificationsApi.list(1, NOTIFICATION_LIMITS.pagePageSize, 'poll', signal),
    enabled: enabled && status === 'polling',
    refetchInterval: NOTIFICATION_LIMITS.pollIntervalMs,
    staleTime: NOTIFICATION_LIMITS.pollIntervalMs,
    retry: false,
  });

  useEffect(() => {
    const page = poll.data;
    if (!page || !userId) return;
    queryClient.setQueryData<number>(notificationKeys.unread(userId), page.unreadCount);
    const known = new Set<string>();
    for (const [, data] of queryClient.getQueriesData<{ pages: NotificationPage[] }>({
      queryKey: notificationKeys.lists(userId),
    }))
      for (const p of data?.pages ?? []) for (const n of p.notifications) known.add(notificationId(n));
    if (page.notifications.some((n) => !known.has(notificationId(n))))
      void queryClient.invalidateQueries({ queryKey: notificationKeys.lists(userId) });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- each new answer (an equal answer keeps `poll.data`)
  }, [poll.dataUpdatedAt]);

  const previous = useRef(status);
  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (status !== 'realtime' || before === 'realtime' || !userId) return;
    // Back on the socket: catch up on what it did not bring while down (not right after the first load).
    const state = queryClient.getQueryState(notificationKeys.unread(userId));
    if (!state?.dataUpdatedAt || Date.now() - state.dataUpdatedAt <= NOTIFICATION_LIMITS.socketFallbackMs)
      return;
    void queryClient.invalidateQueries({
      queryKey: notificationKeys.all(userId),
      predicate: (q) => q.queryKey[2] !== 'poll',
    });
  }, [status, userId, queryClient]);
}

// ---------- optimistic actions ----------

type Snapshot = Array<[QueryKey, unknown]>;

/** Stops reads under way (their answers predate the change) and keeps what the caches held, for a rollback. */
async function hold(queryClient: QueryClient, userId: string): Promise<Snapshot> {
  await queryClient.cancelQueries({
    queryKey: notificationKeys.all(userId),
    predicate: (q) => q.state.data !== undefined,
  });
  return queryClient.getQueriesData({ queryKey: notificationKeys.all(userId) });
}

function restore(queryClient: QueryClient, snapshot: Snapshot | undefined) {
  for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
}

const setUnread = (queryClient: QueryClient, userId: string, change: (count: number) => number) =>
  queryClient.setQueryData<number>(notificationKeys.unread(userId), (c) =>
    c === undefined ? c : Math.max(0, change(c)),
  );

function isUnreadInCache(queryClient: QueryClient, userId: string, key: string): boolean | null {
  for (const [, data] of queryClient.getQueriesData<{ pages: NotificationPage[] }>({
    queryKey: notificationKeys.lists(userId),
  }))
    for (const p of data?.pages ?? [])
      for (const n of p.notifications) if (notificationId(n) === key) return !n.read;
  return null;
}

function removeLocally(queryClient: QueryClient, userId: string, key: string) {
  const unread = isUnreadInCache(queryClient, userId, key);
  patchLists(queryClient, userId, (items) =>
    items.some((n) => notificationId(n) === key) ? items.filter((n) => notificationId(n) !== key) : items,
  );
  if (unread) setUnread(queryClient, userId, (c) => c - 1);
}

const hasMorePages = (queryClient: QueryClient, userId: string) =>
  queryClient
    .getQueriesData<{ pages: NotificationPage[] }>({ queryKey: notificationKeys.lists(userId) })
    .some(([, data]) => data?.pages.some((p) => p.pagination.hasMore));

/** Read one notification (on click, or its mark-as-read button); the dot goes at once, back on failure. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { userId } = useNotificationAccess();
  return useMutation({
    mutationFn: ({ notification }: { notification: NotificationDto; announce?: boolean }) =>
      notificationsApi.markRead(notificationId(notification)),
    onMutate: async ({ notification }) => {
      if (!userId) return undefined;
      const snapshot = await hold(queryClient, userId);
      const key = notificationId(notification);
      const wasUnread = isUnreadInCache(queryClient, userId, key) ?? !notification.read;
      patchLists(queryClient, userId, (items) =>
        items.some((n) => notificationId(n) === key && !n.read)
          ? items.map((n) => (notificationId(n) === key ? { ...n, read: true } : n))
          : items,
      );
      if (wasUnread) setUnread(queryClient, userId, (c) => c - 1);
      return { snapshot };
    },
    onSuccess: (_res, { announce }) => {
      if (announce) toast(NOTIFICATION_MESSAGES.markedRead, 'success', 3000);
    },
    onError: (err, { notification }, context) => {
      restore(queryClient, context?.snapshot);
      if (isNotFound(err) && userId) {
        // Deleted elsewhere: it goes from the list here too.
        removeLocally(queryClient, userId, notificationId(notification));
        toast(NOTIFICATION_MESSAGES.notFound, 'info', 3000);
        return;
      }
      toast(failureMessage(err, 'action'), 'error');
    },
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { userId } = useNotificationAccess();
  return useMutation({
    mutationFn: () => notificationsApi.markAllRead(),
    onMutate: async () => {
      if (!userId) return undefined;
      const snapshot = await hold(queryClient, userId);
      patchLists(queryClient, userId, (items) =>
        items.some((n) => !n.read) ? items.map((n) => (n.read ? n : { ...n, read: true })) : items,
      );
      queryClient.setQueryData<number>(notificationKeys.unread(userId), 0);
      return { snapshot };
    },
    onSuccess: () => toast(NOTIFICATION_MESSAGES.allMarkedRead, 'success', 3000),
    onError: (err, _v, context) => {
      restore(queryClient, context?.snapshot);
      toast(failureMessage(err, 'action'), 'error');
    },
  });
}

/** Delete one: it leaves the list at once and comes back if the server refuses. */
export function useDeleteNotification() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { userId } = useNotificationAccess();
  return useMutation({
    mutationFn: async (notification: NotificationDto) => {
      try {
        await notificationsApi.remove(notificationId(notification));
      } catch (err) {
        if (!isNotFound(err)) throw err; // already gone: what the user wanted
      }
    },
    onMutate: async (notification) => {
      if (!userId) return undefined;
      const snapshot = await hold(queryClient, userId);
      removeLocally(queryClient, userId, notificationId(notification));
      return { snapshot };
    },
    onSuccess: () => {
      toast(NOTIFICATION_MESSAGES.deleted, 'success', 3000);
      // The pages after this one moved up by one: read them again so none is skipped by Load More.
      if (userId && hasMorePages(queryClient, userId))
        void queryClient.invalidateQueries({ queryKey: notificationKeys.lists(userId) });
    },
    onError: (err, _n, context) => {
      restore(queryClient, context?.snapshot);
      toast(failureMessage(err, 'action'), 'error');
    },
  });
}

export function useDeleteAll() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { userId } = useNotificationAccess();
  return useMutation({
    mutationFn: () => notificationsApi.removeAll(),
    onMutate: async () => {
      if (!userId) return undefined;
      const snapshot = await hold(queryClient, userId);
      queryClient.setQueriesData<{ pages: NotificationPage[]; pageParams: unknown[] }>(
        { queryKey: notificationKeys.lists(userId) },
        (old) =>
          old && old.pages.length > 0
            ? {
                pages: [
                  {
                    ...old.pages[0]!,
                    notifications: [],
                    unreadCount: 0,
                    pagination: { ...old.pages[0]!.pagination, page: 1, total: 0, hasMore: false },
                  },
                ],
                pageParams: [1],
              }
            : old,
      );
      queryClient.setQueryData<number>(notificationKeys.unread(userId), 0);
      return { snapshot };
    },
    onSuccess: () => toast(NOTIFICATION_MESSAGES.allDeleted, 'success', 3000),
    onError: (err, _v, context) => {
      restore(queryClient, context?.snapshot);
      toast(failureMessage(err, 'action'), 'error');
    },
  });
}
