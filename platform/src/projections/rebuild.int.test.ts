import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import {
  comparePositions,
  START,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
} from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { applyBatch, projectionStatus, readCheckpoint } from './checkpoints';
import { ConsistencyWaiter } from './consistency';
import { defineProjection, type FoldedRow, type Projection } from './projection';
import { runProjector } from './projector';
import { rebuildIsRunning, rebuildProjection, rebuildProjections, type RebuildProgress } from './rebuild';
import { ShadowTables } from './shadow-tables';

/**
 * Blue/green rebuilds on the real PostgreSQL: the rebuild fills shadow copies and swaps them in
 * one transaction, so whoever reads the live tables meanwhile sees the whole model, consistent with its
 * checkpoint, and the live projector neither repeats nor loses an event across the swap.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

const NAME = 'test_rebuild_tally';
const HANDLED = ['PetListed', 'PetUpdated'];

/**
 * Three kinds of table, as the merge treats them differently: `rb_rows` is keyed, with an identity column outside
 * the key and a generated column; `rb_totals` is keyed and updated in place; `rb_kinds` has no key at all and
 * holds duplicates. None of them tolerates an event applied twice or lost.
 */
function makeProjection(opts: { faultOn?: string; writeLiveTable?: boolean } = {}) {
  return defineProjection({
    name: NAME,
    tables: ['rb_rows', 'rb_totals', 'rb_kinds'],
    handles: HANDLED,
    async apply(tx, e) {
      if (e.eventId === opts.faultOn) throw new Error('fault injected during the rebuild');
      const n = (e.data as { n: number }).n;
      await tx('rb_rows').insert({
        event_id: e.eventId,
        stream_id: e.streamId,
        n,
        position: e.position.toString(),
      });
      // A projection naming its table with the schema escapes the shadow: the rebuild must refuse it.
      const totals = opts.writeLiveTable ? 'public.rb_totals' : 'rb_totals';
      await tx.raw(
        `INSERT INTO ${totals} (stream_id, events, total) VALUES (?, 1, ?)
         ON CONFLICT (stream_id) DO UPDATE SET events = rb_totals.events + 1, total = rb_totals.total + EXCLUDED.total`,
        [e.streamId, n],
      );
      await tx('rb_kinds').insert({ type: e.type, stream_id: e.streamId });
    },
    // The same model in memory: rows in log order, so the shadow's identity numbers them as `apply` did.
    fold: () => {
      const rows: FoldedRow[] = [];
      const totals = new Map<string, { stream_id: string; events: number; total: number }>();
      const kinds: FoldedRow[] = [];
      return {
        apply(e) {
          if (e.eventId === opts.faultOn) throw new Error('fault injected during the rebuild');
          const n = (e.data as { n: number }).n;
          rows.push({ event_id: e.eventId, stream_id: e.streamId, n, position: e.position });
          const t = totals.get(e.streamId) ?? { stream_id: e.streamId, events: 0, total: 0 };
          totals.set(e.streamId, { ...t, events: t.events + 1, total: t.total + n });
          kinds.push({ type: e.type, stream_id: e.streamId });
        },
        rows: () => ({ rb_rows: rows, rb_totals: totals.values(), rb_kinds: kinds }),
      };
    },
  });
}

/** Another member of the live projector's group: a rebuild of its neighbour must not disturb it. */
const neighbour = defineProjection({
  name: 'test_rebuild_neighbour',
  tables: ['rb_neighbour'],
  handles: ['PetListed'],
  async apply(tx, e) {
    await tx('rb_neighbour').insert({ event_id: e.eventId });
  },
});

let db: TestDb;
let store: PostgresEventStore;
let lastAppended: LogPosition;
const running: { controller: AbortController; done: Promise<void> }[] = [];

beforeEach(async () => {
  db = await createTestDatabase({ max: 12 });
  store = new PostgresEventStore(db.pool);
  lastAppended = START;
  await db.knex.raw(`
    CREATE TABLE rb_rows (
      event_id  uuid PRIMARY KEY,
      seq       bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      stream_id text NOT NULL,
      n         int NOT NULL,
      position  bigint NOT NULL,
      label     text GENERATED ALWAYS AS (stream_id || ':' || n) STORED
    );
    CREATE INDEX rb_rows_stream ON rb_rows (stream_id, position);
    CREATE TABLE rb_totals (
      stream_id text PRIMARY KEY,
      events    int NOT NULL,
      total     bigint NOT NULL
    );
    CREATE TABLE rb_kinds (
      type      text NOT NULL,
      stream_id text NOT NULL
    );
    CREATE TABLE rb_neighbour (event_id uuid PRIMARY KEY);
  `);
});

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.controller.abort();
    await r.done;
  }
  await store.close();
  await db.drop();
});

function startProjector(projections: Projection[], batchSize = 50) {
  const controller = new AbortController();
  const done = runProjector(db.knex, store, projections, controller.signal, { batchSize, retryDelayMs: 5 });
  const entry = { controller, done };
  running.push(entry);
  return {
    async stop() {
      controller.abort();
      await done;
      running.splice(running.indexOf(entry), 1);
    },
  };
}

const noteAppended = (r: { transactionId: bigint; position: bigint }) => {
  if (comparePositions(r, lastAppended) > 0)
    lastAppended = { transactionId: r.transactionId, position: r.position };
};

/** Appends `count` events, 50 to an append, over `streams` streams; every fourth is of an ignored type. */
async function appendEvents(count: number, streams = 20, prefix = 'pet') {
  for (let i = 0; i < count; i += 50) {
    const events: NewEvent[] = [];
    for (let k = i; k < Math.min(count, i + 50); k++)
      events.push({
        type: k % 4 === 3 ? 'PetViewed' : k % 2 === 0 ? 'PetListed' : 'PetUpdated',
        data: { n: k + 1 },
      });
    noteAppended(await store.append(`${prefix}-${(i / 50) % streams}`, events, 'any'));
  }
}

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The whole log, once everything appended so far is visible. */
async function readLog(): Promise<RecordedEvent[]> {
  await eventually(
    async () => comparePositions(await store.headPosition(), lastAppended) >= 0,
    'the appends to be visible',
  );
  const all: RecordedEvent[] = [];
  for await (const e of store.readAll(START)) all.push(e);
  return all;
}

const caughtUp = (name = NAME) =>
  eventually(
    async () => comparePositions(await readCheckpoint(db.knex, name), lastAppended) >= 0,
    `${name} to catch up`,
  );

async function dump() {
  const q = (sql: string) => db.pool.query(sql).then((r) => r.rows);
  return {
    rows: await q(`SELECT event_id, stream_id, n, position, label FROM rb_rows ORDER BY position`),
    totals: await q(`SELECT stream_id, events, total FROM rb_totals ORDER BY stream_id`),
    kinds: await q(`SELECT type, stream_id, count(*)::int AS n FROM rb_kinds GROUP BY 1, 2 ORDER BY 1, 2`),
  };
}

/** Every handled event of the log is in the read model exactly once, and nothing else is. */
async function expectExactlyOnce(log: RecordedEvent[]) {
  const handled = log.filter((e) => HANDLED.includes(e.type));
  const { rows, totals, kinds } = await dump();
  expect(rows.map((r) => r.event_id)).toEqual(handled.map((e) => e.eventId));
  const sums = new Map<string, { events: number; total: number }>();
  const byKind = new Map<string, number>();
  for (const e of handled) {
    const t = sums.get(e.streamId) ?? { events: 0, total: 0 };
    t.events++;
    t.total += (e.data as { n: number }).n;
    sums.set(e.streamId, t);
    byKind.set(`${e.type}|${e.streamId}`, (byKind.get(`${e.type}|${e.streamId}`) ?? 0) + 1);
  }
  expect(totals.map((t) => ({ stream: t.stream_id, events: t.events, total: Number(t.total) }))).toEqual(
    [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([stream, t]) => ({ stream, ...t })),
  );
  expect(kinds.map((k) => `${k.type}|${k.stream_id}=${k.n}`)).toEqual(
    [...byKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k}=${n}`),
  );
  const seqs = (await db.pool.query(`SELECT count(DISTINCT seq)::int AS n FROM rb_rows`)).rows[0].n;
  expect(seqs).toBe(rows.length);
}

/**
 * One statement, so one snapshot: the checkpoint, the read model and the number of handled events the log holds
 * up to that checkpoint. A complete model has exactly as many rows as that.
 */
async function observe() {
  const { rows } = await db.pool.query<{
    tx: string;
    pos: string;
    rows: number;
    totals: number;
    kinds: number;
    expected: number;
  }>(
    `WITH cp AS (SELECT transaction_id, position FROM projection_checkpoints WHERE name = $1)
     SELECT cp.transaction_id::text AS tx, cp.position::text AS pos,
       (SELECT count(*)::int FROM rb_rows) AS rows,
       (SELECT coalesce(sum(events), 0)::int FROM rb_totals) AS totals,
       (SELECT count(*)::int FROM rb_kinds) AS kinds,
       (SELECT count(*)::int FROM events e
         WHERE e.type = ANY ($2) AND (e.transaction_id, e.position) <= (cp.transaction_id, cp.position)) AS expected
     FROM cp`,
    [NAME, HANDLED],
  );
  const r = rows[0]!;
  return { ...r, at: { transactionId: BigInt(r.tx), position: BigInt(r.pos) } };
}

const leftoverShadows = async () =>
  Number(
    (
      await db.pool.query(
        `SELECT count(*) AS n FROM pg_class WHERE relpersistence = 't' AND relname IN ('rb_rows', 'rb_totals', 'rb_kinds')`,
      )
    ).rows[0].n,
  );

/**
 * Which write path the rebuilt fold takes: shadow copies (rb_rows's identity column sends it there) or in place
 * (`write-in-place.ts`; rb_rows's `seq` then follows from the position instead).
 */
describe.each(['fold', 'fold in place'] as const)('blue/green rebuild through %s', (path) => {
  beforeEach(async () => {
    if (path === 'fold in place')
      await db.knex.raw(
        `ALTER TABLE rb_rows DROP COLUMN seq, ADD COLUMN seq bigint GENERATED ALWAYS AS (position) STORED UNIQUE`,
      );
  });

  it('readers never see a partial model or a checkpoint going back; the live projector and new events end up applied exactly once', async () => {
    const projection = makeProjection();
    await appendEvents(2400);
    const projector = startProjector([projection, neighbour]);
    await caughtUp();
    await caughtUp(neighbour.name);
    const before = await dump();
    const initial = await observe();
    expect(initial.rows).toBe(1800);

    const waiter = new ConsistencyWaiter(db.knex, db.connectionString, [NAME]);
    await waiter.start();
    let rebuilding = true;
    const seen = { reads: 0, waits: 0 };
    const violations: string[] = [];
    const reader = async () => {
      let last = initial.at;
      while (rebuilding) {
        const o = await observe();
        seen.reads++;
        if (o.rows < initial.rows) violations.push(`${o.rows} rows, fewer than the ${initial.rows} before`);
        if (o.rows !== o.expected || o.totals !== o.expected || o.kinds !== o.expected)
          violations.push(
            `model ${o.rows}/${o.totals}/${o.kinds} rows at a checkpoint covering ${o.expected}`,
          );
        if (comparePositions(o.at, last) < 0) violations.push(`checkpoint went back to ${o.pos}`);
        last = o.at;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    // New events during the rebuild; read-your-writes must still mean the live model has them.
    const writer = async () => {
      for (let i = 0; rebuilding; i++) {
        const r = await store.append(
          `live-${i % 5}`,
          [{ type: 'PetListed', data: { n: 10_000 + i } }],
          'any',
        );
        noteAppended(r);
        if (i % 10 === 0) {
          expect(await waiter.waitFor(r.position, 10_000)).toBe(true);
          const { rows } = await db.pool.query(`SELECT 1 FROM rb_rows WHERE position = $1`, [
            r.position.toString(),
          ]);
          expect(rows).toHaveLength(1);
          seen.waits++;
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    const progress: RebuildProgress[] = [];
    const work = [reader(), reader(), writer()];
    let result: Awaited<ReturnType<typeof rebuildProjection>>;
    try {
      result = await rebuildProjection(db.knex, store, projection, (p) => progress.push(p), {
        batchSize: 100,
      });
    } finally {
      rebuilding = false;
      await Promise.all(work);
      await waiter.stop();
    }
    expect(violations.slice(0, 5)).toEqual([]);
    expect(seen.reads).toBeGreaterThan(20);
    expect(seen.waits).toBeGreaterThan(0);
    expect(result.processed).toBeGreaterThanOrEqual(2400);
    expect(progress[progress.length - 1]).toMatchObject({ processed: result.processed });

    await caughtUp();
    await caughtUp(neighbour.name);
    const log = await readLog();
    await expectExactlyOnce(log);
    // The rows that were there before are there unchanged, and the neighbour lost and doubled nothing either.
    const after = await dump();
    expect(after.rows.slice(0, before.rows.length)).toEqual(before.rows);
    const { rows: neighbourRows } = await db.pool.query(`SELECT event_id FROM rb_neighbour`);
    expect(neighbourRows.map((r) => r.event_id).sort()).toEqual(
      log
        .filter((e) => e.type === 'PetListed')
        .map((e) => e.eventId)
        .sort(),
    );
    expect(await leftoverShadows()).toBe(0);
    await projector.stop();
  }, 120_000);

  it('writes only the rows that differ: none for an intact model; damaged, missing and extra rows are repaired', async () => {
    const projection = makeProjection();
    await appendEvents(400, 8);
    const projector = startProjector([projection]);
    await caughtUp();
    await projector.stop();
    const live = await dump();
    const xmins = async () =>
      (await db.pool.query(`SELECT event_id, xmin::text FROM rb_rows ORDER BY 1`)).rows;
    const xminsBefore = await xmins();

    const intact = await rebuildProjection(db.knex, store, projection);
    expect(intact.changedRows).toBe(0);
    expect(await xmins()).toEqual(xminsBefore); // not one live row rewritten
    expect(await dump()).toEqual(live);

    // Damage every kind of table: changed, deleted and invented rows, keyed or not.
    await db.pool.query(`UPDATE rb_rows SET n = n + 1000 WHERE position % 7 = 0`);
    await db.pool.query(`DELETE FROM rb_rows WHERE position % 11 = 0`);
    await db.pool.query(
      `INSERT INTO rb_rows (event_id, stream_id, n, position) VALUES (gen_random_uuid(), 'ghost', 1, 999999)`,
    );
    await db.pool.query(`UPDATE rb_totals SET total = total + 1 WHERE stream_id = 'pet-3'`);
    await db.pool.query(`DELETE FROM rb_totals WHERE stream_id = 'pet-5'`);
    await db.pool.query(`INSERT INTO rb_kinds VALUES ('PetListed', 'pet-0'), ('Ghost', 'ghost')`);
    expect(await dump()).not.toEqual(live);
    const repaired = await rebuildProjection(db.knex, store, projection);
    expect(repaired.changedRows).toBeGreaterThan(0);
    expect(await dump()).toEqual(live);
    await expectExactlyOnce(await readLog());
  });

  it('copies text with backslashes, tabs, newlines, quotes and emoji exactly (COPY escapes them)', async () => {
    const projection = makeProjection();
    for (const prefix of ['back\\slash\\n', 'tab\there', 'line\nbreak\r\n', `quote"'{},`, 'cat 🐈 ñ', '\\N'])
      await appendEvents(4, 1, prefix);
    const projector = startProjector([projection]);
    await caughtUp();
    await projector.stop();
    const live = await dump();
    expect(live.totals.map((t) => t.stream_id)).toContain('tab\there-0');
    await db.pool.query(`DELETE FROM rb_rows; DELETE FROM rb_totals; DELETE FROM rb_kinds`);
    const rebuilt = await rebuildProjection(db.knex, store, projection);
    expect(rebuilt.changedRows).toBeGreaterThan(0);
    expect(await dump()).toEqual(live);
    expect((await rebuildProjection(db.knex, store, projection)).changedRows).toBe(0);
  });

  it('moves the live identity sequence past the copied values, so the live projector goes on without collisions', async () => {
    const projection = makeProjection();
    await appendEvents(200, 4);
    await readLog(); // visible to the rebuild: another database's transaction may hold the horizon back
    // A model emptied behind the projector's back, its identity restarted: the shadow's values are all new.
    await db.pool.query(`TRUNCATE rb_rows, rb_totals, rb_kinds RESTART IDENTITY`);
    await rebuildProjection(db.knex, store, projection);
    const projector = startProjector([projection]);
    await appendEvents(100, 4, 'later');
    await caughtUp();
    await projector.stop();
    await expectExactlyOnce(await readLog());
  });

  it('when nobody projected, the checkpoint moves forward to the replayed head and a projector started later applies only newer events', async () => {
    const projection = makeProjection();
    await appendEvents(300, 5);
    await readLog(); // visible to the rebuild: another database's transaction may hold the horizon back
    expect(
      (await db.pool.query(`SELECT 1 FROM projection_checkpoints WHERE name = $1`, [NAME])).rows,
    ).toHaveLength(0);
    const result = await rebuildProjection(db.knex, store, projection);
    expect(result.processed).toBe(300);
    expect(await readCheckpoint(db.knex, NAME)).toEqual(lastAppended);
    const o = await observe();
    expect(o.rows).toBe(o.expected);
    expect(o.rows).toBe(150 + 75); // listed + updated, every fourth ignored
    await appendEvents(60, 3, 'later');
    const projector = startProjector([projection]);
    await caughtUp();
    await projector.stop();
    await expectExactlyOnce(await readLog());
  });

  it('two rebuilds of the same projection at once (CLI and dashboard) both swap in a whole model', async () => {
    const projection = makeProjection();
    await appendEvents(1000, 10);
    const projector = startProjector([projection]);
    await caughtUp();
    const results = await Promise.all([
      rebuildProjection(db.knex, store, projection, () => {}, { batchSize: 50 }),
      rebuildProjection(db.knex, store, projection, () => {}, { batchSize: 70 }),
    ]);
    expect(results.map((r) => r.processed >= 1000)).toEqual([true, true]);
    await appendEvents(50, 2, 'later');
    await caughtUp();
    await projector.stop();
    await expectExactlyOnce(await readLog());
  });

  it('a failing rebuild leaves the live model and its checkpoint as they were, and nothing behind', async () => {
    await appendEvents(500, 5);
    const log = await readLog();
    const live = makeProjection();
    const projector = startProjector([live]);
    await caughtUp();
    await projector.stop();
    const before = await dump();
    const checkpoint = await readCheckpoint(db.knex, NAME);

    const failing = makeProjection({ faultOn: log[420]!.eventId });
    await expect(rebuildProjection(db.knex, store, failing, () => {}, { batchSize: 50 })).rejects.toThrow(
      'fault injected',
    );
    expect(await dump()).toEqual(before);
    expect(await readCheckpoint(db.knex, NAME)).toEqual(checkpoint);
    expect(await leftoverShadows()).toBe(0);
  });

  it("a failed rebuild is the projection's last error until one succeeds", async () => {
    await appendEvents(200, 4);
    const log = await readLog();
    const failing = makeProjection({ faultOn: log[150]!.eventId });
    await expect(rebuildProjections(db.knex, store, [failing], () => {}, { batchSize: 50 })).rejects.toThrow(
      'fault injected',
    );
    const [failed] = await projectionStatus(db.knex, [failing]);
    expect(failed!.lastError).toBe('fault injected during the rebuild');
    expect(failed!.lastErrorAt).toBeInstanceOf(Date);
    await rebuildProjections(db.knex, store, [makeProjection()]);
    const [rebuilt] = await projectionStatus(db.knex, [failing]);
    expect(rebuilt).toMatchObject({ lastError: null, lastErrorAt: null });
  });

  it('replays every event up to the live checkpoint even while a transaction in another database holds the plain horizon back', async () => {
    const projection = makeProjection();
    await appendEvents(200, 4);
    const projector = startProjector([projection]);
    await caughtUp();
    await projector.stop();
    // Another application's database on the same server, with a transaction that took an id and sits idle.
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    const scratch = `scratch_${randomBytes(5).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${scratch}"`);
    const url = new URL(inject('pgAdminUrl'));
    url.pathname = `/${scratch}`;
    const foreign = new pg.Client({ connectionString: url.toString() });
    foreign.on('error', () => {});
    try {
      await foreign.connect();
      await foreign.query('BEGIN');
      await foreign.query('SELECT pg_current_xact_id()');
      const streams = ['held-0', 'held-1', 'held-2'];
      for (const stream of streams) {
        const events: NewEvent[] = [1, 2, 3].map((n) => ({ type: 'PetListed', data: { n } }));
        noteAppended(await store.append(stream, events, 'any'));
      }
      // A live projector that reads under a narrower horizon (one that ignores other databases) has applied them.
      const held: RecordedEvent[] = [];
      for (const stream of streams) for await (const e of store.readStream(stream)) held.push(e);
      held.sort((a, b) => comparePositions(a, b));
      await applyBatch(db.knex, [projection], held, await readCheckpoint(db.knex, NAME));
      // ...while the plain horizon, which the rebuild's first pass reads under, still hides them.
      expect(comparePositions(await store.headPosition(), lastAppended)).toBeLessThan(0);

      await rebuildProjection(db.knex, store, projection);
      expect(await readCheckpoint(db.knex, NAME)).toEqual(lastAppended);
      const o = await observe();
      expect(o.rows).toBe(o.expected);
    } finally {
      await foreign.end().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
      await admin.end();
    }
    await expectExactlyOnce(await readLog());
  });
});

describe('shadow copies, guarded', () => {
  it('refuse an apply that writes a live table, leaving that table untouched', async () => {
    // The rebuild catches its shadow copies up through `apply` (events the live model saw after the fold).
    await appendEvents(100, 4);
    const projector = startProjector([makeProjection()]);
    await caughtUp();
    await projector.stop();
    const before = await dump();
    const [event] = await readLog();
    const shadow = await ShadowTables.create(db.knex, makeProjection({ writeLiveTable: true }));
    try {
      // As every catch-up transaction does before it commits.
      const caughtUpOnce = shadow.transaction(async (tx) => {
        await shadow.apply(tx, event!);
        await shadow.assertOnlyShadowsWritten(tx);
      });
      await expect(caughtUpOnce).rejects.toThrow(/apply wrote public\.rb_totals, which is not a shadow copy/);
    } finally {
      await shadow.close();
    }
    expect(await dump()).toEqual(before);
  });

  it('a projection without a fold (a reactor) is refused before anything is locked or read', async () => {
    await expect(rebuildProjection(db.knex, store, neighbour)).rejects.toThrow(
      /test_rebuild_neighbour cannot be rebuilt: no fold/,
    );
    expect(await rebuildIsRunning(db.knex)).toBe(false);
  });
});

describe('shadow copies', () => {
  it('leave out indexes that enforce nothing until apply first runs, then have every index of the live table', async () => {
    const shadow = await ShadowTables.create(db.knex, makeProjection());
    try {
      const indexes = async () =>
        (
          await shadow.connection.query<{ def: string }>(
            `SELECT regexp_replace(pg_get_indexdef(indexrelid), '^.* USING ', '') AS def FROM pg_index
             WHERE indrelid = 'pg_temp.rb_rows'::regclass ORDER BY 1`,
          )
        ).rows.map((r) => r.def);
      // The key and the unique identity stay: apply's ON CONFLICT and the fold's duplicate keys need them.
      expect(await indexes()).toEqual(['btree (event_id)', 'btree (seq)']);
      await appendEvents(2, 1);
      const [event] = await readLog();
      await shadow.transaction((tx) => shadow.apply(tx, event!));
      expect(await indexes()).toEqual(['btree (event_id)', 'btree (seq)', 'btree (stream_id, "position")']);
    } finally {
      await shadow.close();
    }
  });
});
