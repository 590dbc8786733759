import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  connectDatabase,
  DATABASE_UNAVAILABLE,
  freePort,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from '@pawhaven/platform';
import {
  connectSocket,
  startTestApp,
  type ApiResponse,
  type RegisteredUser,
  type TestApi,
  type TestApp,
  type TestSocket,
} from '@pawhaven/testing';

/**
 * Issue 20 point 2: a dropped database connection ended the process (the socket.io adapter's LISTEN client had no
 * 'error' listener), and requests during an outage were 500s. The database going away, in part or whole, must never
 * end the app: it answers 503 meanwhile and everything, socket delivery included, comes back by itself.
 */

const sockets: Socket[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; answers how long it took (ms), or fails with what the last check saw. */
async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

const healthy = (api: TestApi) => async () => (await api.get('/api/health')).status === 200;

/** Two users with a conversation and a socket each. */
async function chatting(t: TestApp) {
  const [alice, bob] = await Promise.all([t.api.registerVerifiedUser(), t.api.registerVerifiedUser()]);
  const c = await t.api.post(
    '/api/conversations',
    { senderId: alice.user._id, receiverId: bob.user._id },
    alice.token,
  );
  expect(c.status).toBe(200);
  const connect = async (user: RegisteredUser) => {
    // Reconnecting as the browser's does: the socket survives whatever happens to the database.
    const s = await connectSocket(t.url, user.token, { reconnection: true });
    sockets.push(s.socket);
    return s;
  };
  return {
    alice,
    bob,
    conversationId: c.body.data._id as string,
    a: await connect(alice),
    b: await connect(bob),
  };
}

/** A message sent over HTTP reaches the other member's socket live (pushed when its read model commits). */
async function deliveredLive(t: TestApp, from: RegisteredUser, conversationId: string, to: TestSocket) {
  const text = `after the outage ${randomUUID()}`;
  const sent = await t.api.post('/api/messages', { conversationId, text }, from.token);
  expect(sent.status, sent.text).toBe(201);
  await to.waitFor('getMessage', (m) => m.text === text, 10_000);
}

/** An app with a chat (see chatting), and a way to act on its database as the server's administrator. */
async function appWithChat() {
  const t = await startTestApp();
  cleanups.push(() => t.stop());
  const chat = await chatting(t);
  const database = new URL(t.db.connectionString).pathname.slice(1);
  const asAdmin = async <T>(work: (admin: pg.Client) => Promise<T>): Promise<T> => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.end();
    }
  };
  return { t, ...chat, database, asAdmin };
}

describe('the database going away', () => {
  it('every connection of the app terminated at once: it answers again within seconds and delivers live', async () => {
    const { t, alice, conversationId, b, database, asAdmin } = await appWithChat();
    // Pools, LISTEN connections (change notices, consistency, event store, keys, the socket.io adapter's).
    const { rows } = await asAdmin((admin) =>
      admin.query<{ pid: number }>(
        `SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [database],
      ),
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);

    await within(10_000, healthy(t.api), 'health answers 200 again');
    await deliveredLive(t, alice, conversationId, b);
    // And over the socket, the other way round.
    const viaSocket = await b.socket.timeout(10_000).emitWithAck('sendMessage', {
      conversationId,
      text: 'over the socket after the outage',
    });
    expect(viaSocket).toMatchObject({ ok: true });
  });

  it('a push committed while the gateway could not listen still reaches the socket once it listens again', async () => {
    const { t, alice, conversationId, b, database, asAdmin } = await appWithChat();
    const allowConnections = (allow: boolean) =>
      asAdmin((admin) => admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${allow}`));
    try {
      // The gateway's listener loses its connection and cannot make a new one (connections already open still
      // work), so the message's notice is committed while nobody of this process listens.
      await allowConnections(false);
      const { rows } = await asAdmin((admin) =>
        admin.query<{ pid: number }>(
          `SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = $1 AND query = 'LISTEN pawhaven_changes'`,
          [database],
        ),
      );
      expect(rows).toHaveLength(1);
      const text = `while nobody listened ${randomUUID()}`;
      const sent = await t.api.post('/api/messages', { conversationId, text }, alice.token);
      expect(sent.status, sent.text).toBe(201);
      await t.api.get(`/api/messages/${conversationId}`, alice.token, {
        'X-Consistent-After': sent.body.position,
      });
      await sleep(500);
      expect(b.got.filter((g) => g.event === 'getMessage')).toEqual([]);

      await allowConnections(true);
      await b.waitFor('getMessage', (m) => m.text === text, 10_000);
    } finally {
      await allowConnections(true);
    }
  });

  it('a restart of the database under load: 503s with a message meanwhile, green again within seconds, nothing acknowledged lost', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pawhaven-outage-'));
    const port = await freePort();
    let server: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir: dir, port });
    cleanups.push(async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const db = connectDatabase(server.connectionString, { max: 5 });
    const t = await startTestApp({ db: { ...db, drop: () => db.close() } });
    cleanups.push(() => t.stop());
    const { alice, bob, conversationId, b } = await chatting(t);

    // Load: both members send one message after another, each with its own Idempotency-Key as the browser does;
    // every answer is kept with when it came.
    const answers: { at: number; status: number; message?: string }[] = [];
    const acknowledged: string[] = [];
    let loading = true;
    const load = (user: RegisteredUser) =>
      (async () => {
        while (loading) {
          const clientMessageId = randomUUID();
          const res: ApiResponse = await t.api
            .post(
              '/api/messages',
              { conversationId, text: `load ${clientMessageId}`, clientMessageId },
              user.token,
              { 'Idempotency-Key': clientMessageId },
            )
            .catch((error: Error) => ({ status: 0, body: { message: error.message } }) as ApiResponse);
          answers.push({ at: Date.now(), status: res.status, message: res.body?.message });
          if (res.status === 201) acknowledged.push(res.body.data._id);
          await sleep(20);
        }
      })();
    const workers = [load(alice), load(bob), load(alice)];

    await within(10_000, async () => acknowledged.length >= 10, 'messages sent before the restart');
    const stopping = Date.now();
    await server.stop(); // a fast shutdown: every connection ends with 57P01, then nothing answers
    // A socket event meanwhile gets the same answer as HTTP.
    expect(
      await b.socket
        .timeout(10_000)
        .emitWithAck('sendMessage', { conversationId, text: 'during the outage' }),
    ).toEqual({ ok: false, status: 503, message: DATABASE_UNAVAILABLE });
    await sleep(1000);
    server = await startEmbeddedPostgres({ dataDir: dir, port });
    const restarted = Date.now();
    const back = await within(
      10_000,
      async () => answers.some((a) => a.at > restarted && a.status === 201),
      'a message accepted after the restart',
    );
    await sleep(1000);
    loading = false;
    await Promise.all(workers);

    const during = answers.filter((a) => a.at > stopping && a.at < restarted);
    expect(during.length).toBeGreaterThan(0);
    expect(during.filter((a) => a.status === 503).length).toBeGreaterThan(0);
    // Never anything but an answer or a 503 that says why.
    expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
    for (const a of answers.filter((x) => x.status === 503)) expect(a.message).toBe(DATABASE_UNAVAILABLE);
    expect(back).toBeLessThan(10_000);
    // Once back, it stays green.
    expect(answers.filter((a) => a.at > restarted + back && a.status !== 201)).toEqual([]);

    // Every acknowledged message is in the log and in the read model.
    const { rows } = await t.db.pool.query<{ id: string }>(
      `SELECT data->>'messageId' AS id FROM events WHERE stream_id = $1 AND type = 'MessageSent'`,
      [`conversation-${conversationId}`],
    );
    const logged = new Set(rows.map((r) => r.id));
    expect(acknowledged.filter((id) => !logged.has(id))).toEqual([]);
    await deliveredLive(t, alice, conversationId, b);
    const { rows: projected } = await t.db.pool.query<{ id: string }>(
      'SELECT id::text FROM chat_messages WHERE conversation_id = $1',
      [conversationId],
    );
    const inReadModel = new Set(projected.map((r) => r.id));
    expect(acknowledged.filter((id) => !inReadModel.has(id))).toEqual([]);
  }, 120_000);
});
