import { CONSISTENT_AFTER_HEADER, type AuthResponse } from '@pawhaven/contracts';
import { sessionStore } from './session-store';

/**
 * The one HTTP client of the app. Same-origin relative `/api/...` paths, JSON in and out, 5 s time-out,
 * bearer token from the session, cookies included (the refresh session is an httpOnly cookie).
 *
 * Read-your-writes: command responses carry `position`; the highest one seen is sent back as
 * `X-Consistent-After` on the following GET requests so the query side answers with our own writes in it.
 *
 * Short-lived access tokens: a 401 on a call that carried a token renews the session once through
 * POST /api/auth/refresh and retries; when renewal fails the session is cleared.
 *
 * Every mutating call carries an `Idempotency-Key`, kept across its retries: when the answer is lost (time-out,
 * connection cut) the call is sent again with the same key and the server answers with the first result instead
 * of doing it twice.
 */

export const DEFAULT_TIMEOUT_MS = 5000;

export class ApiError extends Error {
  /** 'http': the server answered with an error status; 'network': no usable answer (offline, time-out). */
  readonly kind: 'http' | 'network';
  readonly status: number;
  /** The server's own text (`message`, else `error`), when it sent one. */
  readonly serverMessage: string | null;
  readonly body: unknown;
  /** The server's Retry-After, in seconds, when it sent one. */
  retryAfterSeconds: number | null = null;

  constructor(
    kind: 'http' | 'network',
    status: number,
    serverMessage: string | null,
    body: unknown,
    fallback: string,
  ) {
    super(serverMessage ?? fallback);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/**
 * The text to show for a failed call: the server's message (or the given fallback) when the server answered,
 * the "an error occurred" text when it did not.
 */
export function errorText(err: unknown, httpFallback: string, networkFallback: string): string {
  if (err instanceof ApiError)
    return err.kind === 'http' ? (err.serverMessage ?? httpFallback) : networkFallback;
  return networkFallback;
}

// ---------- read-your-writes ----------

let highestPosition: bigint | null = null;

export function rememberPosition(position: unknown) {
  if (typeof position !== 'string' && typeof position !== 'number') return;
  let value: bigint;
  try {
    value = BigInt(position);
  } catch {
    return;
  }
  if (highestPosition === null || value > highestPosition) highestPosition = value;
}

export const consistentAfter = () => (highestPosition === null ? null : highestPosition.toString());

// ---------- session renewal ----------

let refreshing: Promise<boolean> | null = null;

/** Renews the access token with the refresh cookie. Concurrent callers share one request. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const res = await send('/api/auth/refresh', { method: 'POST', auth: false, retry: false });
      const body = res as Partial<AuthResponse>;
      if (!body.token) {
        sessionStore.clear();
        return false;
      }
      sessionStore.renew(body.token, body.user ?? null);
      return true;
    } catch (err) {
      // The server refused the refresh session: it is gone. A network failure keeps the stored session.
      if (err instanceof ApiError && err.kind === 'http') sessionStore.clear();
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

// ---------- requests ----------

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  /** Send the bearer token when there is one (default true). */
  auth?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Renew the session and retry once on 401 (default true). */
  retry?: boolean;
  /** Sees the response headers of a successful answer (e.g. X-Total-Count of a list). */
  onHeaders?: (headers: Headers) => void;
  /** The Idempotency-Key of a mutating call; one is made up when absent. */
  idempotencyKey?: string;
};

const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Retries of a mutating call whose answer did not arrive, with the same key; then the error is shown. */
const LOST_ANSWER_RETRIES = 2;

/** A random key; crypto.randomUUID needs a secure context, which a phone on the local network is not. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(path: string, opts: RequestOptions): Promise<unknown> {
  const method = opts.method ?? 'GET';
  if (method === 'GET') return sendOnce(path, opts);
  const withKey: RequestOptions = {
    ...opts,
    headers: { ...opts.headers, [IDEMPOTENCY_HEADER]: opts.idempotencyKey ?? newIdempotencyKey() },
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await sendOnce(path, withKey);
    } catch (err) {
      if (!(err instanceof ApiError) || attempt >= LOST_ANSWER_RETRIES) throw err;
      // The first attempt may still be running on the server (409 with Retry-After): wait for its answer.
      const stillRunning = err.kind === 'http' && err.status === 409 && err.retryAfterSeconds !== null;
      if (err.kind !== 'network' && !stillRunning) throw err;
      if (opts.signal?.aborted) throw err;
      await sleep(stillRunning ? err.retryAfterSeconds! * 1000 : 1000 * (attempt + 1));
    }
  }
}

type EarlyAnswer = { url: string; response: Promise<Response> };

/**
 * The answer public/prerender.js started fetching for this address before the code arrived: taken once, by a
 * visitor's first GET of exactly that address (a failed early fetch is simply asked again).
 */
function takeEarly(path: string): Promise<Response> | null {
  const holder = globalThis as { __pawhavenEarly?: EarlyAnswer };
  const early = holder.__pawhavenEarly;
  if (!early || early.url !== path) return null;
  delete holder.__pawhavenEarly;
  return early.response;
}

async function sendOnce(path: string, opts: RequestOptions): Promise<unknown> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const token = opts.auth === false ? null : sessionStore.get().token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const after = consistentAfter();
  if (method === 'GET' && after) headers[CONSISTENT_AFTER_HEADER] = after;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);

  let res: Response;
  try {
    const early = method === 'GET' && !token && !after ? takeEarly(path) : null;
    res =
      (early && (await early.catch(() => null))) ||
      (await fetch(path, { method, headers, body, credentials: 'include', signal: controller.signal }));
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    const timedOut = controller.signal.aborted;
    throw new ApiError('network', 0, null, null, timedOut ? 'The request timed out' : 'Network error');
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }

  const data = await readBody(res);
  if (data && typeof data === 'object' && 'position' in data)
    rememberPosition((data as { position: unknown }).position);

  if (res.status === 401 && token && opts.retry !== false) {
    if (await refreshSession()) return sendOnce(path, { ...opts, retry: false });
    throw httpError(res, data);
  }
  if (!res.ok) throw httpError(res, data);
  opts.onHeaders?.(res.headers);
  return data;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function httpError(res: Response, data: unknown): ApiError {
  let message: string | null = null;
  if (data && typeof data === 'object') {
    const { message: m, error: e } = data as { message?: unknown; error?: unknown };
    if (typeof m === 'string' && m) message = m;
    else if (typeof e === 'string' && e) message = e;
  }
  const error = new ApiError('http', res.status, message, data, `Request failed with status ${res.status}`);
  const retryAfter = Number(res.headers.get('Retry-After'));
  if (res.headers.has('Retry-After') && Number.isFinite(retryAfter)) error.retryAfterSeconds = retryAfter;
  return error;
}

export const api = {
  request: <T>(path: string, opts: RequestOptions = {}) => send(path, opts) as Promise<T>,
  get: <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    send(path, { ...opts, method: 'GET' }) as Promise<T>,
  /** A paginated list: its items and the total the server reports in X-Total-Count. */
  getPage: async <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body' | 'onHeaders'> = {}) => {
    let total: number | null = null;
    const items = (await send(path, {
      ...opts,
      method: 'GET',
      onHeaders: (h) => {
        const n = Number(h.get('X-Total-Count'));
        total = Number.isFinite(n) && h.has('X-Total-Count') ? n : null;
      },
    })) as T[];
    return { items, total: total as number | null };
  },
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    send(path, { ...opts, method: 'POST', body }) as Promise<T>,
  put: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    send(path, { ...opts, method: 'PUT', body }) as Promise<T>,
  delete: <T>(path: string, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    send(path, { ...opts, method: 'DELETE' }) as Promise<T>,
};
