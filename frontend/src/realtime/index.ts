/**
 * The one real-time channel of the signed-in user: chat messages, typing, receipts and notifications.
 *
 * - `RealtimeProvider`: wraps the community pages; connects with the current access token, reconnects when the
 *   token changes, disconnects on sign-out (the connection itself is ./RealtimeConnection, loaded when signed in).
 * - `useRealtime()`: `{ socket, status: 'realtime' | 'polling' | 'offline', error }`.
 * - `useSocketEvent(event, handler)`: listens to a server push for the component's lifetime.
 * - `emitWithAck<T>(event, ...args)`: emits and resolves with the server's acknowledgement; rejects after a time-out
 *   when the socket is not connected (the emit is buffered until then), at once when there is no socket.
 */
export {
  RealtimeProvider,
  useRealtime,
  useSocketEvent,
  emitWithAck,
  NOT_CONNECTED,
  type RealtimeEvents,
  type RealtimeState,
} from './RealtimeProvider';
export type { RealtimeStatus } from './status';
