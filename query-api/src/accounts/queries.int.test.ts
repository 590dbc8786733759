import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedEvents } from '@pawhaven/platform/testing';
import {
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/** The read side of accounts and the system reads, over real HTTP through the gateway. */

const WAIT_MS = 800;

let t: TestApp;
let api: TestApi;
let alice: RegisteredUser;
let bob: RegisteredUser;

beforeAll(async () => {
  t = await startTestApp({ config: { CONSISTENCY_WAIT_MS: WAIT_MS } });
  api = t.api;
  alice = await api.registerVerifiedUser();
  bob = await api.registerVerifiedUser({ isVeterinarian: true });
  const update = await api.post(
    '/api/auth/update-profile',
    { phone: '+92 300 1234567', city: 'Lahore', about: 'Cat person' },
    alice.token,
  );
  expect(update.status).toBe(200);
  // Make sure the read model has every write of the setup before the tests read it.
  expect(
    (await api.get('/api/config', undefined, { 'X-Consistent-After': update.body.position })).headers.get(
      'x-consistency',
    ),
  ).toBe('consistent');
});
afterAll(async () => {
  await t?.stop();
});

/** Registers without verifying; answers the e-mail, user id and the position of the registration. */
async function registerPending() {
  const username = uniqueName('pending');
  const email = `${username}@gmail.com`;
  const res = await api.post('/api/auth/register', { username, email, password: TEST_PASSWORD });
  expect(res.status).toBe(201);
  const [claim] = await recordedEvents(t.db, `user-email-${email}`);
  return {
    username,
    email,
    id: (claim!.data as { userId: string }).userId,
    position: res.body.position as string,
    registrationToken: res.body.registrationToken as string,
  };
}

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

describe('GET /api/auth/profile', () => {
  it('answers 401 "No token provided" without a token and 401 for a bad one', async () => {
    const none = await api.get('/api/auth/profile');
    expect(none.status).toBe(401);
    expect(none.body.message).toBe('No token provided');
    const bad = await api.get('/api/auth/profile', 'not.a.token');
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe('Invalid or expired token');
  });

  it("answers the signed-in user's full profile from the read model", async () => {
    const res = await api.get('/api/auth/profile', alice.token);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual(res.body.user);
    expect(res.body.user).toMatchObject({
      _id: alice.user.id,
      id: alice.user.id,
      username: alice.username,
      email: alice.email,
      phone: '+92 300 1234567',
      city: 'Lahore',
      about: 'Cat person',
      profileImage: null,
      isVeterinarian: false,
      isAdmin: false,
      userType: 'Regular User',
    });
    expect(new Date(res.body.user.joinedDate).toString()).not.toBe('Invalid Date');
  });
});

describe('GET /api/auth/profile/:userId', () => {
  it('shows strangers the public data only: no email, no phone', async () => {
    for (const token of [undefined, bob.token]) {
      const res = await api.get(`/api/auth/profile/${alice.user.id}`, token);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        _id: alice.user.id,
        username: alice.username,
        city: 'Lahore',
        about: 'Cat person',
      });
      expect(res.body.data).not.toHaveProperty('email');
      expect(res.body.data).not.toHaveProperty('phone');
      expect(res.text).not.toContain(alice.email);
      expect(res.text).not.toContain('1234567');
    }
  });

  it('shows the owner (and an admin) the email and phone', async () => {
    const own = await api.get(`/api/auth/profile/${alice.user.id}`, alice.token);
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ email: alice.email, phone: '+92 300 1234567' });

    const admin = await t.signInAdmin();
    const asAdmin = await api.get(`/api/auth/profile/${alice.user.id}`, admin.token);
    expect(asAdmin.body.data).toMatchObject({ email: alice.email, phone: '+92 300 1234567' });
  });

  it('answers 404 with success false for an unknown id and for an unverified account', async () => {
    const unknown = await api.get('/api/auth/profile/00000000-0000-0000-0000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: 'User not found' });

    const pending = await registerPending();
    const res = await api.get(`/api/auth/profile/${pending.id}`, undefined, {
      'X-Consistent-After': pending.position,
    });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });
});

describe('POST /api/auth/getAllUsers and /getUserById (reads sent as POST, served by the query side)', () => {
  it('need a token', async () => {
    for (const path of ['/api/auth/getAllUsers', '/api/auth/getUserById']) {
      const res = await api.post(path, { id: alice.user.id });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('No token provided');
    }
  });

  it('getAllUsers lists verified, non-admin users with public data, and records nothing', async () => {
    const pending = await registerPending();
    const before = await eventCount();
    const res = await api.post('/api/auth/getAllUsers', {}, bob.token, {
      'X-Consistent-After': pending.position,
    });
    expect(await eventCount()).toBe(before);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const users = res.body.data as Record<string, unknown>[];
    const ids = users.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([alice.user.id, bob.user.id]));
    expect(users.some((u) => u.isAdmin)).toBe(false);
    expect(users.some((u) => u.id === pending.id)).toBe(false);
    for (const u of users) {
      expect(u).not.toHaveProperty('email');
      expect(u).not.toHaveProperty('phone');
    }
    expect(users.find((u) => u.id === bob.user.id)).toMatchObject({
      isVeterinarian: true,
      userType: 'Veterinarian',
    });
  });

  it('getUserById answers the public user, 400 without id and 404 for an unknown one', async () => {
    const res = await api.post('/api/auth/getUserById', { id: alice.user.id }, bob.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: alice.user.id, username: alice.username, city: 'Lahore' });
    expect(res.body.data).not.toHaveProperty('email');

    const missing = await api.post('/api/auth/getUserById', {}, bob.token);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('User ID is required');

    const unknown = await api.post('/api/auth/getUserById', { id: 'nobody' }, bob.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
  });
});

describe('GET /api/health', () => {
  it('reports database, event store, projections with their lag, and the services', async () => {
    const res = await api.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    const { parts } = res.body;
    expect(parts.database).toMatchObject({ status: 'ok', latencyMs: expect.any(Number) });
    expect(parts.eventStore).toMatchObject({ status: 'ok', adapter: 'postgres' });
    expect(Number(parts.eventStore.headPosition)).toBeGreaterThan(0);
    const names = (parts.projections as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['users', 'sessions']));
    for (const p of parts.projections as { lag: number; status: string; position: string }[]) {
      expect(p.lag).toEqual(expect.any(Number));
      expect(p.lag).toBeGreaterThanOrEqual(0);
      expect(['ok', 'lagging']).toContain(p.status);
    }
    expect(parts.commandApi.status).toBe('ok');
    expect(parts.queryApi.status).toBe('ok');
    expect(parts.realtime).toMatchObject({ status: 'ok', onlineUsers: expect.any(Number) });
    expect(parts.mail).toEqual({ status: 'ok', transport: 'dev-mailbox' });
  });
});

describe('GET /dev/mailbox', () => {
  it('answers JSON, newest first, filtered by address (case-insensitive)', async () => {
    const pending = await registerPending();
    expect((await api.post('/api/auth/resend-otp', { email: pending.email })).status).toBe(200);
    const res = await api.get(`/dev/mailbox?to=${pending.email.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const mails = res.body as { to: string; subject: string; text: string; sentAt: string }[];
    expect(mails.length).toBe(2);
    expect(mails.every((m) => m.to === pending.email)).toBe(true);
    expect(mails[0]!.subject).toBe('Your PawHaven verification code');
    const times = mails.map((m) => new Date(m.sentAt).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The newest mail carries the code that works now.
    const code = mails[0]!.text.match(/\b(\d{6})\b/)![1]!;
    const older = mails[1]!.text.match(/\b(\d{6})\b/)![1]!;
    if (older !== code) {
      expect(
        (
          await api.post('/api/auth/verify-registration', {
            email: pending.email,
            otp: older,
            registrationToken: pending.registrationToken,
          })
        ).status,
      ).toBe(400);
    }
    expect(
      (
        await api.post('/api/auth/verify-registration', {
          email: pending.email,
          otp: code,
          registrationToken: pending.registrationToken,
        })
      ).status,
    ).toBe(200);
  });

  it('answers JSON to a client that asks for it, and an HTML page to a browser', async () => {
    const json = await api.get('/dev/mailbox', undefined, { accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(Array.isArray(json.body)).toBe(true);
    expect((json.body as { to: string }[]).some((m) => m.to === alice.email)).toBe(true);

    const html = await api.get('/dev/mailbox', undefined, {
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.text).toContain('<h1>Dev mailbox</h1>');
    expect(html.text).toContain(`to ${alice.email}`);
    expect(html.text).toContain('Your PawHaven verification code');
  });
});

describe('X-Consistent-After (read-your-writes)', () => {
  it('a read carrying the position of a profile update sees the change', async () => {
    for (const city of ['Karachi', 'Islamabad', 'Multan']) {
      const update = await api.post('/api/auth/update-profile', { city }, bob.token);
      expect(update.status).toBe(200);
      const read = await api.get('/api/auth/profile', bob.token, {
        'X-Consistent-After': update.body.position,
      });
      expect(read.status).toBe(200);
      expect(read.headers.get('x-consistency')).toBe('consistent');
      expect(read.body.user.city).toBe(city);
    }
  });

  it('a malformed header answers 400', async () => {
    for (const value of ['abc', '-1', '12.5', '1'.repeat(25)]) {
      const res = await api.get('/api/auth/profile', bob.token, { 'X-Consistent-After': value });
      expect({ value, status: res.status }).toEqual({ value, status: 400 });
      expect(res.body.message).toBe('X-Consistent-After must be a position number');
    }
  });

  it('when the projection is held up, the read answers after the bound, marked stale, and catches up later', async () => {
    const client = await t.db.pool.connect();
    let position: string;
    try {
      await client.query('BEGIN');
      // Hold the user's read-model row so the projector cannot apply the next update.
      await client.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [bob.user.id]);
      const update = await api.post('/api/auth/update-profile', { city: 'Peshawar' }, bob.token);
      expect(update.status).toBe(200);
      position = update.body.position;
      const started = Date.now();
      const read = await api.get('/api/auth/profile', bob.token, { 'X-Consistent-After': position });
      expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS - 50);
      expect(read.status).toBe(200);
      expect(read.headers.get('x-consistency')).toBe('stale');
      expect(read.body.user.city).not.toBe('Peshawar');
    } finally {
      await client.query('COMMIT');
      client.release();
    }
    const later = await api.get('/api/auth/profile', bob.token, { 'X-Consistent-After': position });
    expect(later.headers.get('x-consistency')).toBe('consistent');
    expect(later.body.user.city).toBe('Peshawar');
  });
});
