import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import {
  comparePositions,
  START,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
} from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import {
  applyBatch,
  CheckpointMoved,
  projectionStatus,
  readCheckpoint,
  resetProjection,
} from './checkpoints';
import { ConsistencyWaiter } from './consistency';
import { defineProjection, type FoldedRow } from './projection';
import { runProjector } from './projector';
import { rebuildProjection, type RebuildProgress } from './rebuild';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

const NAME = 'test_pet_tally';
const HANDLED = ['PetListed', 'PetUpdated'];

/**
 * A small projection whose effects are not idempotent on purpose: one row per handled event (no unique key)
 * and a running sum per stream. Applying an event twice, or losing one, shows in the tables.
 */
function makeProjection() {
  const control = {
    /** apply throws for this event id while set. */
    faultOn: undefined as string | undefined,
    faultHits: 0,
    /** apply calls that were not faults (some may have been rolled back). */
    applied: 0,
    /** apply waits on this event id (to kill the connection mid-batch). */
    slowOn: undefined as string | undefined,
  };
  const projection = defineProjection({
    name: NAME,
    tables: ['test_tally_rows', 'test_tally_totals'],
    handles: HANDLED,
    async apply(tx, e) {
      if (e.eventId === control.faultOn) {
        control.faultHits++;
        throw new Error('fault injected in the middle of a batch');
      }
      if (e.eventId === control.slowOn) {
        control.slowOn = undefined; // once: the retry after the kill goes through
        await tx.raw('SELECT pg_sleep(30)');
      }
      control.applied++;
      const n = (e.data as { n: number }).n;
      await tx('test_tally_rows').insert({
        event_id: e.eventId,
        stream_id: e.streamId,
        type: e.type,
        n,
        position: e.position.toString(),
      });
      await tx.raw(
        `INSERT INTO test_tally_totals (stream_id, events, total) VALUES (?, 1, ?)
         ON CONFLICT (stream_id) DO UPDATE SET events = test_tally_totals.events + 1, total = test_tally_totals.total + EXCLUDED.total`,
        [e.streamId, n],
      );
    },
    // The same model in memory, for rebuilds.
    fold: () => {
      const rows: FoldedRow[] = [];
      const totals = new Map<string, { stream_id: string; events: number; total: number }>();
      return {
        apply(e) {
          const n = (e.data as { n: number }).n;
          rows.push({ event_id: e.eventId, stream_id: e.streamId, type: e.type, n, position: e.position });
          const t = totals.get(e.streamId) ?? { stream_id: e.streamId, events: 0, total: 0 };
          totals.set(e.streamId, { ...t, events: t.events + 1, total: t.total + n });
        },
        rows: () => ({ test_tally_rows: rows, test_tally_totals: totals.values() }),
      };
    },
  });
  return { projection, control };
}

let db: TestDb;
let store: PostgresEventStore;
let lastAppended: LogPosition;
const running: { controller: AbortController; done: Promise<void> }[] = [];

beforeEach(async () => {
  db = await createTestDatabase({ max: 10 });
  store = new PostgresEventStore(db.pool);
  lastAppended = START;
  await db.knex.raw(`
    CREATE TABLE test_tally_rows (
      seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id  uuid NOT NULL,
      stream_id text NOT NULL,
      type      text NOT NULL,
      n         int NOT NULL,
      position  bigint NOT NULL
    );
    CREATE TABLE test_tally_totals (
      stream_id text PRIMARY KEY,
      events    int NOT NULL,
      total     bigint NOT NULL
    );
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

function startProjector(projection: ReturnType<typeof makeProjection>['projection'], batchSize = 100) {
  const controller = new AbortController();
  const done = runProjector(db.knex, store, [projection], controller.signal, { batchSize, retryDelayMs: 5 });
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

/** Appends `count` events over `streams` streams; every fourth event is of a type the projection ignores. */
async function appendEvents(count: number, streams = 5, prefix = 'pet'): Promise<RecordedEvent[]> {
  for (let i = 0; i < count; i++) {
    const type = i % 4 === 3 ? 'PetViewed' : i % 2 === 0 ? 'PetListed' : 'PetUpdated';
    const event: NewEvent = { type, data: { n: i + 1 } };
    const r = await store.append(`${prefix}-${i % streams}`, [event], 'any');
    if (comparePositions(r, lastAppended) > 0)
      lastAppended = { transactionId: r.transactionId, position: r.position };
  }
  return readLog();
}

/** The whole log, once everything appended so far is visible (an older transaction anywhere on the server holds it back). */
async function readLog(): Promise<RecordedEvent[]> {
  await eventually(
    async () => comparePositions(await store.headPosition(), lastAppended) >= 0,
    'the appends to be visible',
  );
  const all: RecordedEvent[] = [];
  for await (const e of store.readAll(START)) all.push(e);
  return all;
}

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits until the projection's checkpoint has passed everything appended so far. */
const caughtUp = () =>
  eventually(
    async () => comparePositions(await readCheckpoint(db.knex, NAME), lastAppended) >= 0,
    'the projector to catch up',
  );

async function dump() {
  const rows = await db
    .knex('test_tally_rows')
    .select('event_id', 'stream_id', 'type', 'n', 'position')
    .orderBy('position');
  const totals = await db
    .knex('test_tally_totals')
    .select('stream_id', 'events', 'total')
    .orderBy('stream_id');
  return { rows, totals };
}

/** Every handled event of the log has exactly one row, in log order, and the sums agree. */
async function expectExactlyOnce(log: RecordedEvent[]) {
  const handled = log.filter((e) => HANDLED.includes(e.type));
  const { rows, totals } = await dump();
  expect(rows.map((r) => r.event_id)).toEqual(handled.map((e) => e.eventId));
  const expected = new Map<string, { events: number; total: number }>();
  for (const e of handled) {
    const t = expected.get(e.streamId) ?? { events: 0, total: 0 };
    t.events++;
    t.total += (e.data as { n: number }).n;
    expected.set(e.streamId, t);
  }
  expect(
    totals.map((t) => ({ stream: t.stream_id, events: Number(t.events), total: Number(t.total) })),
  ).toEqual([...expected].sort(([a], [b]) => a.localeCompare(b)).map(([stream, t]) => ({ stream, ...t })));
}

const positionOfEvent = (e: RecordedEvent): LogPosition => ({
  transactionId: e.transactionId,
  position: e.position,
});

describe('read model and checkpoint in one transaction', () => {
  it('applyBatch: an apply that throws mid-batch leaves neither rows nor checkpoint moved', async () => {
    const { projection, control } = makeProjection();
    const log = await appendEvents(8);
    control.faultOn = log[5]!.eventId;
    await expect(applyBatch(db.knex, [projection], log, START)).rejects.toThrow('fault injected');
    expect(control.applied).toBeGreaterThan(0); // rows were written before the fault, then rolled back
    expect(await dump()).toEqual({ rows: [], totals: [] });
    expect(await readCheckpoint(db.knex, NAME)).toEqual(START);
    control.faultOn = undefined;
    const at = await applyBatch(db.knex, [projection], log, START);
    expect(at).toEqual(positionOfEvent(log[7]!));
    await expectExactlyOnce(log);
  });

  it('applyBatch refuses with CheckpointMoved when the checkpoint is not where the caller started, changing nothing', async () => {
    const { projection } = makeProjection();
    const log = await appendEvents(6);
    await applyBatch(db.knex, [projection], log.slice(0, 3), START);
    const before = await dump();
    await expect(applyBatch(db.knex, [projection], log.slice(3), START)).rejects.toBeInstanceOf(
      CheckpointMoved,
    );
    expect(await dump()).toEqual(before);
    expect(await readCheckpoint(db.knex, NAME)).toEqual(positionOfEvent(log[2]!));
  });

  it('runProjector: a faulty batch is retried from the checkpoint; once the fault clears every effect is there exactly once', async () => {
    const { projection, control } = makeProjection();
    const log = await appendEvents(12);
    control.faultOn = log[5]!.eventId; // in the second batch of 4
    const projector = startProjector(projection, 4);
    // Two hits: the first attempt's transaction has certainly ended (rolled back) before we look.
    await eventually(() => control.faultHits >= 2, 'the fault to be hit twice');
    const { rows } = await dump();
    expect(rows.map((r) => r.event_id)).toEqual(
      log
        .slice(0, 4)
        .filter((e) => HANDLED.includes(e.type))
        .map((e) => e.eventId),
    );
    expect(await readCheckpoint(db.knex, NAME)).toEqual(positionOfEvent(log[3]!));
    control.faultOn = undefined;
    await caughtUp();
    await expectExactlyOnce(log);
    const [status] = await projectionStatus(db.knex, [projection]);
    expect(status!.eventsProcessed).toBe(12);
    // The failure stays on record for the Projections screen, with its time, after the projector recovered.
    expect(status!.lastError).toBe('fault injected in the middle of a batch');
    expect(status!.lastErrorAt).toBeInstanceOf(Date);
    await projector.stop();
  });

  it('a projector whose database connection is killed mid-batch loses and doubles nothing', async () => {
    const { projection, control } = makeProjection();
    const log = await appendEvents(10);
    control.slowOn = log[6]!.eventId;
    const projector = startProjector(projection, 5);
    // Match the sleeping backend by what it waits on: matching on query text would also hit an idle
    // connection whose last query was this very lookup.
    await eventually(async () => {
      const { rows } = await db.pool.query<{ killed: boolean }>(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event = 'PgSleep' AND state = 'active'`,
      );
      return rows.some((r) => r.killed);
    }, 'the projector to be inside the slow event');
    await caughtUp();
    await expectExactlyOnce(log);
    await projector.stop();
  });
});

describe('restart', () => {
  it('stop, append more, start again: resumes from the checkpoint with no duplicates and nothing missed', async () => {
    const { projection, control } = makeProjection();
    await appendEvents(20);
    let projector = startProjector(projection, 7);
    await caughtUp();
    await projector.stop();
    const appliedBefore = control.applied;
    const checkpointBefore = await readCheckpoint(db.knex, NAME);

    const log = await appendEvents(15, 5, 'later');
    projector = startProjector(projection, 7);
    await caughtUp();
    await projector.stop();
    await expectExactlyOnce(log);
    // Only the new handled events were applied after the restart.
    const newHandled = log.filter(
      (e) => comparePositions(positionOfEvent(e), checkpointBefore) > 0 && HANDLED.includes(e.type),
    );
    expect(control.applied - appliedBefore).toBe(newHandled.length);
    const [status] = await projectionStatus(db.knex, [projection]);
    expect(status!.eventsProcessed).toBe(35);
  });
});

describe('rebuild', () => {
  it('rebuildProjection reproduces the live projection row for row and reports processed and events/s', async () => {
    const { projection } = makeProjection();
    const log = await appendEvents(300, 12);
    const projector = startProjector(projection, 40);
    await caughtUp();
    await projector.stop();
    const live = await dump();
    expect(live.rows.length).toBe(log.filter((e) => HANDLED.includes(e.type)).length);

    const progress: RebuildProgress[] = [];
    const result = await rebuildProjection(db.knex, store, projection, (p) => progress.push(p), {
      batchSize: 64,
    });
    expect(await dump()).toEqual(live);
    expect(result).toMatchObject({ name: NAME, processed: 300 });
    expect(result.seconds).toBeGreaterThan(0);
    expect(result.eventsPerSecond).toBeGreaterThan(0);
    expect(result.eventsPerSecond).toBeCloseTo(result.processed / result.seconds, 3);
    expect(progress[0]).toEqual({ name: NAME, processed: 0, total: 300 });
    expect(progress[progress.length - 1]).toEqual({ name: NAME, processed: 300, total: 300 });
    // Never back (the write phase reports the pass's count again while it writes).
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.processed).toBeGreaterThanOrEqual(progress[i - 1]!.processed);
    expect(await readCheckpoint(db.knex, NAME)).toEqual(positionOfEvent(log[log.length - 1]!));
  });

  it('a rebuild while the live projector runs and events keep coming still ends with exactly-once rows', async () => {
    const { projection } = makeProjection();
    await appendEvents(200, 8);
    const projector = startProjector(projection, 16);
    await caughtUp();
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const r = await store.append(`live-${i % 3}`, [{ type: 'PetListed', data: { n: 1000 + i } }], 'any');
        if (comparePositions(r, lastAppended) > 0)
          lastAppended = { transactionId: r.transactionId, position: r.position };
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    let outcome: Awaited<ReturnType<typeof rebuildProjection>>;
    try {
      // The live projector, detached by the reset, competes for the same batches: the rebuild carries on after it.
      outcome = await rebuildProjection(db.knex, store, projection, () => {}, { batchSize: 10 });
    } finally {
      writing = false;
      await writer;
    }
    expect(outcome.processed).toBeGreaterThanOrEqual(200);
    await caughtUp();
    await expectExactlyOnce(await readLog());
    await projector.stop();
  });
});

describe('status and read-your-writes', () => {
  it('projectionStatus shows the checkpoint, events processed and lag', async () => {
    const { projection } = makeProjection();
    await appendEvents(5);
    let [status] = await projectionStatus(db.knex, [projection]);
    expect(status).toEqual({
      name: NAME,
      position: '0',
      transactionId: '0',
      eventsProcessed: 0,
      updatedAt: null,
      lag: 5,
      heldBack: 0,
      heldBackSince: null,
      lastError: null,
      lastErrorAt: null,
    });

    const projector = startProjector(projection);
    await caughtUp();
    await projector.stop();
    [status] = await projectionStatus(db.knex, [projection]);
    expect(status).toMatchObject({
      position: lastAppended.position.toString(),
      transactionId: lastAppended.transactionId.toString(),
      eventsProcessed: 5,
      lag: 0,
    });
    expect(status!.updatedAt).toBeInstanceOf(Date);

    await appendEvents(3); // waits until they are visible
    [status] = await projectionStatus(db.knex, [projection]);
    expect(status).toMatchObject({ eventsProcessed: 5, lag: 3 });
  });

  it('ConsistencyWaiter.waitFor resolves true once the projector passes the position', async () => {
    const { projection } = makeProjection();
    const waiter = new ConsistencyWaiter(db.knex, db.connectionString, [NAME]);
    await waiter.start();
    try {
      const first = await store.append('pet-a', [{ type: 'PetListed', data: { n: 1 } }], 'no_stream');
      const waiting = waiter.waitFor(first.position, 10_000);
      let settled = false;
      void waiting.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(settled).toBe(false); // nobody projected it yet
      const startedAt = performance.now();
      const projector = startProjector(projection);
      expect(await waiting).toBe(true);
      expect(performance.now() - startedAt).toBeLessThan(5_000);
      expect((await dump()).rows).toHaveLength(1); // the read model has it when the wait ends
      // Already passed: answers at once.
      expect(await waiter.waitFor(first.position, 10)).toBe(true);
      // A later append is waited for too, while the projector runs live.
      const second = await store.append('pet-a', [{ type: 'PetUpdated', data: { n: 2 } }], 0n);
      expect(await waiter.waitFor(second.position, 10_000)).toBe(true);
      expect((await dump()).rows).toHaveLength(2);
      await projector.stop();
    } finally {
      await waiter.stop();
    }
  });

  it('ConsistencyWaiter.waitFor resolves false after its timeout when no projector runs', async () => {
    const waiter = new ConsistencyWaiter(db.knex, db.connectionString, [NAME]);
    await waiter.start();
    try {
      const r = await store.append(
        `pet-${randomUUID()}`,
        [{ type: 'PetListed', data: { n: 1 } }],
        'no_stream',
      );
      const startedAt = performance.now();
      expect(await waiter.waitFor(r.position, 250)).toBe(false);
      const waited = performance.now() - startedAt;
      expect(waited).toBeGreaterThanOrEqual(240);
      expect(waited).toBeLessThan(2_000);
    } finally {
      await waiter.stop();
    }
  });

  it('ConsistencyWaiter.stateOf changes with each commit it hears, is null while its listener is down, and comes back', async () => {
    const { projection } = makeProjection();
    const waiter = new ConsistencyWaiter(db.knex, db.connectionString, [NAME, 'test_other']);
    await waiter.start();
    const projector = startProjector(projection);
    try {
      const before = waiter.stateOf([NAME]);
      const other = waiter.stateOf(['test_other']);
      expect(before).not.toBeNull();
      const r = await store.append(
        `pet-${randomUUID()}`,
        [{ type: 'PetListed', data: { n: 1 } }],
        'no_stream',
      );
      expect(await waiter.waitFor(r.position, 10_000, [NAME])).toBe(true);
      const after = waiter.stateOf([NAME]);
      expect(after).not.toBe(before);
      expect(waiter.stateOf(['test_other'])).toBe(other); // a projection that did not commit keeps its state

      // The listening connection is killed (a database restart, a network cut): commits would go unheard.
      await db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
      );
      await eventually(() => waiter.stateOf([NAME]) === null, 'the waiter to notice its listener is gone');
      // It listens again by itself, and no earlier state is ever reported again.
      await eventually(() => waiter.stateOf([NAME]) !== null, 'the waiter to listen again', 15_000);
      expect([before, after]).not.toContain(waiter.stateOf([NAME]));
      const again = waiter.stateOf([NAME]);
      const r2 = await store.append(
        `pet-${randomUUID()}`,
        [{ type: 'PetListed', data: { n: 2 } }],
        'no_stream',
      );
      expect(await waiter.waitFor(r2.position, 10_000, [NAME])).toBe(true);
      expect(waiter.stateOf([NAME])).not.toBe(again);
    } finally {
      await projector.stop();
      await waiter.stop();
    }
  });
});

// resetProjection (start a projection over from the beginning, e.g. after a log repair) stays covered on its own.
it('resetProjection empties the tables and puts the checkpoint back to the start', async () => {
  const { projection } = makeProjection();
  const log = await appendEvents(4);
  await applyBatch(db.knex, [projection], log, START);
  await resetProjection(db.knex, projection);
  expect(await dump()).toEqual({ rows: [], totals: [] });
  expect(await readCheckpoint(db.knex, NAME)).toEqual(START);
});
