/**
 * The connection state of the one real-time channel, kept pure so it can be tested.
 *
 * - 'realtime': the socket is connected; pushes arrive as they happen.
 * - 'polling': the socket is not connected but the HTTP API answers; lists are refreshed on a timer.
 * - 'offline': the browser is offline, or the health check failed.
 */
export type RealtimeStatus = 'realtime' | 'polling' | 'offline';

/**
 * 'connecting': a (re)connection is under way and has not failed yet; 'connected'; 'down': a connection error, the
 * fallback delay passed without a connection, or the reconnection attempts ran out.
 */
export type ConnectionPhase = 'connecting' | 'connected' | 'down';

export type BackendHealth = 'unknown' | 'up' | 'down';

export type ConnectionFacts = {
  browserOnline: boolean;
  phase: ConnectionPhase;
  backend: BackendHealth;
  /** The socket was connected before this (re)connection began. */
  wasConnected: boolean;
};

export function deriveStatus({
  browserOnline,
  phase,
  backend,
  wasConnected,
}: ConnectionFacts): RealtimeStatus {
  if (!browserOnline) return 'offline';
  if (phase === 'connected') return 'realtime';
  if (backend === 'down') return 'offline';
  // A short reconnection (a renewed token, a server restart) keeps the indicator still until the fallback delay.
  if (phase === 'connecting' && wasConnected) return 'realtime';
  return 'polling';
}

/** The handshake refusals that a renewed access token can cure. */
const AUTH_REFUSALS = ['Authentication required', 'Your session has ended. Please sign in again.'];
export const isAuthRefusal = (message: string) => AUTH_REFUSALS.includes(message);
