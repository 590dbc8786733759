import { NOTIFICATION_LIMITS, NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';

/**
 * Whether notification requests may go out, and the error to show. Pure, so it can be tested; `notificationGate` below
 * holds the one instance the app uses.
 *
 * - 429: every notification request pauses for 2 minutes.
 * - 404 on a read of the list: the service is not there; polling stops until the user tries again.
 * - 401: 'Authentication required'; otherwise the server's message or 'Failed to fetch notifications'.
 */
export type GateState = {
  /** Requests wait until this time (ms since epoch) after a rate-limit answer. */
  pausedUntil: number | null;
  /** A 404 on the list: nothing is requested until `retry`. */
  stopped: boolean;
  error: string | null;
};

/** 'load': a list or count the user is looking at; 'poll': the background refresh; 'action': read or delete. */
export type RequestKind = 'load' | 'poll' | 'action';

export const OPEN_GATE: GateState = { pausedUntil: null, stopped: false, error: null };

/** A request refused without asking the server (no token, a rate-limit pause). */
export class NotificationRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationRequestError';
  }
}

const isRateLimited = (err: unknown) => err instanceof ApiError && err.status === 429;
export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

const fallback = (kind: RequestKind) =>
  kind === 'action' ? NOTIFICATION_MESSAGES.actionFailed : NOTIFICATION_MESSAGES.fetchFailed;

/** The text for a failed notification request. */
export function failureMessage(err: unknown, kind: RequestKind): string {
  if (err instanceof NotificationRequestError) return err.message;
  if (err instanceof ApiError && err.kind === 'http') {
    if (err.status === 429)
      return kind === 'poll' ? NOTIFICATION_MESSAGES.rateLimitedResume : NOTIFICATION_MESSAGES.rateLimited;
    if (err.status === 401) return NOTIFICATION_MESSAGES.authRequired;
    if (err.status === 404 && kind !== 'action') return NOTIFICATION_MESSAGES.notAvailable;
    return err.serverMessage ?? fallback(kind);
  }
  return fallback(kind);
}

export function gateAllows(state: GateState, now: number): boolean {
  return !state.stopped && (state.pausedUntil === null || now >= state.pausedUntil);
}

export function gateOnFailure(state: GateState, err: unknown, kind: RequestKind, now: number): GateState {
  if (isRateLimited(err))
    return {
      ...state,
      pausedUntil: now + NOTIFICATION_LIMITS.rateLimitPauseMs,
      error: failureMessage(err, kind),
    };
  if (kind === 'action') return state; // shown as a toast; a missing notification is not a missing service
  if (err instanceof NotificationRequestError) return { ...state, error: err.message };
  if (isNotFound(err)) return { ...state, stopped: true, error: NOTIFICATION_MESSAGES.notAvailable };
  return { ...state, error: failureMessage(err, kind) };
}

export function gateOnSuccess(state: GateState, now: number): GateState {
  if (state.stopped) return state;
  if (state.pausedUntil !== null && now < state.pausedUntil) return state;
  if (state.pausedUntil === null && state.error === null) return state;
  return OPEN_GATE;
}

/** The pause is over: requests may go again (the rate-limit text goes with it). */
export function gateOnResume(state: GateState, now: number): GateState {
  if (state.pausedUntil === null || now < state.pausedUntil) return state;
  return { ...state, pausedUntil: null, error: state.stopped ? state.error : null };
}

// ---------- the app's instance ----------

let state: GateState = OPEN_GATE;
let resumeTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function set(next: GateState) {
  if (next === state) return;
  state = next;
  clearTimeout(resumeTimer);
  if (state.pausedUntil !== null) {
    resumeTimer = setTimeout(
      () => set(gateOnResume(state, Date.now())),
      Math.max(0, state.pausedUntil - Date.now()),
    );
  }
  for (const l of listeners) l();
}

export const notificationGate = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  allows: () => gateAllows(state, Date.now()),
  failed: (err: unknown, kind: RequestKind) => set(gateOnFailure(state, err, kind, Date.now())),
  succeeded: () => set(gateOnSuccess(state, Date.now())),
  /** Try again after a 404 (or another error): the lists are read again. */
  reset: () => set(OPEN_GATE),
};
