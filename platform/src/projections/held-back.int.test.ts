import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { START, type LogPosition, type RecordedEvent } from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { projectionStatus, readCheckpoint } from './checkpoints';
import { describeHeldBack, heldBackStatus, startHeldBackMonitor } from './held-back';
import { defineProjection } from './projection';
import { runProjector } from './projector';

/**
 * Issue 6 point 8: one open transaction and the visibility rule. Figures are printed (console.info) so a run shows
 * how long events were held and what the status said.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

const NAME = 'test_held_back_probe';
let db: TestDb;
let store: PostgresEventStore;
const seen: RecordedEvent[] = [];
const probe = defineProjection({
  name: NAME,
  tables: [],
  handles: ['Probe'],
  async apply(_tx, e) {
    seen.push(e);
  },
});
let projector: { controller: AbortController; done: Promise<void> } | undefined;
const clients: pg.Client[] = [];
const scratchDatabases: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ max: 8 });
  store = new PostgresEventStore(db.pool);
  const controller = new AbortController();
  projector = {
    controller,
    done: runProjector(db.knex, store, [probe], controller.signal, { retryDelayMs: 5 }),
  };
  // The projector is live before the figures are taken.
  const warmUp = await store.append('probe-warm-up', [{ type: 'Probe', data: {} }], 'any');
  await eventually(async () => passed(await readCheckpoint(db.knex, NAME), warmUp), 'the warm-up event');
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
});

afterAll(async () => {
  projector?.controller.abort();
  await projector?.done;
  await store.close();
  await db.drop();
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  for (const name of scratchDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
});

/** A session that opens a transaction and takes a transaction id now, then sits idle in it. */
async function openTransaction(connectionString: string, applicationName: string) {
  const client = new pg.Client({ connectionString, application_name: applicationName });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  await client.query('BEGIN');
  const { rows } = await client.query<{ xid: string; pid: number }>(
    'SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid',
  );
  return { client, xid: rows[0]!.xid, pid: rows[0]!.pid };
}

/** A new empty database on the same server (another application's, as far as PawHaven is concerned). */
async function scratchDatabase(): Promise<string> {
  const name = `scratch_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  scratchDatabases.push(name);
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const passed = (at: LogPosition, target: { transactionId: bigint; position: bigint }) =>
  at.transactionId > target.transactionId ||
  (at.transactionId === target.transactionId && at.position >= target.position);

/** Whether the plain rule (rebuild, headPosition) lets a reader see the event now. */
async function plainReaderSees(eventId: string, from: LogPosition = START): Promise<boolean> {
  for await (const e of store.readAll(from)) if (e.eventId === eventId) return true;
  return false;
}

const HOLD_MS = 1500;

describe('a transaction open in ANOTHER database of the same server', () => {
  it('holds back the plain rule for as long as it is open, but not the live projections (narrowed horizon)', async () => {
    const other = await openTransaction(await scratchDatabase(), 'someone-elses-app');
    const before = await readCheckpoint(db.knex, NAME);
    const appendedAt = performance.now();
    const appended = await store.append(
      `probe-${randomBytes(4).toString('hex')}`,
      [{ type: 'Probe', data: {} }],
      'any',
    );
    const eventId = (
      await db.pool.query<{ event_id: string }>('SELECT event_id FROM events WHERE position = $1', [
        appended.position.toString(),
      ])
    ).rows[0]!.event_id;

    // The projector delivers it although the other transaction is still open.
    await eventually(async () => passed(await readCheckpoint(db.knex, NAME), appended), 'the projector');
    const projectedMs = performance.now() - appendedAt;
    expect(seen.some((e) => e.eventId === eventId)).toBe(true);
    expect(passed(before, appended)).toBe(false);

    // What the plain rule does meanwhile: the event stays invisible to it (and to headPosition) until the commit.
    await new Promise((r) => setTimeout(r, HOLD_MS));
    expect(await plainReaderSees(eventId, before)).toBe(false);
    expect((await store.headPosition()).position < appended.position).toBe(true);
    const plainXmin = (
      await db.pool.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin')
    ).rows[0]!.xmin;
    expect(plainXmin).toBe(other.xid); // the other database's transaction IS the server-wide xmin

    // Nothing is reported held back: the projections are not, and the other database's session is no blocker.
    const status = await heldBackStatus(db.knex, [NAME]);
    expect(status).toMatchObject({ heldBack: false, events: 0, blockers: [] });
    const [projection] = await projectionStatus(db.knex, [probe]);
    expect(projection).toMatchObject({ lag: 0, heldBack: 0 });

    const committedAt = performance.now();
    await other.client.query('COMMIT');
    await eventually(() => plainReaderSees(eventId, before), 'the plain rule to see it after the commit');
    console.info(
      `[held-back] other database, transaction ${other.xid} open ${Math.round(committedAt - appendedAt)} ms: ` +
        `projected after ${Math.round(projectedMs)} ms; plain rule (readAll/headPosition) saw it only after the commit ` +
        `(${Math.round(performance.now() - appendedAt)} ms); heldBackStatus: ${JSON.stringify({ heldBack: status.heldBack, events: status.events })}`,
    );
  });
});

describe('a transaction open in THIS database', () => {
  it('holds the projections back (it may still append events below), and status names the blocking session', async () => {
    const blocker = await openTransaction(db.connectionString, 'psql');
    await blocker.client.query('SELECT 42 AS left_open_by_an_operator');
    const before = await readCheckpoint(db.knex, NAME);
    const appendedAt = performance.now();
    const appended = await store.append(
      `probe-${randomBytes(4).toString('hex')}`,
      [{ type: 'Probe', data: {} }],
      'any',
    );

    // Held back: correct, the open transaction holds an older transaction id and could still append.
    await new Promise((r) => setTimeout(r, 300));
    expect(await readCheckpoint(db.knex, NAME)).toEqual(before);

    const status = await heldBackStatus(db.knex, [NAME]);
    expect(status.heldBack).toBe(true);
    expect(status.events).toBe(1);
    expect(status.horizon).toBe(blocker.xid);
    expect(status.seconds).toBeGreaterThan(0.2);
    expect(status.since).toBeInstanceOf(Date);
    expect(status.blockers).toHaveLength(1);
    expect(status.blockers[0]).toMatchObject({
      kind: 'backend',
      pid: blocker.pid,
      transactionId: blocker.xid,
      database: new URL(db.connectionString).pathname.slice(1),
      applicationName: 'psql',
      state: 'idle in transaction',
      query: 'SELECT 42 AS left_open_by_an_operator',
    });
    expect(status.blockers[0]!.transactionSeconds).toBeGreaterThan(0.2);
    const text = describeHeldBack(status);
    expect(text).toContain(`pid ${blocker.pid}`);
    expect(text).toContain(`SELECT pg_terminate_backend(${blocker.pid})`);
    expect(text).toContain('idle_in_transaction_session_timeout');

    // projectionStatus: the lag counts it (it used to say 0 here), and says it is held back.
    const [projection] = await projectionStatus(db.knex, [probe]);
    expect(projection).toMatchObject({ lag: 1, heldBack: 1 });
    expect(projection!.heldBackSince).toBeInstanceOf(Date);

    const committedAt = performance.now();
    await blocker.client.query('COMMIT'); // no NOTIFY: only the subscriber's held-back retry notices
    await eventually(async () => passed(await readCheckpoint(db.knex, NAME), appended), 'the projector');
    const after = await heldBackStatus(db.knex, [NAME]);
    expect(after).toMatchObject({ heldBack: false, events: 0, seconds: 0, blockers: [] });
    console.info(
      `[held-back] this database, pid ${blocker.pid} idle in transaction: event held ${Math.round(committedAt - appendedAt)} ms ` +
        `(projected ${Math.round(performance.now() - committedAt)} ms after the commit); status said: ` +
        JSON.stringify({
          events: status.events,
          seconds: status.seconds,
          lag: projection!.lag,
          heldBack: projection!.heldBack,
        }),
    );
  });

  it('a transaction without a transaction id (it only read) holds nothing back', async () => {
    const reader = new pg.Client({ connectionString: db.connectionString });
    await reader.connect();
    clients.push(reader);
    await reader.query('BEGIN');
    await reader.query('SELECT count(*) FROM events');
    const appended = await store.append(
      `probe-${randomBytes(4).toString('hex')}`,
      [{ type: 'Probe', data: {} }],
      'any',
    );
    await eventually(async () => passed(await readCheckpoint(db.knex, NAME), appended), 'the projector');
    expect((await heldBackStatus(db.knex, [NAME])).heldBack).toBe(false);
    await reader.query('COMMIT');
  });

  it('the monitor warns once past the threshold, naming the blocking backend, and says when it is over', async () => {
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const log = {
      warn: (obj: Record<string, unknown>, msg: string) => void lines.push({ level: 'warn', obj, msg }),
      info: (obj: Record<string, unknown>, msg: string) => void lines.push({ level: 'info', obj, msg }),
      error: (obj: Record<string, unknown>, msg: string) => void lines.push({ level: 'error', obj, msg }),
    };
    const monitor = startHeldBackMonitor(db.knex, [NAME], {
      thresholdMs: 400,
      intervalMs: 50,
      log,
    });
    try {
      const blocker = await openTransaction(db.connectionString, 'forgotten-script');
      await blocker.client.query(
        `UPDATE projection_checkpoints SET updated_at = updated_at WHERE name = 'none'`,
      );
      const appendedAt = performance.now();
      const appended = await store.append(
        `probe-${randomBytes(4).toString('hex')}`,
        [{ type: 'Probe', data: {} }],
        'any',
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(lines.filter((l) => l.level === 'warn')).toEqual([]); // not before the threshold
      const warning = await eventually(async () => lines.find((l) => l.level === 'warn'), 'the warning');
      const warnedAfterMs = performance.now() - appendedAt;
      expect(warning.msg).toContain(`pid ${blocker.pid}`);
      expect(warning.msg).toContain('idle in transaction');
      expect(warning.obj).toMatchObject({
        heldBackEvents: 1,
        blockers: [
          {
            pid: blocker.pid,
            database: new URL(db.connectionString).pathname.slice(1),
            state: 'idle in transaction',
            query: `UPDATE projection_checkpoints SET updated_at = updated_at WHERE name = 'none'`,
          },
        ],
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1); // once, not on every check

      await blocker.client.query('ROLLBACK');
      await eventually(async () => passed(await readCheckpoint(db.knex, NAME), appended), 'the projector');
      const over = await eventually(async () => lines.find((l) => l.level === 'info'), 'the all-clear');
      expect(over.msg).toContain('no longer held back');
      console.info(
        `[held-back] monitor (threshold 400 ms, checks every 50 ms) warned ${Math.round(warnedAfterMs)} ms after the append: ${warning.msg.split('\n')[1]}`,
      );
    } finally {
      await monitor.stop();
    }
  });
});

/** Sessions that run short transactions, each taking a transaction id, one after the other until stopped. */
async function busySessions(connectionString: string, sessions: number) {
  let stopped = false;
  let transactions = 0;
  const running = Array.from({ length: sessions }, async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    clients.push(client);
    while (!stopped) {
      await client.query('BEGIN');
      await client.query('SELECT pg_current_xact_id()');
      await client.query('COMMIT');
      transactions++;
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
      return transactions;
    },
  };
}

/** Appends one event after another until stopped. */
function keepAppending() {
  let stopped = false;
  const running = (async () => {
    while (!stopped)
      await store.append(`probe-${randomBytes(4).toString('hex')}`, [{ type: 'Probe', data: {} }], 'any');
  })();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}

describe('a transaction open in THIS database while others come and go', () => {
  it('transactions of ANOTHER database that end while the status is taken are no blockers and leave the horizon', async () => {
    const blocker = await openTransaction(db.connectionString, 'forgotten-script');
    // Events keep arriving, so the other database's transactions fall below the newest held-back event.
    const appends = keepAppending();
    const neighbours = await busySessions(await scratchDatabase(), 4);
    const wrong: unknown[] = [];
    const ourDatabase = new URL(db.connectionString).pathname.slice(1);
    const CHECKS = 1000;
    try {
      for (let i = 0; i < CHECKS; i++) {
        const s = await heldBackStatus(db.knex, [NAME]);
        // Our own appends in flight (newer than the blocker) may be caught running too: blockers of this database,
        // with a session. What must never appear is a session-less blocker or one of the other database.
        const ours =
          s.blockers[0]?.pid === blocker.pid &&
          s.blockers.every((b) => b.kind === 'backend' && b.database === ourDatabase);
        if (!ours || s.horizon !== blocker.xid)
          wrong.push({
            horizon: s.horizon,
            blockers: s.blockers.map((b) => [b.kind, b.pid, b.transactionId, b.database]),
          });
      }
    } finally {
      const transactions = await neighbours.stop();
      await appends.stop();
      console.info(
        `[held-back] ${CHECKS} statuses while another database ran ${transactions} transactions: ${wrong.length} named another blocker or horizon than ${blocker.xid} ${JSON.stringify(wrong.slice(0, 3))}`,
      );
    }
    expect(wrong).toEqual([]);
    await blocker.client.query('ROLLBACK');
  });

  it('the monitor warns again when another transaction becomes the oldest blocker, not for those behind it', async () => {
    const warnings: { blockers: { pid: number }[]; msg: string }[] = [];
    let allClear = 0;
    const log = {
      warn: (obj: object, msg: string) =>
        void warnings.push({ ...(obj as { blockers: { pid: number }[] }), msg }),
      info: () => void allClear++,
      error: (_obj: object, msg: string) => void warnings.push({ blockers: [], msg: `error: ${msg}` }),
    };
    // The test runs the checks (the timer's first would come after it ends).
    const monitor = startHeldBackMonitor(db.knex, [NAME], { thresholdMs: 100, intervalMs: 600_000, log });
    const append = () =>
      store.append(`probe-${randomBytes(4).toString('hex')}`, [{ type: 'Probe', data: {} }], 'any');
    const checkUntil = (done: () => boolean, what: string) =>
      eventually(async () => {
        await monitor.check();
        return done();
      }, what);
    try {
      const first = await openTransaction(db.connectionString, 'forgotten-script');
      await append();
      await checkUntil(() => warnings.length > 0, 'the warning');
      expect(warnings[0]!.blockers.map((b) => b.pid)).toEqual([first.pid]);

      // A transaction behind it, as an append in flight is for a moment: a blocker too, then gone.
      const behind = await openTransaction(db.connectionString, 'append-in-flight');
      await append();
      const both = await heldBackStatus(db.knex, [NAME]);
      expect(both.blockers.map((b) => b.pid)).toEqual([first.pid, behind.pid]);
      await monitor.check();
      await behind.client.query('COMMIT');
      await monitor.check();
      expect(warnings).toHaveLength(1);

      // A second forgotten session behind the first changes nothing either, until the first ends.
      const second = await openTransaction(db.connectionString, 'second-script');
      await append();
      await monitor.check();
      expect(warnings).toHaveLength(1);
      await first.client.query('ROLLBACK');
      // Now the second holds back what was appended after it began (once that has lasted the threshold).
      await checkUntil(() => warnings.length > 1, 'the second warning');
      expect(warnings).toHaveLength(2);
      expect(warnings[1]!.blockers.map((b) => b.pid)).toEqual([second.pid]);
      expect(warnings[1]!.msg).toContain(`pid ${second.pid}`);

      await second.client.query('ROLLBACK');
      await checkUntil(() => allClear > 0, 'the all-clear');
      expect(warnings).toHaveLength(2);
    } finally {
      await monitor.stop();
    }
  });
});

describe('the Projections screen while another database is busy', () => {
  it('never counts events as held back for a transaction of another database that ended as the status was taken', async () => {
    // Nothing of ours holds events back here: the live projector is stopped (its transactions take ids too) and one
    // bare INSERT follows another (the store's append also sends a NOTIFY in a transaction of its own, which may
    // still run when the next append commits: held back for real), so every committed event is older than any
    // transaction of ours still running.
    projector?.controller.abort();
    await projector?.done;
    projector = undefined;
    await db.knex.raw('ALTER TABLE events SET (autovacuum_enabled = false)');
    let stopped = false;
    const appending = (async () => {
      for (let i = 0; !stopped; i++)
        await db.pool.query(
          `INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
           VALUES ($1, 0, gen_random_uuid(), 'Probe', '{}', '{}')`,
          [`probe-screen-${i}`],
        );
    })();
    const neighbours = await busySessions(await scratchDatabase(), 4);
    const CHECKS = 1000;
    const wrong: number[] = [];
    try {
      for (let i = 0; i < CHECKS; i++) {
        const [status] = await projectionStatus(db.knex, [probe]);
        if (status!.heldBack > 0) wrong.push(status!.heldBack);
      }
    } finally {
      const transactions = await neighbours.stop();
      stopped = true;
      await appending;
      await db.knex.raw('ALTER TABLE events RESET (autovacuum_enabled)');
      console.info(
        `[held-back] ${CHECKS} projection statuses while another database ran ${transactions} transactions: ${wrong.length} counted events held back (${wrong.slice(0, 5).join(', ')})`,
      );
    }
    expect(wrong).toEqual([]);
  });
});
