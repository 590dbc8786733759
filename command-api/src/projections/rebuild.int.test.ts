import pg from 'pg';
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MESSAGES as AM,
  ADMIN_SOCKET_EVENTS,
  CONSISTENT_AFTER_HEADER,
  type AdminRebuildState,
} from '@pawhaven/contracts';
import {
  PostgresEventStore,
  RebuildAlreadyRunning,
  rebuildIsRunning,
  rebuildProjections,
} from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import { startTestApp, type Json, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * The Projections screen's Rebuild: it runs in the server (202 at once), one at a time anywhere (409), pushes its
 * progress to admins' sockets only, and the community keeps reading the live tables while it runs.
 */

let t: TestApp;
let admin: string;
let user: RegisteredUser;
let position = '0';
let postId: string;
const sockets: Socket[] = [];

type Heard = { states: AdminRebuildState[]; waiters: (() => void)[] };

/** A connected socket.io client recording every rebuildProgress it hears. */
async function listen(token: string): Promise<{ socket: Socket; heard: Heard }> {
  const heard: Heard = { states: [], waiters: [] };
  const socket = io(t.url, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  socket.on(ADMIN_SOCKET_EVENTS.rebuildProgress, (state: AdminRebuildState) => {
    heard.states.push(state);
    for (const w of heard.waiters.splice(0)) w();
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  await roundTrip(socket);
  return { socket, heard };
}

/** An acknowledged request: everything the server emitted to this socket before it has arrived. */
const roundTrip = (socket: Socket) =>
  new Promise<void>((resolve) => socket.emit('presence', 'nobody', () => resolve()));

/** Resolves once a heard state matches (no time-out of its own: the test's time-out bounds it). */
async function hear(heard: Heard, match: (s: AdminRebuildState) => boolean): Promise<AdminRebuildState> {
  for (;;) {
    const found = heard.states.find(match);
    if (found) return found;
    await new Promise<void>((resolve) => heard.waiters.push(resolve));
  }
}

const feed = () => t.api.get('/api/posts', undefined, { [CONSISTENT_AFTER_HEADER]: position });

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signInAdmin()).token;
  user = await t.api.registerVerifiedUser();
  const bytes = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#888' } })
    .png()
    .toBuffer();
  const post = await t.api.upload(
    '/api/posts',
    { field: 'image', bytes, filename: 'a.png', type: 'image/png' },
    user.token,
    { caption: 'Before the rebuild' },
  );
  expect(post.status, post.text).toBe(201);
  position = post.body.position;
  postId = post.body._id;
  expect((await feed()).headers.get('x-consistency')).toBe('consistent');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

const rebuild = (name: string, token = admin) =>
  t.api.post('/api/admin/projections/rebuild', { name }, token);

describe('POST /api/admin/projections/rebuild', () => {
  it('refuses bad input and non-admins before anything runs', async () => {
    const unknown = await rebuild('nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("Unknown projection 'nope'");
    expect((await t.api.post('/api/admin/projections/rebuild', {}, admin)).status).toBe(400);
    expect((await rebuild('all', user.token)).status).toBe(403);
    expect((await t.api.post('/api/admin/projections/rebuild', { name: 'all' })).status).toBe(401);
  });

  it('answers 202, refuses a second rebuild with 409, pushes progress to admins only, keeps serving', async () => {
    const adminSocket = await listen(admin);
    const userSocket = await listen(user.token);

    // Hold the live checkpoint row of community-posts: the rebuild replays the whole log, then waits at its swap.
    const blocker = new pg.Client({ connectionString: t.db.connectionString });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT * FROM projection_checkpoints WHERE name = 'community-posts' FOR UPDATE`);

      const started = await rebuild('community-posts');
      expect(started.status, started.text).toBe(202);
      expect(started.body).toMatchObject({
        message: AM.rebuildStarted,
        rebuildId: expect.any(String),
        target: 'community-posts',
        names: ['community-posts'],
      });
      const rebuildId = started.body.rebuildId as string;

      // Anywhere: this server, another one, or the CLI (the same lock).
      for (const name of ['community-posts', 'all']) {
        const second = await rebuild(name);
        expect(second.status).toBe(409);
        expect(second.body.message).toBe(AM.rebuildRunning);
      }
      const store = new PostgresEventStore(t.db.pool);
      await expect(rebuildProjections(t.db.knex, store, allProjections.slice(0, 1))).rejects.toBeInstanceOf(
        RebuildAlreadyRunning,
      );

      const running = await hear(
        adminSocket.heard,
        (s) => s.rebuildId === rebuildId && s.state === 'running',
      );
      expect(running).toMatchObject({
        target: 'community-posts',
        current: 'community-posts',
        index: 1,
        count: 1,
      });

      // Wait until the rebuild has replayed everything and waits for the live checkpoint row (its swap).
      for (;;) {
        const { rows } = await t.db.pool.query(
          // This database only: other test files' rebuilds run on the same server at the same time.
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
             AND query ILIKE '%projection_checkpoints%for update%'`,
        );
        if (rows.length > 0) break;
        await new Promise((r) => setImmediate(r));
      }
      // The community keeps reading the live tables, old rows and all.
      const during = await feed();
      expect(during.status).toBe(200);
      expect(during.body.map((p: Json) => p._id)).toEqual([postId]);
      const screen = await t.api.get('/api/admin/projections', admin);
      expect(screen.body.projections.find((p: Json) => p.name === 'community-posts').rebuilding).toBe(true);
      expect((await t.api.get('/api/admin/projections/rebuild', admin)).body.rebuild).toMatchObject({
        rebuildId,
        state: 'running',
      });

      await blocker.query('COMMIT');
      const finished = await hear(
        adminSocket.heard,
        (s) => s.rebuildId === rebuildId && s.state !== 'running',
      );
      expect(finished).toMatchObject({ state: 'finished', percent: 100, error: null });
      expect(finished.processed).toBeGreaterThan(0);
      expect(finished.processed).toBe(finished.total);
      expect(finished.finishedAt).toEqual(expect.any(String));

      // A reloaded page catches up from the query side.
      const state = await t.api.get('/api/admin/projections/rebuild', admin);
      expect(state.body.rebuild).toMatchObject({ rebuildId, state: 'finished', percent: 100 });

      // A user's socket heard none of it (everything emitted to it before this round trip has arrived).
      await roundTrip(userSocket.socket);
      expect(userSocket.heard.states).toEqual([]);
      expect((await feed()).body.map((p: Json) => p._id)).toEqual([postId]);
      await store.close();
    } finally {
      await blocker.query('ROLLBACK').catch(() => {});
      await blocker.end();
    }
  });

  it("rebuilds 'all' once the previous one ended", async () => {
    const adminSocket = await listen(admin);
    const started = await rebuild('all');
    expect(started.status, started.text).toBe(202);
    expect(started.body.names).toEqual(allProjections.map((p) => p.name));
    const done = await hear(
      adminSocket.heard,
      (s) => s.rebuildId === started.body.rebuildId && s.state !== 'running',
    );
    expect(done).toMatchObject({
      state: 'finished',
      count: allProjections.length,
      index: allProjections.length,
    });
    // One read of the log for every projection: the events done are the log's, not twelve times as many.
    const events = Number((await t.db.pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n);
    expect(done.processed).toBeGreaterThan(0);
    expect(done.processed).toBeLessThanOrEqual(events);
    const screen = await t.api.get('/api/admin/projections', admin);
    expect(screen.body.projections.every((p: Json) => p.lastError === null && !p.rebuilding)).toBe(true);
    expect((await feed()).body.map((p: Json) => p._id)).toEqual([postId]);
  });
});

describe('stopping the app while a dashboard rebuild runs', () => {
  it('ends the rebuild at its next batch and lets go of the database, so the app stops', async () => {
    const db = await createTestDatabase({ max: 5 });
    try {
      const app = await startTestApp({ db });
      const token = (await app.api.post('/api/auth/signin', app.adminCredentials!)).body.token as string;
      await app.api.registerVerifiedUser();
      const started = await app.api.post('/api/admin/projections/rebuild', { name: 'all' }, token);
      expect(started.status, started.text).toBe(202);
      // Before, closing the database waited on the rebuild's connections while the rebuild waited for a new one.
      await app.stop();
      const { rows } = await db.pool.query(`SELECT state FROM rebuild_runs WHERE rebuild_id = $1`, [
        started.body.rebuildId,
      ]);
      const { state } = rows[0] as { state: { state: string; error: string | null } };
      expect(['finished', 'failed']).toContain(state.state);
      if (state.state === 'failed')
        expect(state.error).toBe('The rebuild was stopped: the app is shutting down');
      expect(await rebuildIsRunning(db.knex)).toBe(false);
    } finally {
      await db.drop();
    }
  });
});
