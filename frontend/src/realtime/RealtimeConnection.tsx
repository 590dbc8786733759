import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Socket, io as createSocket } from 'socket.io-client';
import { CHAT_LIMITS, CHAT_MESSAGES, NOTIFICATION_LIMITS, NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { api, refreshSession } from '../shared/api';
import { useSession } from '../shared/session';
import { sessionStore } from '../shared/session-store';
import { setCurrentSocket, type InternalState } from './context';
import { deriveStatus, isAuthRefusal, type BackendHealth, type ConnectionPhase } from './status';

/** How long an emit waits for the server's acknowledgement (the notification socket's time-out, 10 s). */
const ACK_TIMEOUT_MS = NOTIFICATION_LIMITS.socketTimeoutMs;

const browserOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

/**
 * One socket.io connection for the signed-in user, shared by chat and notifications. Its own chunk, loaded by
 * RealtimeProvider for signed-in users only: visitors' first page carries neither it nor the contracts it reads.
 *
 * Options (those of the chat socket): websocket first then polling, with credentials, 5 reconnection attempts 1 s to
 * 5 s apart, 20 s connection time-out. A connection error puts polling first for the next attempts; a server-initiated
 * disconnect reconnects. The handshake reads the token at each attempt, so a renewed token is used without a new
 * socket; a changed token reconnects at once. A handshake refused for the token renews the session once (a refused
 * renewal signs the user out, which closes the socket).
 *
 * Status: 'realtime' while connected; 'polling' after a connection error or `socketFallbackMs` without a connection
 * while the HTTP API answers; 'offline' when the browser is offline or the health check (5 s) fails. While not
 * connected the health check and a new connection attempt are retried every polling interval and when the browser
 * comes back online.
 */
export default function RealtimeConnection({
  onChange,
}: {
  /** Receives the state after each change (before the browser paints), and null when the connection goes away. */
  onChange: (state: InternalState | null) => void;
}) {
  const { user, token, ready } = useSession();
  const userId = user ? user.id || user._id || null : null;
  const active = Boolean(userId && token && ready);

  const [socket, setSocket] = useState<Socket | null>(null);
  const [phase, setPhase] = useState<ConnectionPhase>('connecting');
  const [wasConnected, setWasConnected] = useState(false);
  const [socketError, setSocketError] = useState<string | null>(null);
  const [backend, setBackend] = useState<BackendHealth>('unknown');
  const [online, setOnline] = useState(browserOnline);

  // ---------- browser online / offline ----------
  useEffect(() => {
    const update = () => setOnline(browserOnline());
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);

  // ---------- health check ----------
  const healthRun = useRef(0);
  const checkHealth = useCallback(() => {
    const run = ++healthRun.current;
    api
      .get('/api/health', { auth: false, retry: false, timeoutMs: NOTIFICATION_LIMITS.healthTimeoutMs })
      .then(
        () => run === healthRun.current && setBackend('up'),
        () => run === healthRun.current && setBackend('down'),
      );
  }, []);

  useEffect(() => {
    if (!active) {
      setBackend('unknown');
      return;
    }
    checkHealth();
  }, [active, checkHealth]);

  // ---------- the socket ----------
  useEffect(() => {
    if (!active || !userId) return;
    let cleanup: (() => void) | null = null;
    let cancelled = false;
    // socket.io-client is loaded for signed-in users only: visitors' first page does not carry it.
    import('socket.io-client').then(
      ({ io }) => {
        if (cancelled) return;
        cleanup = open(io);
      },
      () => {
        // The chunk did not load (offline, a new deployment): the lists are polled instead.
        if (cancelled) return;
        setPhase('down');
        setSocketError(CHAT_MESSAGES.socketFailed);
      },
    );
    const open = (io: typeof createSocket) => {
      const s = io({
        path: '/socket.io',
        autoConnect: false,
        forceNew: true,
        transports: ['websocket', 'polling'],
        withCredentials: true,
        reconnection: true,
        reconnectionAttempts: CHAT_LIMITS.socketReconnectionAttempts,
        reconnectionDelay: CHAT_LIMITS.socketReconnectionDelayMs,
        reconnectionDelayMax: CHAT_LIMITS.socketReconnectionDelayMaxMs,
        timeout: CHAT_LIMITS.socketTimeoutMs,
        auth: (cb) => cb({ token: sessionStore.get().token }),
      });

      let fallbackTimer: ReturnType<typeof setTimeout> | undefined;
      const startFallbackTimer = () => {
        clearTimeout(fallbackTimer);
        fallbackTimer = setTimeout(() => {
          if (!s.connected) setPhase('down');
        }, NOTIFICATION_LIMITS.socketFallbackMs);
      };
      let renewedFor: string | null = null;

      s.on('connect', () => {
        clearTimeout(fallbackTimer);
        setPhase('connected');
        setWasConnected(true);
        setSocketError(null);
        setBackend('up');
        // The server already joined the user's room; announcing it (join) is the client's handshake all the same.
        s.timeout(ACK_TIMEOUT_MS).emit(
          'join',
          userId,
          (err: Error | null, ack?: { ok: boolean; message?: string }) => {
            if (!err && ack && !ack.ok && ack.message) setSocketError(ack.message);
          },
        );
      });
      s.on('connect_error', (err: Error) => {
        clearTimeout(fallbackTimer);
        setPhase('down');
        setWasConnected(false);
        setSocketError(err.message || NOTIFICATION_MESSAGES.backendUnavailable);
        // Connection errors put polling first for the next attempts.
        s.io.opts.transports = ['polling', 'websocket'];
        const tokenNow = sessionStore.get().token;
        if (isAuthRefusal(err.message) && tokenNow && renewedFor !== tokenNow) {
          // An expired access token: renew it once; the new token reconnects (below), a refusal signs out.
          renewedFor = tokenNow;
          void refreshSession();
        } else {
          // Polling while the HTTP API answers, offline when it does not.
          checkHealth();
        }
      });
      s.on('disconnect', (reason) => {
        setPhase('connecting');
        startFallbackTimer();
        // The server closed the connection: socket.io does not come back on its own then.
        if (reason === 'io server disconnect') s.connect();
      });
      s.io.on('reconnect_failed', () => {
        setPhase('down');
        setWasConnected(false);
        checkHealth();
      });

      setCurrentSocket(s, ACK_TIMEOUT_MS);
      setSocket(s);
      setPhase('connecting');
      setWasConnected(false);
      setSocketError(null);
      startFallbackTimer();
      s.connect();

      return () => {
        clearTimeout(fallbackTimer);
        s.removeAllListeners();
        s.io.removeAllListeners();
        s.disconnect();
        setCurrentSocket(null, ACK_TIMEOUT_MS, s);
      };
    };
    return () => {
      cancelled = true;
      cleanup?.();
      setSocket(null);
      setSocketError(null);
      setPhase('connecting');
      setWasConnected(false);
    };
  }, [active, userId, checkHealth]);

  // ---------- a changed token reconnects ----------
  const lastToken = useRef(token);
  useEffect(() => {
    const previous = lastToken.current;
    lastToken.current = token;
    if (!socket || !token || token === previous) return;
    if (socket.connected) socket.disconnect();
    socket.connect();
  }, [socket, token]);

  // ---------- retries while not connected ----------
  const connected = phase === 'connected';
  useEffect(() => {
    if (!socket || connected) return;
    const retry = () => {
      if (!browserOnline()) return;
      checkHealth();
      if (!socket.connected && !socket.active) socket.connect();
    };
    const timer = setInterval(retry, NOTIFICATION_LIMITS.pollIntervalMs);
    window.addEventListener('online', retry);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [socket, connected, checkHealth]);

  const status = deriveStatus({ browserOnline: online, phase, backend, wasConnected });
  const error =
    !active || status === 'realtime'
      ? null
      : backend === 'down'
        ? NOTIFICATION_MESSAGES.backendUnavailable
        : phase === 'down'
          ? socketError
          : null;

  const value = useMemo<InternalState | null>(
    () =>
      active ? { socket, status, error, backendReady: backend !== 'unknown', recheck: checkHealth } : null,
    [active, socket, status, error, backend, checkHealth],
  );
  useLayoutEffect(() => onChange(value), [value, onChange]);
  useLayoutEffect(() => () => onChange(null), [onChange]);
  return null;
}
