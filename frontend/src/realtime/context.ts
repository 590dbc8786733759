import { createContext, useContext, useEffect, useLayoutEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import type { NotificationDto, SocketEvents } from '@pawhaven/contracts';
import type { RealtimeStatus } from './status';

/**
 * What the pages read of the real-time channel. Kept apart from the connection (./RealtimeConnection), which is
 * loaded for signed-in users only: this module is in every page's first download and holds no contracts values.
 */

/**
 * What the server pushes on the user's socket: the chat events, the notifications, and `adoptionsChanged` (the
 * user's adoption lists changed: read them again).
 */
export type RealtimeEvents = SocketEvents & {
  notification: NotificationDto;
  adoptionsChanged: Record<string, never>;
};

export type RealtimeState = {
  socket: Socket | null;
  status: RealtimeStatus;
  error: string | null;
};

export type InternalState = RealtimeState & {
  /** The health check answered at least once (notifications start after it). */
  backendReady: boolean;
  /** Runs the health check again (a retry button). */
  recheck: () => void;
};

export const NOT_CONNECTED = 'Not connected to the server';

export const SIGNED_OUT: InternalState = {
  socket: null,
  status: 'offline',
  error: null,
  backendReady: false,
  recheck: () => {},
};

/** A signed-in user's state until the connection's code has arrived: what the connection starts from. */
export const connecting = (): InternalState => ({
  ...SIGNED_OUT,
  status: typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'polling',
});

export const RealtimeContext = createContext<InternalState>(SIGNED_OUT);

/** The socket of the connection that is mounted, for `emitWithAck` outside React. */
let current: { socket: Socket; ackTimeoutMs: number } | null = null;

/** Called by the connection: `socket` null clears it (only when it is still `previous`, if given). */
export function setCurrentSocket(socket: Socket | null, ackTimeoutMs: number, previous?: Socket) {
  if (socket) current = { socket, ackTimeoutMs };
  else if (!previous || current?.socket === previous) current = null;
}

/** The shared socket, the connection status and the last connection error (null when fine). */
export function useRealtime(): RealtimeState {
  const { socket, status, error } = useContext(RealtimeContext);
  return { socket, status, error };
}

/** For the notifications: has the health check answered, and a way to run it again. */
export function useBackendReady() {
  const { backendReady, recheck, status } = useContext(RealtimeContext);
  return { backendReady: backendReady && status !== 'offline', recheck };
}

/** Listens to one server push while the component is mounted (and follows socket changes). */
export function useSocketEvent<K extends keyof RealtimeEvents>(
  event: K,
  handler: (payload: RealtimeEvents[K]) => void,
): void {
  const { socket } = useContext(RealtimeContext);
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: RealtimeEvents[K]) => latest.current(payload);
    socket.on(event as string, listener);
    return () => {
      socket.off(event as string, listener);
    };
  }, [socket, event]);
}

/**
 * Emits and resolves with the server's acknowledgement. Without a socket (signed out) it rejects at once; while
 * the socket is not connected the emit waits in socket.io's buffer and rejects after the acknowledgement time-out
 * (ACK_TIMEOUT_MS of ./RealtimeConnection).
 */
export function emitWithAck<T>(event: string, ...args: unknown[]): Promise<T> {
  if (!current) return Promise.reject(new Error(NOT_CONNECTED));
  return current.socket.timeout(current.ackTimeoutMs).emitWithAck(event, ...args) as Promise<T>;
}
