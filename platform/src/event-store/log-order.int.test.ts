import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { connectDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrations';
import { platformMigrations } from '../db/platform-migrations';
import { startEmbeddedPostgres } from '../embedded/embedded-postgres';
import { freePort } from '../embedded/ports';
import { projectionStatus, readCheckpoint } from '../projections/checkpoints';
import { defineProjection, type Projection } from '../projections/projection';
import { runProjector } from '../projections/projector';
import type { LogPosition } from './event-store';
import { ensureLogOrder, type LogOrderReport } from './log-order';
import { PostgresEventStore } from './postgres-event-store';

/**
 * Issue 6 point 9: a log restored into another server carries transaction ids ahead of that server's counter.
 * Restores are simulated by shifting the stored ids (events and checkpoints) by a billion, and done for real by
 * copying a database into a freshly initialised PostgreSQL cluster (pg_dump 15 on this machine refuses the
 * embedded server 18, so the copy is the same data pg_dump would carry: rows with their transaction ids, the
 * checkpoints, the read models and the position sequence).
 */

const SHIFT = 1_000_000_000;
const silent = { warn: () => {}, info: () => {} };

type Handle = { db: Database; store: PostgresEventStore; close(): Promise<void> };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function testDb(): Promise<Handle> {
  const db = await createTestDatabase({ max: 6 });
  await createTallyTables(db);
  const store = new PostgresEventStore(db.pool);
  const handle = {
    db,
    store,
    async close() {
      await store.close();
      await db.drop();
    },
  };
  cleanups.push(() => handle.close());
  return handle;
}

async function createTallyTables(db: Database) {
  await db.knex.raw(`
    CREATE TABLE IF NOT EXISTS lo_rows_a (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, event_id uuid NOT NULL, position bigint NOT NULL);
    CREATE TABLE IF NOT EXISTS lo_rows_b (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, event_id uuid NOT NULL, position bigint NOT NULL);`);
}

/** One row per event, no unique key: an event applied twice, or skipped, shows. */
const tally = (name: string, table: string): Projection =>
  defineProjection({
    name,
    tables: [table],
    handles: ['Pet'],
    async apply(tx, e) {
      await tx(table).insert({ event_id: e.eventId, position: e.position.toString() });
    },
  });
const A = tally('lo_a', 'lo_rows_a');
const B = tally('lo_b', 'lo_rows_b');

function startProjector(h: Handle, projections: Projection[] = [A, B]) {
  const controller = new AbortController();
  const done = runProjector(h.db.knex, h.store, projections, controller.signal, { retryDelayMs: 5 });
  const stop = async () => {
    controller.abort();
    await done;
  };
  cleanups.push(stop);
  return { stop };
}

async function appendPets(h: Handle, n: number, streams = 3): Promise<LogPosition[]> {
  const out: LogPosition[] = [];
  for (let i = 0; i < n; i++)
    out.push(await h.store.append(`pet-${i % streams}`, [{ type: 'Pet', data: { i } }], 'any'));
  return out;
}

const logEventIds = async (db: Database) =>
  (await db.pool.query<{ event_id: string }>('SELECT event_id FROM events ORDER BY position')).rows.map(
    (r) => r.event_id,
  );
const rowsOf = async (db: Database, table: string) =>
  (await db.pool.query<{ event_id: string }>(`SELECT event_id FROM ${table} ORDER BY seq`)).rows.map(
    (r) => r.event_id,
  );

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sorted = (ids: string[]) => [...ids].sort();

/** Both read models hold every event of the log exactly once. */
async function expectExactlyOnce(db: Database) {
  const log = await logEventIds(db);
  await eventually(
    async () =>
      (await rowsOf(db, 'lo_rows_a')).length >= log.length &&
      (await rowsOf(db, 'lo_rows_b')).length >= log.length,
    'both read models to hold the whole log',
  );
  await new Promise((r) => setTimeout(r, 100)); // nothing more arrives
  expect(sorted(await rowsOf(db, 'lo_rows_a'))).toEqual(sorted(log));
  expect(sorted(await rowsOf(db, 'lo_rows_b'))).toEqual(sorted(log));
}

/** What a dump restored into another server looks like: every stored transaction id ahead of this server's counter. */
async function simulateRestore(db: Database) {
  await db.pool.query(`
    UPDATE events SET transaction_id = (transaction_id::text::bigint + ${SHIFT})::text::xid8;
    UPDATE projection_checkpoints SET transaction_id = (transaction_id::text::bigint + ${SHIFT})::text::xid8
    WHERE transaction_id <> '0'::xid8;`);
}

const serverNext = async (db: Database) =>
  BigInt(
    (await db.pool.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x')).rows[0]!
      .x,
  );
const maxStored = async (db: Database) =>
  BigInt(
    (await db.pool.query<{ x: string }>('SELECT max(transaction_id)::text AS x FROM events')).rows[0]!.x,
  );

describe('a log restored into another server (simulated by shifting the stored transaction ids)', () => {
  it('without the repair a new append is skipped by every projection, and health-style lag even says 0', async () => {
    const h = await testDb();
    await appendPets(h, 6);
    let projector = startProjector(h);
    await expectExactlyOnce(h.db);
    await projector.stop();

    await simulateRestore(h.db);
    expect(await maxStored(h.db)).toBeGreaterThanOrEqual(await serverNext(h.db));
    const [fresh] = await appendPets(h, 1);
    projector = startProjector(h);
    await new Promise((r) => setTimeout(r, 600));
    const log = await logEventIds(h.db);
    expect(log).toHaveLength(7);
    expect(sorted(await rowsOf(h.db, 'lo_rows_a'))).toEqual(sorted(log.slice(0, 6))); // the new event never shows
    expect(sorted(await rowsOf(h.db, 'lo_rows_b'))).toEqual(sorted(log.slice(0, 6)));
    expect((await readCheckpoint(h.db.knex, A.name)).transactionId > fresh!.transactionId).toBe(true);
    expect((await projectionStatus(h.db.knex, [A]))[0]).toMatchObject({ lag: 0, heldBack: 0 }); // "all is well"
    await projector.stop();

    // The repair finds the event appended here below the checkpoints: those projections may have skipped it, so
    // they are rebuilt, and afterwards they hold the whole log exactly once.
    const report = await ensureLogOrder(h.db.knex, [A, B], { log: silent });
    expect(report.status).toBe('repaired');
    expect(report.reset.flatMap((r) => r.names).sort()).toEqual(['lo_a', 'lo_b']);
    expect(report.reset[0]!.reason).toContain('appended on this server');
    expect(report.renumbered).toBe(7);
    startProjector(h);
    await expectExactlyOnce(h.db);
    console.info(`[log-order] skipped without repair, then repaired: ${summary(report)}`);
  });

  it('repaired at start: checkpoints at the head and in the middle move, new appends are projected, a second start changes nothing', async () => {
    const h = await testDb();
    const positions = await appendPets(h, 10);
    let projector = startProjector(h);
    await expectExactlyOnce(h.db);
    await projector.stop();
    // B had applied only the first four events when the dump was taken.
    await h.db.pool.query('DELETE FROM lo_rows_b WHERE position > $1', [positions[3]!.position.toString()]);
    await h.db.pool.query(
      `UPDATE projection_checkpoints SET transaction_id = $1::text::xid8, position = $2 WHERE name = 'lo_b'`,
      [positions[3]!.transactionId.toString(), positions[3]!.position.toString()],
    );

    await simulateRestore(h.db);
    const logged: string[] = [];
    const started = performance.now();
    const report = await ensureLogOrder(h.db.knex, [A, B], {
      log: { warn: (_o: unknown, msg: string) => void logged.push(msg), info: () => {} },
    });
    const repairMs = performance.now() - started;
    expect(report).toMatchObject({ status: 'repaired', renumbered: 10, reset: [] });
    // Below the counter as it stands after the repair (other databases of the server move it meanwhile).
    expect(BigInt(report.renumberedTo!)).toBeLessThan(await serverNext(h.db));
    expect(report.fromPosition).toBe(positions[0]!.position.toString());
    const t = report.renumberedTo!;
    expect(report.moved).toEqual(
      expect.arrayContaining([
        { names: ['lo_a'], from: expect.any(String), to: `(${t}, ${positions[9]!.position})` },
        { names: ['lo_b'], from: expect.any(String), to: `(${t}, ${positions[3]!.position})` },
      ]),
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('restored from another PostgreSQL server');
    expect(await maxStored(h.db)).toBeLessThan(await serverNext(h.db));

    // New appends sort after the restored log and reach both projections; B catches up on the rest too.
    await appendPets(h, 2);
    projector = startProjector(h);
    await expectExactlyOnce(h.db);
    await projector.stop();

    // The next start: nothing to do, and nothing is applied twice.
    const again = await ensureLogOrder(h.db.knex, [A, B], { log: silent });
    expect(again).toMatchObject({ status: 'ok', renumbered: 0, moved: [], reset: [] });
    await appendPets(h, 1);
    startProjector(h);
    await expectExactlyOnce(h.db);
    console.info(
      `[log-order] repaired at start in ${Math.round(repairMs)} ms: ${summary(report)}; second start: ${again.status}`,
    );
  });

  it('a checkpoint that concurrent appends straddle cannot be moved exactly: that projection is rebuilt', async () => {
    const h = await testDb();
    await appendPets(h, 2);
    // B takes its transaction id before A, A inserts first (lower position), B second: B sorts before A.
    const b = new pg.Client({ connectionString: h.db.connectionString });
    const a = new pg.Client({ connectionString: h.db.connectionString });
    await Promise.all([a.connect(), b.connect()]);
    cleanups.push(
      () => a.end(),
      () => b.end(),
    );
    await b.query('BEGIN');
    await b.query('SELECT pg_current_xact_id()');
    await a.query('BEGIN');
    await a.query('SELECT pg_current_xact_id()');
    const insert = (c: pg.Client, stream: string) =>
      c.query(
        `INSERT INTO events (stream_id, stream_revision, event_id, type, data) VALUES ($1, 0, $2, 'Pet', '{}')`,
        [stream, randomUUID()],
      );
    await insert(a, 'late-a');
    await insert(b, 'early-b');
    await b.query('COMMIT');
    // With A still open, the projectors can read up to B's event but not A's.
    const projector = startProjector(h);
    await eventually(async () => (await rowsOf(h.db, 'lo_rows_b')).length === 3, 'the events before A');
    await projector.stop();
    await a.query('COMMIT');
    // A (the head) catches up alone; B stays where it was, between the two concurrent appends.
    const onlyA = startProjector(h, [A]);
    await eventually(async () => (await rowsOf(h.db, 'lo_rows_a')).length === 4, 'A to the head');
    await onlyA.stop();

    await simulateRestore(h.db);
    const report = await ensureLogOrder(h.db.knex, [A, B], { log: silent });
    expect(report.status).toBe('repaired');
    expect(report.moved.map((m) => m.names)).toEqual([['lo_a']]);
    expect(report.reset).toEqual([
      { names: ['lo_b'], at: expect.any(String), reason: expect.stringContaining('not a prefix') },
    ]);
    expect(await rowsOf(h.db, 'lo_rows_b')).toEqual([]); // emptied for the rebuild
    await appendPets(h, 1);
    startProjector(h);
    await expectExactlyOnce(h.db);
    console.info(`[log-order] straddled checkpoint: ${summary(report)}`);
  });
});

describe('a real restore into a freshly initialised server', () => {
  it('copies a database (rows with their transaction ids, checkpoints, read models, sequence) into a new cluster: skipped without the repair, projected with it', async () => {
    const source = await testDb();
    // Make sure the source's ids are ahead of a fresh cluster's counter (a young server, like the test server).
    await source.db.pool.query(
      `DO $$ BEGIN FOR i IN 1..300 LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`,
    );
    await appendPets(source, 8);
    const projector = startProjector(source);
    await expectExactlyOnce(source.db);
    await projector.stop();

    const started = performance.now();
    const port = await freePort();
    const dataDir = path.join(tmpdir(), `pawhaven-restore-${randomBytes(4).toString('hex')}`);
    const cluster = await startEmbeddedPostgres({ dataDir, port, database: 'restored_plain' });
    cleanups.push(async () => {
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    });
    const clusterMs = performance.now() - started;
    const admin = new pg.Client({ connectionString: cluster.adminConnectionString });
    await admin.connect();
    await admin.query('CREATE DATABASE restored_repaired');
    await admin.end();
    const urlOf = (name: string) => {
      const u = new URL(cluster.adminConnectionString);
      u.pathname = `/${name}`;
      return u.toString();
    };

    const restore = async (name: string): Promise<Handle> => {
      const db = connectDatabase(urlOf(name), { max: 6 });
      const store = new PostgresEventStore(db.pool);
      const handle = { db, store, close: async () => (await store.close(), await db.close()) };
      cleanups.push(() => handle.close());
      await migrate(db.knex, platformMigrations);
      await createTallyTables(db);
      for (const table of ['events', 'projection_checkpoints', 'lo_rows_a', 'lo_rows_b']) {
        const { rows } = await source.db.pool.query<{ data: unknown }>(
          `SELECT COALESCE(json_agg(t), '[]') AS data FROM ${table} t`,
        );
        const identity = table === 'projection_checkpoints' ? '' : 'OVERRIDING SYSTEM VALUE';
        await db.pool.query(
          `INSERT INTO ${table} ${identity} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`,
          [JSON.stringify(rows[0]!.data)],
        );
      }
      for (const [table, column] of [
        ['events', 'position'],
        ['lo_rows_a', 'seq'],
        ['lo_rows_b', 'seq'],
      ])
        await db.pool.query(
          `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT max(${column}) FROM ${table}))`,
        );
      return handle;
    };

    // Without the repair: the restored ids are ahead of the new server's counter and the new event is skipped.
    const plain = await restore('restored_plain');
    const storedMax = await maxStored(plain.db);
    const newNext = await serverNext(plain.db);
    expect(storedMax).toBeGreaterThanOrEqual(newNext);
    await appendPets(plain, 1);
    startProjector(plain);
    await new Promise((r) => setTimeout(r, 600));
    expect(sorted(await rowsOf(plain.db, 'lo_rows_a'))).toEqual(
      sorted((await logEventIds(plain.db)).slice(0, 8)),
    );

    // With the repair at start, as startApp runs it: the new event is projected, and the next start is a no-op.
    const repaired = await restore('restored_repaired');
    const report = await ensureLogOrder(repaired.db.knex, [A, B], { log: silent });
    expect(report).toMatchObject({ status: 'repaired', renumbered: 8, reset: [] });
    expect(report.moved.flatMap((m) => m.names)).toEqual(['lo_a', 'lo_b']);
    await appendPets(repaired, 2);
    startProjector(repaired);
    await expectExactlyOnce(repaired.db);
    expect((await ensureLogOrder(repaired.db.knex, [A, B], { log: silent })).status).toBe('ok');
    console.info(
      `[log-order] real restore: new cluster up in ${Math.round(clusterMs)} ms, its counter ${newNext} < restored ids up to ${storedMax}; ` +
        `without repair the new event was skipped; ${summary(report)}; whole test ${Math.round(performance.now() - started)} ms`,
    );
  });
});

const summary = (r: LogOrderReport) =>
  `${r.status}, ${r.renumbered} events renumbered to ${r.renumberedTo} from position ${r.fromPosition} (highest stored ${r.highestStored} vs counter ${r.serverNext}), ` +
  `moved ${JSON.stringify(r.moved)}, reset ${JSON.stringify(r.reset.map((x) => x.names))}`;
