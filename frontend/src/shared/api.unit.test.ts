import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The API client under Node: in-memory Web Storage and a scripted `fetch`. */
class MemoryStorage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key = (i: number) => [...this.map.keys()][i] ?? null;
  getItem = (k: string) => this.map.get(k) ?? null;
  setItem = (k: string, v: string) => void this.map.set(k, String(v));
  removeItem = (k: string) => void this.map.delete(k);
  clear = () => this.map.clear();
}

type Call = { url: string; method: string; headers: Record<string, string>; body?: unknown };
type Reply = { status: number; body?: unknown } | 'hang';

let calls: Call[];
let replies: ((call: Call) => Reply)[];

function json(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const user = {
  _id: 'u1',
  id: 'u1',
  username: 'Luna',
  email: 'luna@gmail.com',
  isAdmin: false,
  isVeterinarian: false,
};

async function load() {
  vi.resetModules();
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  calls = [];
  replies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const call: Call = {
        url,
        method: init.method ?? 'GET',
        headers: init.headers as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      };
      calls.push(call);
      const next = replies.shift();
      if (!next) throw new Error(`unexpected ${call.method} ${url}`);
      const reply = next(call);
      if (reply === 'hang') {
        return new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }
      return json(reply.status, reply.body);
    }),
  );
  const api = await import('./api');
  const { sessionStore } = await import('./session-store');
  return { ...api, sessionStore };
}

describe('api client', () => {
  beforeEach(() => {
    vi.useRealTimers();
  });

  it('sends the highest command position back as X-Consistent-After on the next reads only', async () => {
    const { api } = await load();
    replies.push(() => ({ status: 200, body: { message: 'ok', position: '42' } }));
    replies.push(() => ({ status: 200, body: { position: '7' } }));
    replies.push(() => ({ status: 200, body: { success: true } }));
    replies.push(() => ({ status: 200, body: { message: 'ok' } }));
    await api.post('/api/auth/update-profile', { city: 'Lahore' });
    await api.post('/api/other', {});
    await api.get('/api/auth/profile');
    await api.post('/api/again', {});
    expect(calls[0]!.headers['X-Consistent-After']).toBeUndefined();
    expect(calls[2]!.headers['X-Consistent-After']).toBe('42');
    expect(calls[3]!.headers['X-Consistent-After']).toBeUndefined();
  });

  it("takes the answer prerender.js fetched early for a visitor's first GET of that address, once", async () => {
    const { api } = await load();
    const early = globalThis as { __pawhavenEarly?: unknown };
    early.__pawhavenEarly = {
      url: '/api/posts?page=1&limit=10',
      response: Promise.resolve(json(200, [{ _id: 'p1' }])),
    };
    replies.push(() => ({ status: 200, body: [{ _id: 'o1' }] }));
    replies.push(() => ({ status: 200, body: [{ _id: 'p2' }] }));
    expect(await api.get('/api/other')).toEqual([{ _id: 'o1' }]);
    expect(await api.get('/api/posts?page=1&limit=10')).toEqual([{ _id: 'p1' }]);
    expect(early.__pawhavenEarly).toBeUndefined();
    // Asked again: fetched as usual.
    expect(await api.get('/api/posts?page=1&limit=10')).toEqual([{ _id: 'p2' }]);
    expect(calls.map((c) => c.url)).toEqual(['/api/other', '/api/posts?page=1&limit=10']);
  });

  it('asks again when the early fetch failed', async () => {
    const { api } = await load();
    (globalThis as { __pawhavenEarly?: unknown }).__pawhavenEarly = {
      url: '/api/adoptions?filter=all&page=1&limit=12',
      response: Promise.reject(new TypeError('Failed to fetch')),
    };
    replies.push(() => ({ status: 200, body: [] }));
    expect(await api.get('/api/adoptions?filter=all&page=1&limit=12')).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('sends the bearer token and cookies, JSON bodies as JSON', async () => {
    const { api, sessionStore } = await load();
    sessionStore.start('tok-1', user as never, false);
    replies.push(() => ({ status: 200, body: {} }));
    await api.post('/api/x', { a: 1 });
    expect(calls[0]!.headers.Authorization).toBe('Bearer tok-1');
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
    expect(calls[0]!.body).toEqual({ a: 1 });
    expect(vi.mocked(fetch).mock.calls[0]![1]!.credentials).toBe('include');
    expect(sessionStorage.getItem('token')).toBe('tok-1');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('renews the token once on 401 and retries, sharing one refresh between concurrent calls', async () => {
    const { api, sessionStore } = await load();
    sessionStore.start('old', user as never, true);
    const routes = (call: Call): Reply =>
      call.url === '/api/auth/refresh'
        ? { status: 200, body: { token: 'new', user: { ...user, city: 'Lahore' } } }
        : call.headers.Authorization === 'Bearer new'
          ? { status: 200, body: { ok: call.url } }
          : { status: 401, body: { message: 'Token expired', error: 'Unauthorized' } };
    for (let i = 0; i < 5; i++) replies.push(routes);
    const [a, b] = await Promise.all([api.get('/api/a'), api.get('/api/b')]);
    expect(a).toEqual({ ok: '/api/a' });
    expect(b).toEqual({ ok: '/api/b' });
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBe('new');
    expect(JSON.parse(localStorage.getItem('user')!).city).toBe('Lahore');
  });

  it('clears the session when the refresh session is refused', async () => {
    const { api, sessionStore, ApiError } = await load();
    sessionStore.start('old', user as never, false);
    replies.push(() => ({ status: 401, body: { message: 'Token expired' } }));
    replies.push(() => ({ status: 401, body: { message: 'Your session has ended. Please sign in again.' } }));
    const err = await api.get('/api/auth/profile').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as InstanceType<typeof ApiError>).status).toBe(401);
    expect(sessionStore.get().user).toBeNull();
    expect(sessionStorage.getItem('token')).toBeNull();
  });

  it('does not try to renew a session on a 401 of a call without a token (wrong password)', async () => {
    const { api, errorText } = await load();
    replies.push(() => ({ status: 401, body: { error: 'Invalid email or password' } }));
    const err = await api.post('/api/auth/signin', {}, { auth: false }).catch((e: unknown) => e);
    expect(calls).toHaveLength(1);
    expect(errorText(err, 'fallback', 'network')).toBe('Invalid email or password');
  });

  it('reads message before error, falls back when the server gave neither, and tells network failures apart', async () => {
    const { api, errorText } = await load();
    replies.push(() => ({
      status: 400,
      body: { message: 'Please enter a valid phone number', error: 'Bad Request' },
    }));
    replies.push(() => ({ status: 500 }));
    const first = await api.post('/api/x', {}).catch((e: unknown) => e);
    const second = await api.post('/api/x', {}).catch((e: unknown) => e);
    expect(errorText(first, 'Failed', 'Network')).toBe('Please enter a valid phone number');
    expect(errorText(second, 'Failed', 'Network')).toBe('Failed');
    expect(errorText(new TypeError('Failed to fetch'), 'Failed', 'Network')).toBe('Network');
  });

  it('gives up after the time-out (5 s by default)', async () => {
    const { api, errorText, DEFAULT_TIMEOUT_MS } = await load();
    expect(DEFAULT_TIMEOUT_MS).toBe(5000);
    replies.push(() => 'hang');
    const err = await api.get('/api/slow', { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(errorText(err, 'Failed', 'An error occurred')).toBe('An error occurred');
  });

  it('sends one Idempotency-Key per mutating call and keeps it when the call is retried after a lost answer', async () => {
    const { api } = await load();
    replies.push(() => 'hang');
    replies.push(() => ({ status: 201, body: { _id: 'ad-1' } }));
    replies.push(() => ({ status: 200, body: [] }));
    replies.push(() => ({ status: 201, body: { _id: 'ad-2' } }));
    const created = await api.post('/api/adoptions', { name: 'Biscuit' }, { timeoutMs: 20 });
    await api.get('/api/adoptions');
    await api.post('/api/adoptions', { name: 'Luna' });
    expect(created).toEqual({ _id: 'ad-1' });
    const keys = calls.map((c) => c.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBeUndefined();
    expect(keys[3]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('does not repeat a mutating call the server refused', async () => {
    const { api } = await load();
    replies.push(() => ({ status: 400, body: { message: 'Name is required' } }));
    const err = await api.post('/api/adoptions', {}).catch((e: unknown) => e);
    expect((err as Error).message).toBe('Name is required');
    expect(calls).toHaveLength(1);
  });

  it('sign-out state: clear() empties both storages', async () => {
    const { sessionStore } = await load();
    sessionStore.start('t', { ...user, isAdmin: true } as never, false);
    // Admin sessions always persist.
    expect(localStorage.getItem('token')).toBe('t');
    sessionStore.clear();
    expect([localStorage.getItem('token'), sessionStorage.getItem('user')]).toEqual([null, null]);
  });
});
