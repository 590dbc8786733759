import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRealtime, useSocketEvent, type RealtimeEvents } from './context';

/**
 * Keeps lists that other people change current, like the bell: the server's `event` (a push that carries no data,
 * only "read again", sent to the users allowed to see the change) invalidates the queries under `roots`; while the
 * socket is down (status 'polling') they are read again every `pollMs`; when it comes back after being down they
 * are read once (pushes may have been missed meanwhile). Only mounted queries are fetched; the others are marked
 * stale and read when next shown.
 */
export function useLiveQueries(
  event: keyof RealtimeEvents,
  roots: readonly QueryKey[],
  pollMs: number,
): void {
  const queryClient = useQueryClient();
  const { status } = useRealtime();
  const latest = useRef(roots);
  latest.current = roots;
  const refresh = useRef(() => {
    for (const queryKey of latest.current) void queryClient.invalidateQueries({ queryKey });
  }).current;

  useSocketEvent(event, refresh);

  /** The socket was down since the lists were read (its pushes may be missing). */
  const missed = useRef(false);
  const previous = useRef(status);
  useEffect(() => {
    const before = previous.current;
    previous.current = status;
    if (status === 'realtime') {
      if (missed.current) refresh();
      missed.current = false;
      return;
    }
    if (before === 'realtime') missed.current = true;
    if (status !== 'polling') return;
    const timer = setInterval(() => {
      missed.current = true;
      refresh();
    }, pollMs);
    return () => clearInterval(timer);
  }, [status, pollMs, refresh]);
}
