import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenService } from '@pawhaven/platform';
import { testEventStore } from '@pawhaven/platform/testing';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApp,
} from '@pawhaven/testing';

/**
 * Issue 6 point 7: an access token opens nothing once its session is signed out, and a validly signed token
 * for a session nobody started opens nothing at all — on the command side, the query side and socket.io.
 * Issue 20 point 6: sign-outs and deletions take effect on every read at once, also while the projections are held
 * back by an open transaction.
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

describe('sessions in streams of their own, and those recorded in the user stream before', () => {
  /** The app's own signing key, for tokens of sessions this test records by hand. */
  const tokenFor = async (userId: string, sessionId: string) => {
    const { value } = await t.db.knex('runtime_secrets').where({ name: 'jwt' }).first<{ value: string }>();
    return new TokenService(value, 900).sign({ userId, sessionId, isAdmin: false });
  };
  const userRevision = async (userId: string) =>
    Number(
      (
        await t.db.pool.query<{ r: string }>(
          'SELECT max(stream_revision)::text AS r FROM events WHERE stream_id = $1',
          [`user-${userId}`],
        )
      ).rows[0]!.r,
    );
  const started = (sessionId: string, extra: Record<string, unknown> = {}) => ({
    type: 'SessionStarted',
    data: {
      sessionId,
      secretHash: 'h',
      rememberMe: false,
      startedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      ...extra,
    },
    metadata: { actorId: 'test' },
  });
  /** Appended as the command side records it (the real store: its NOTIFY wakes the projections). */
  const append = async (streamId: string, event: ReturnType<typeof started>) => {
    const store = testEventStore(t.db);
    try {
      await store.append(streamId, [event], 'any');
    } finally {
      await store.close();
    }
  };

  it('a sign-in records its session in its own stream, never in the user stream', async () => {
    const user = await t.api.registerVerifiedUser();
    const signin = await t.api.post('/api/auth/signin', { email: user.email, password: user.password });
    expect(signin.status).toBe(200);
    const { rows } = await t.db.pool.query<{ stream_id: string }>(
      `SELECT stream_id FROM events WHERE type = 'SessionStarted' AND data->>'userId' = $1`,
      [user.user._id],
    );
    expect(rows.length).toBe(2); // registerVerifiedUser's sign-in and this one
    for (const r of rows) expect(r.stream_id).toMatch(/^session-/);
    expect(
      (
        await t.db.pool.query(`SELECT 1 FROM events WHERE stream_id = $1 AND type LIKE 'Session%'`, [
          `user-${user.user._id}`,
        ])
      ).rows,
    ).toEqual([]);
  });

  it('a sign-in decided before a password reset but recorded after it opens nothing', async () => {
    const user = await t.api.registerVerifiedUser();
    const before = await userRevision(user.user._id);
    expect((await t.api.post('/api/auth/forgot-password', { email: user.email })).status).toBe(200);
    const code = await t.api.readCode(user.email);
    const reset = await t.api.post('/api/auth/reset-password', {
      email: user.email,
      code,
      newPassword: 'N3w!Passw0rd',
    });
    expect(reset.status).toBe(200);
    const [late, fresh] = [randomUUID(), randomUUID()];
    await append(`session-${late}`, started(late, { userId: user.user._id, userRevision: before }));
    const after = await userRevision(user.user._id);
    await append(`session-${fresh}`, started(fresh, { userId: user.user._id, userRevision: after }));
    const lateToken = await tokenFor(user.user._id, late);
    expect((await t.api.get('/api/auth/profile', lateToken)).status).toBe(401);
    expect(await connect(lateToken)).toBe('Your session has ended. Please sign in again.');
    expect((await t.api.get('/api/auth/profile', await tokenFor(user.user._id, fresh))).status).toBe(200);
    // Another user's session id opens nothing for this user.
    const other = await t.api.registerVerifiedUser();
    expect((await t.api.get('/api/auth/profile', await tokenFor(other.user._id, fresh))).status).toBe(401);
  });

  it('a session recorded in the user stream (before sessions had their own) still opens, and signs out', async () => {
    const user = await t.api.registerVerifiedUser();
    const legacy = randomUUID();
    await append(`user-${user.user._id}`, started(legacy));
    const token = await tokenFor(user.user._id, legacy);
    expect((await t.api.get('/api/auth/profile', token)).status).toBe(200);
    expect((await t.api.post('/api/auth/signout', {}, token)).status).toBe(200);
    expect((await t.api.get('/api/auth/profile', token)).status).toBe(401);
    const { rows } = await t.db.pool.query<{ type: string }>(
      `SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_revision DESC LIMIT 1`,
      [`user-${user.user._id}`],
    );
    expect(rows[0]!.type).toBe('SessionRevoked');
  });
});

describe('sign-outs and deletions take effect on every read at once, whatever the projections lag', () => {
  const caughtUp = (position: string) => ({ 'X-Consistent-After': position });

  it('a read sent right after sign-out is refused, every time', async () => {
    const user = await t.api.registerVerifiedUser();
    for (let i = 0; i < 25; i++) {
      const signin = await t.api.post('/api/auth/signin', { email: user.email, password: user.password });
      expect(signin.status).toBe(200);
      // The read models know the session (so nothing but the sign-out can refuse it)...
      const before = await t.api.get('/api/auth/profile', signin.body.token, caughtUp(signin.body.position));
      expect(before.status).toBe(200);
      const out = await t.api.post('/api/auth/signout', {}, signin.body.token);
      expect(out.status).toBe(200);
      // ...and the very next read, sent before any projection could apply the sign-out, is refused.
      const after = await t.api.get('/api/auth/profile', signin.body.token);
      expect({ i, status: after.status }).toEqual({ i, status: 401 });
    }
  });

  describe('while an open transaction holds every projection back', () => {
    let bob: RegisteredUser;
    let alice: RegisteredUser;
    let dana: RegisteredUser;
    let admin: string;
    const ids = {} as {
      bobPost: string;
      bobAd: string;
      danaPost: string;
      danaAd: string;
      danaComment: string;
      withAlice: string;
      withDana: string;
    };
    let holder: pg.Client | undefined;

    beforeAll(async () => {
      [bob, alice, dana] = [
        await t.api.registerVerifiedUser(),
        await t.api.registerVerifiedUser(),
        await t.api.registerVerifiedUser(),
      ];
      admin = (await t.signInAdmin()).token;
      const image = { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' };
      const ok = (res: ApiResponse, status = 200) => {
        expect(res.status, res.text).toBe(status);
        return res.body;
      };
      const post = async (u: RegisteredUser, caption: string) =>
        ok(await t.api.upload('/api/posts', image, u.token, { caption }), 201)._id as string;
      const ad = async (u: RegisteredUser, name: string) =>
        ok(
          await t.api.upload('/api/adoptions', image, u.token, {
            name,
            age: '2',
            location: 'Lahore',
            petType: 'Cat',
            description: `${name} purrs.`,
          }),
          201,
        )._id as string;
      const chat = async (a: RegisteredUser, b: RegisteredUser, text: string) => {
        const c = ok(
          await t.api.post('/api/conversations', { senderId: a.user._id, receiverId: b.user._id }, a.token),
        ).data._id as string;
        ok(await t.api.post('/api/messages', { conversationId: c, text }, a.token), 201);
        return c;
      };
      ids.bobPost = await post(bob, 'Bob and his parrot');
      ids.bobAd = await ad(bob, 'Mithu');
      ids.danaPost = await post(dana, 'Dana secret caption');
      ids.danaAd = await ad(dana, 'Danapet');
      // Dana likes and comments on Bob's post (Bob is notified of both) and Bob answers her comment.
      ok(await t.api.post(`/api/posts/${ids.bobPost}/like`, {}, dana.token));
      ids.danaComment = ok(
        await t.api.post(`/api/comments/${ids.bobPost}`, { content: 'Dana says hello' }, dana.token),
        201,
      )._id;
      ok(
        await t.api.post(
          `/api/comments/${ids.bobPost}/comments`,
          { content: 'Bob answers', parentCommentId: ids.danaComment },
          bob.token,
        ),
        201,
      );
      ok(
        await t.api.post(
          `/api/adoptions/${ids.bobAd}/request`,
          { name: 'Dana', email: dana.email, phone: '+92 300 1234567', message: 'Dana wants Mithu' },
          dana.token,
        ),
        201,
      );
      ids.withDana = await chat(dana, bob, 'Dana writes to Bob');
      ids.withAlice = await chat(alice, bob, 'Alice writes to Bob');
      const last = ok(await t.api.post('/api/auth/update-profile', { city: 'Lahore' }, bob.token));
      // Everything is in the read models before the projections are held back.
      const notes = await t.api.get('/api/notifications?limit=50', bob.token, caughtUp(last.position));
      expect(notes.headers.get('x-consistency')).toBe('consistent');
      expect(JSON.stringify(notes.body)).toContain(ids.bobPost);

      holder = new pg.Client({ connectionString: t.db.connectionString });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT txid_current()');
    });
    afterAll(async () => {
      await holder?.query('ROLLBACK').catch(() => {});
      await holder?.end();
    });

    it('a signed-out token reads nothing: profile, messages, notifications, socket', async () => {
      const out = await t.api.post('/api/auth/signout', {}, alice.token);
      expect(out.status).toBe(200);
      for (const path of [
        '/api/auth/profile',
        `/api/messages/${ids.withAlice}`,
        `/api/conversations/${alice.user._id}`,
        '/api/notifications',
      ])
        expect({ path, status: (await t.api.get(path, alice.token)).status }).toEqual({ path, status: 401 });
      expect(await connect(alice.token)).toBe('Your session has ended. Please sign in again.');
    });

    it("a deleted user's token reads nothing, and nobody reads them or their content", async () => {
      const deletion = await t.api.del(`/api/admin/user/${dana.user._id}`, admin);
      expect(deletion.status).toBe(200);
      // The projections are really held back: the read models still have Dana.
      expect(await t.db.knex('users').where({ id: dana.user._id }).first()).toBeTruthy();
      expect(await t.db.knex('posts').where({ id: ids.danaPost }).first()).toBeTruthy();
      // Her personal-data key is destroyed by the deletion itself, not only when the shredder gets to it.
      const key = await t.db.knex('personal_data_keys').where({ user_id: dana.user._id }).first();
      expect({ key: key?.key ?? null, destroyed: key?.destroyed_at != null }).toEqual({
        key: null,
        destroyed: true,
      });

      expect((await t.api.get('/api/auth/profile', dana.token)).status).toBe(401);
      expect(await connect(dana.token)).toBe('Your session has ended. Please sign in again.');

      const read = (path: string) => t.api.get(path, bob.token);
      expect((await read(`/api/auth/profile/${dana.user._id}`)).status).toBe(404);
      expect((await t.api.post('/api/auth/getUserById', { id: dana.user._id }, bob.token)).status).toBe(404);
      const users = await t.api.post('/api/auth/getAllUsers', {}, bob.token);
      expect(users.body.data.map((u: { _id: string }) => u._id)).not.toContain(dana.user._id);
      expect(users.body.data.map((u: { _id: string }) => u._id)).toContain(bob.user._id);

      const feed = await read('/api/posts?limit=50');
      const postIds = feed.body.map((p: { _id: string }) => p._id);
      expect(postIds).toContain(ids.bobPost);
      expect(postIds).not.toContain(ids.danaPost);
      const bobPost = feed.body.find((p: { _id: string }) => p._id === ids.bobPost);
      expect(bobPost.likes).toEqual([]);
      // Her comment keeps its place for Bob's answer, as a deleted comment without author.
      expect(bobPost.comments.map((c: Json) => [c.content, c.deleted, c.userId?._id ?? null])).toEqual([
        ['', true, null],
        ['Bob answers', false, bob.user._id],
      ]);
      expect((await read(`/api/posts/${ids.danaPost}`)).status).toBe(404);
      expect((await read(`/api/posts/user/${dana.user._id}`)).body).toEqual([]);

      const ads = await read('/api/adoptions?limit=50');
      expect(ads.body.map((a: { _id: string }) => a._id)).not.toContain(ids.danaAd);
      expect((await read(`/api/adoptions/${ids.danaAd}`)).status).toBe(404);
      expect((await read(`/api/adoptions/user/${dana.user._id}`)).body).toEqual([]);
      const mine = await read(`/api/adoptions/user/${bob.user._id}?includeRequests=true`);
      expect(mine.body.find((a: { _id: string }) => a._id === ids.bobAd).requests).toEqual([]);

      const conversations = await read(`/api/conversations/${bob.user._id}`);
      expect(conversations.body.data.map((c: { _id: string }) => c._id)).toEqual([ids.withAlice]);
      expect((await read(`/api/conversations/find/${bob.user._id}/${dana.user._id}`)).status).toBe(404);
      expect((await read(`/api/messages/${ids.withDana}`)).status).toBe(404);

      const notes = await read('/api/notifications?limit=50');
      expect(notes.body.notifications).toEqual([]);

      // Every read of the query side, walked from the route table with each of Dana's ids in its parameters:
      // none answers anything of hers.
      const danaIds = [dana.user._id, ids.danaPost, ids.danaAd, ids.withDana];
      const traces = [...danaIds, dana.username, 'Dana secret caption', 'Dana says hello', 'Dana writes'];
      const leaks: string[] = [];
      const reads = t.app.routes.filter(
        (r) =>
          (r.method === 'GET' || r.path === '/api/auth/getUserById' || r.path === '/api/auth/getAllUsers') &&
          r.path.startsWith('/api/') &&
          // The dashboard keeps a deleted person's facts (audit, log) by design.
          !r.path.startsWith('/api/admin'),
      );
      expect(reads.length).toBeGreaterThan(20);
      for (const route of reads)
        for (const id of danaIds) {
          const path = route.path.replace(/:(\w+)/g, (_, name: string) =>
            name === 'userId' && route.path.startsWith('/api/conversations/:') ? bob.user._id : id,
          );
          const res = await t.api.request(route.method, path, {
            token: bob.token,
            ...(route.method === 'POST' ? { body: { id } } : {}),
          });
          for (const trace of traces)
            if (res.text.includes(trace)) leaks.push(`${route.method} ${path} shows ${trace}`);
        }
      expect(leaks).toEqual([]);

      // Once the transaction ends, the projections apply the deletion and the read models agree.
      await holder!.query('ROLLBACK');
      const later = await t.api.get(
        `/api/posts/user/${dana.user._id}`,
        bob.token,
        caughtUp(deletion.body.position),
      );
      expect(later.headers.get('x-consistency')).toBe('consistent');
      expect(later.body).toEqual([]);
      expect(await t.db.knex('users').where({ id: dana.user._id }).first()).toBeUndefined();
      const feedAfter = await read('/api/posts?limit=50');
      expect(feedAfter.body.find((p: { _id: string }) => p._id === ids.bobPost).comments).toEqual(
        bobPost.comments,
      );
      expect((await read(`/api/auth/profile/${dana.user._id}`)).body).toEqual(
        (await read(`/api/auth/profile/${randomUUID()}`)).body,
      );
    });
  });
});
