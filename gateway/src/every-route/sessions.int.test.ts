import { randomUUID } from 'node:crypto';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenService } from '@pawhaven/platform';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 6 point 7: an access token opens nothing once its session is signed out, and a validly signed token
 * for a session nobody started opens nothing at all — on the command side, the query side and socket.io.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});

/** Connects a socket.io client; answers 'connected' or the server's refusal. */
const connect = (token: string) =>
  new Promise<string>((resolve) => {
    const socket = io(t.url, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    const done = (outcome: string) => {
      socket.close();
      resolve(outcome);
    };
    socket.on('connect', () => done('connected'));
    socket.on('connect_error', (err) => done(err.message));
  });

/** A token signed with the app's real key for a session that was never started. */
const forgedToken = async (userId: string) => {
  const { value } = await t.db.knex('runtime_secrets').where({ name: 'jwt' }).first<{ value: string }>();
  return new TokenService(value, 900).sign({ userId, sessionId: randomUUID(), isAdmin: false });
};

describe('sessions behind access tokens', () => {
  it('socket.io accepts an open session and refuses a signed-out one', async () => {
    const user = await t.api.registerVerifiedUser();
    expect(await connect(user.token)).toBe('connected');
    const out = await t.api.post('/api/auth/signout', {}, user.token);
    expect(out.status).toBe(200);
    expect(await connect(user.token)).toBe('Your session has ended. Please sign in again.');
  });

  it('refuses a validly signed token for an unknown session everywhere', async () => {
    const user = await t.api.registerVerifiedUser();
    const forged = await forgedToken(user.user._id);
    expect((await t.api.get('/api/auth/profile', forged)).status).toBe(401);
    expect((await t.api.post('/api/auth/update-profile', { city: 'Lahore' }, forged)).status).toBe(401);
    expect(await connect(forged)).toBe('Your session has ended. Please sign in again.');
    // The real token still works.
    expect((await t.api.get('/api/auth/profile', user.token)).status).toBe(200);
  });

  it('refuses a command sent right after sign-out, before any projection could catch up', async () => {
    for (let i = 0; i < 5; i++) {
      const user = await t.api.registerVerifiedUser();
      const out = await t.api.post('/api/auth/signout', {}, user.token);
      expect(out.status).toBe(200);
      const after = await t.api.post('/api/auth/update-profile', { city: 'Lahore' }, user.token);
      expect(after.status).toBe(401);
    }
  });

  it('accepts a token the moment sign-in answers, before the sessions projection has it', async () => {
    const user = await t.api.registerVerifiedUser();
    for (let i = 0; i < 5; i++) {
      const signin = await t.api.post('/api/auth/signin', { email: user.email, password: user.password });
      expect(signin.status).toBe(200);
      const [read, write] = await Promise.all([
        t.api.get('/api/auth/debug-token', signin.body.token),
        t.api.post('/api/auth/update-profile', { about: `try ${i}` }, signin.body.token),
      ]);
      expect([read.status, write.status]).toEqual([200, 200]);
    }
  });

  it('ends every session with a password reset', async () => {
    const user = await t.api.registerVerifiedUser();
    expect((await t.api.post('/api/auth/forgot-password', { email: user.email })).status).toBe(200);
    const code = await t.api.readCode(user.email);
    const reset = await t.api.post('/api/auth/reset-password', {
      email: user.email,
      code,
      newPassword: 'N3w!Passw0rd',
    });
    expect(reset.status).toBe(200);
    expect((await t.api.post('/api/auth/update-profile', { city: 'Lahore' }, user.token)).status).toBe(401);
    expect(await connect(user.token)).toBe('Your session has ended. Please sign in again.');
  });
});
