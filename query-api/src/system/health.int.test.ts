import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  defineProjection,
  loadConfig,
  PostgresEventStore,
  readCheckpoint,
  runProjector,
  type LogPosition,
} from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import type { QueryDeps } from '../deps';
import { Presence } from '../realtime/presence';
import { systemQueries } from './routes';

/** `/api/health` while one transaction is left open (issue 6 point 8), served by the system router alone. */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const THRESHOLD_SECONDS = 0.3;
const probe = defineProjection({ name: 'test_health_probe', tables: [], handles: [], apply: async () => {} });
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: PostgresEventStore;
let server: ReturnType<express.Express['listen']>;
let url: string;
const abort = new AbortController();
let projector: Promise<void>;
const clients: pg.Client[] = [];
let scratch: string | undefined;

beforeAll(async () => {
  db = await createTestDatabase({ max: 6 });
  store = new PostgresEventStore(db.pool);
  projector = runProjector(db.knex, store, [probe], abort.signal, { retryDelayMs: 5 });
  const deps = {
    config: loadConfig({ NODE_ENV: 'test' }, { HELD_BACK_WARN_SECONDS: THRESHOLD_SECONDS }),
    db,
    store,
    projections: [probe],
    presence: new Presence(),
  } as unknown as QueryDeps;
  const app = express();
  app.use(systemQueries(deps));
  server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  url = `http://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => {});
  abort.abort();
  await projector;
  await new Promise((r) => server.close(r));
  await store.close();
  await db.drop();
  if (scratch) {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
    await admin.end();
  }
});

const health = async (): Promise<Json> => {
  const res = await fetch(`${url}/api/health`);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
};

async function openTransaction(connectionString: string) {
  const client = new pg.Client({ connectionString, application_name: 'left-open' });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  await client.query('BEGIN');
  const { rows } = await client.query<{ pid: number; xid: string }>(
    'SELECT pg_backend_pid() AS pid, pg_current_xact_id()::text AS xid',
  );
  return { client, ...rows[0]! };
}

const passed = (at: LogPosition, target: LogPosition) =>
  at.transactionId > target.transactionId ||
  (at.transactionId === target.transactionId && at.position >= target.position);

async function eventually<T>(check: () => Promise<T | false | undefined>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET /api/health and an open transaction', () => {
  it('says ok with nothing held back', async () => {
    const body = await health();
    expect(body.status).toBe('ok');
    expect(body.parts.heldBack).toMatchObject({
      status: 'ok',
      heldBack: false,
      events: 0,
      seconds: 0,
      blockers: [],
    });
    expect(body.parts.projections[0]).toMatchObject({ name: probe.name, status: 'ok', lag: 0, heldBack: 0 });
  });

  it('in this database: held back with the blocking pid and the age, once past the threshold; ok again after COMMIT', async () => {
    const blocker = await openTransaction(db.connectionString);
    const appendedAt = Date.now();
    const appended = await store.append(
      `probe-${randomBytes(3).toString('hex')}`,
      [{ type: 'Probe', data: {} }],
      'any',
    );
    const early = await health();
    expect(early.parts.heldBack).toMatchObject({ status: 'ok', heldBack: true, events: 1 }); // not yet past the threshold
    expect(early.parts.projections[0]).toMatchObject({ lag: 1, heldBack: 1 }); // lag no longer says 0

    const held = await eventually(async () => {
      const b = await health();
      return b.parts.heldBack.status === 'held back' && b;
    }, "health to say 'held back'");
    expect(held.status).toBe('degraded');
    expect(held.parts.heldBack.seconds).toBeGreaterThanOrEqual(THRESHOLD_SECONDS);
    expect(held.parts.heldBack.blockers).toEqual([
      expect.objectContaining({
        kind: 'backend',
        pid: blocker.pid,
        transactionId: blocker.xid,
        state: 'idle in transaction',
        applicationName: 'left-open',
        database: new URL(db.connectionString).pathname.slice(1),
      }),
    ]);
    expect(held.parts.heldBack.message).toContain(`pg_terminate_backend(${blocker.pid})`);
    expect(held.parts.projections[0]).toMatchObject({ status: 'held back', lag: 1, heldBack: 1 });
    const heldFor = Date.now() - appendedAt;

    await blocker.client.query('COMMIT');
    await eventually(
      async () => passed(await readCheckpoint(db.knex, probe.name), appended),
      'the projector',
    );
    const after = await health();
    expect(after.status).toBe('ok');
    expect(after.parts.heldBack).toMatchObject({ status: 'ok', heldBack: false, events: 0 });
    expect(after.parts.projections[0]).toMatchObject({ status: 'ok', lag: 0, heldBack: 0 });
    console.info(
      `[health] this database: 'held back' after ${held.parts.heldBack.seconds} s (threshold ${THRESHOLD_SECONDS} s, ${heldFor} ms after the append), ` +
        `blocker pid ${blocker.pid}; parts.heldBack = ${JSON.stringify({ ...held.parts.heldBack, message: undefined })}`,
    );
  });

  it('in another database of the server: the projections go on and health stays ok', async () => {
    scratch = `scratch_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${scratch}"`);
    await admin.end();
    const otherUrl = new URL(inject('pgAdminUrl'));
    otherUrl.pathname = `/${scratch}`;
    const other = await openTransaction(otherUrl.toString());
    const appended = await store.append(
      `probe-${randomBytes(3).toString('hex')}`,
      [{ type: 'Probe', data: {} }],
      'any',
    );
    await eventually(
      async () => passed(await readCheckpoint(db.knex, probe.name), appended),
      'the projector',
    );
    await new Promise((r) => setTimeout(r, THRESHOLD_SECONDS * 1000 + 100));
    const body = await health();
    expect(body.status).toBe('ok');
    expect(body.parts.heldBack).toMatchObject({ status: 'ok', heldBack: false, events: 0 });
    expect(body.parts.projections[0]).toMatchObject({ status: 'ok', lag: 0, heldBack: 0 });
    await other.client.query('COMMIT');
  });
});
