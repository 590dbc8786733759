import { HttpError, type fetchUtils } from 'react-admin';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { consistentAfter, refreshSession, rememberPosition } from '../shared/api';
import { sessionStore } from '../shared/session-store';
import { createQueue, errorMessageOf } from './requests';

/**
 * The dashboard's HTTP client, handed to the data provider (lists, rows, deletions, an ad's history) and used for
 * the admin calls that are not records (overview, projections).
 *
 * - Bearer token from the app's session; a 401 renews the short-lived access token once (the app's refresh
 *   session), then a 401 or 403 clears the session: the route guard sends the admin to /signin.
 * - Requests are queued one at a time, at least 100 ms apart.
 * - Read-your-writes: a deletion's `position` is sent back as `X-Consistent-After` on the next reads, so the
 *   refreshed list no longer holds the deleted row.
 * - Errors carry the answer's `message`, else 'HTTP error! status: {code}'.
 */

const QUEUE_GAP_MS = 100;
const TIMEOUT_MS = 15_000;

const enqueue = createQueue(QUEUE_GAP_MS);

export type HttpResult = { status: number; headers: Headers; body: string; json: unknown };

async function sendOnce(url: string, options: fetchUtils.Options, retried: boolean): Promise<HttpResult> {
  const headers = new Headers(options.headers as HeadersInit | undefined);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (options.body && !(options.body instanceof FormData) && !headers.has('Content-Type'))
    headers.set('Content-Type', 'application/json');
  const token = sessionStore.get().token;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const method = (options.method ?? 'GET').toUpperCase();
  const after = consistentAfter();
  if (method === 'GET' && after) headers.set(CONSISTENT_AFTER_HEADER, after);

  // A hung request must not hold the queue: each one has a time-out, and react-query's own abort still works.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) controller.abort();
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: options.body,
      credentials: 'include',
      signal: controller.signal,
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  const body = await res.text();
  let json: unknown = null;
  try {
    json = body ? (JSON.parse(body) as unknown) : null;
  } catch {
    json = body;
  }
  if (json && typeof json === 'object' && 'position' in json)
    rememberPosition((json as { position: unknown }).position);

  if (res.status === 401 && token && !retried) {
    // The access token lives 15 minutes: renew it once before giving up on the session.
    if (await refreshSession()) return sendOnce(url, options, true);
  }
  if (res.status === 401 || res.status === 403) sessionStore.clear();
  if (res.status < 200 || res.status >= 300)
    throw new HttpError(errorMessageOf(res.status, json), res.status, json);
  return { status: res.status, headers: res.headers, body, json };
}

/** `fetchUtils.fetchJson`'s signature, for `ra-data-simple-rest`. */
export function httpClient(url: string, options: fetchUtils.Options = {}): Promise<HttpResult> {
  return enqueue(() => sendOnce(url, options, false));
}

/** A JSON call of the admin API (`/api/admin/...`), answering the parsed body. */
export async function adminFetch<T>(path: string, options: fetchUtils.Options = {}): Promise<T> {
  const { json } = await httpClient(`/api/admin${path}`, options);
  return json as T;
}
