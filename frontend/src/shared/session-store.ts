import type { UserDto } from '@pawhaven/contracts';
import { safeGet, safeRemove, safeSet, STORAGE_KEYS } from './storage';

/**
 * The signed-in session, outside React so the API client can read and renew it.
 * Token and user live under `token` and `user`: in localStorage when the user chose to stay signed in (and
 * always for admins), in sessionStorage otherwise.
 */
export type Session = { token: string | null; user: UserDto | null; persistent: boolean };

const EMPTY: Session = { token: null, user: null, persistent: false };
let snapshot: Session = EMPTY;
const listeners = new Set<() => void>();

function parseUser(raw: string | null): UserDto | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (value && typeof value === 'object' && ('_id' in value || 'id' in value))
      return normaliseUser(value as UserDto);
  } catch {
    /* a broken entry is treated as no user */
  }
  return null;
}

/** Responses carry both `_id` and `id`; older stored records may hold only one of them. */
function normaliseUser(user: UserDto): UserDto {
  const id = user.id || user._id;
  return { ...user, id, _id: id };
}

function readFromStorage(): Session {
  if (typeof localStorage === 'undefined' || typeof sessionStorage === 'undefined') return EMPTY;
  for (const [storage, persistent] of [
    [localStorage, true],
    [sessionStorage, false],
  ] as const) {
    const user = parseUser(safeGet(storage, STORAGE_KEYS.user));
    const token = safeGet(storage, STORAGE_KEYS.token);
    if (user || token) return { token, user, persistent };
  }
  return EMPTY;
}

let endedAt: number | null = null;

function emit() {
  snapshot = readFromStorage();
  for (const l of listeners) l();
}

function storageFor(persistent: boolean) {
  return persistent ? localStorage : sessionStorage;
}

function clearKeys() {
  for (const storage of [localStorage, sessionStorage]) {
    safeRemove(storage, STORAGE_KEYS.token);
    safeRemove(storage, STORAGE_KEYS.user);
  }
}

snapshot = readFromStorage();
if (typeof window !== 'undefined') {
  // Another tab signed in or out.
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === STORAGE_KEYS.token || e.key === STORAGE_KEYS.user) emit();
  });
}

export const sessionStore = {
  get: (): Session => snapshot,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A fresh sign-in: the session goes to exactly one storage. */
  start(token: string, user: UserDto, persistent: boolean) {
    clearKeys();
    const storage = storageFor(persistent || user.isAdmin);
    safeSet(storage, STORAGE_KEYS.token, token);
    safeSet(storage, STORAGE_KEYS.user, JSON.stringify(normaliseUser(user)));
    emit();
  },
  /** A renewed token (and the user as the server knows it now), kept where the session already lives. */
  renew(token: string, user: UserDto | null) {
    const storage = storageFor(snapshot.persistent || Boolean(user?.isAdmin));
    safeSet(storage, STORAGE_KEYS.token, token);
    if (user) safeSet(storage, STORAGE_KEYS.user, JSON.stringify(normaliseUser(user)));
    emit();
  },
  updateUser(user: UserDto) {
    if (!snapshot.user && !snapshot.token) return;
    safeSet(storageFor(snapshot.persistent), STORAGE_KEYS.user, JSON.stringify(normaliseUser(user)));
    emit();
  },
  /** Sign-out or lost credentials: the session leaves both storages. */
  clear() {
    endedAt = Date.now();
    clearKeys();
    emit();
  },
  /** Did a session end a moment ago? Then the page on its way is /signin, whatever guard renders first. */
  justEnded: () => endedAt !== null && Date.now() - endedAt < 5000,
};

/** Seconds-since-epoch expiry of a JWT, or null when it cannot be read. */
function tokenExpiry(token: string): number | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

/** True when the token is missing or expires within the next `marginSeconds`. */
export function tokenIsStale(token: string | null, marginSeconds = 15): boolean {
  if (!token) return true;
  const exp = tokenExpiry(token);
  if (exp === null) return false; // opaque token: let the server decide
  return exp * 1000 <= Date.now() + marginSeconds * 1000;
}
