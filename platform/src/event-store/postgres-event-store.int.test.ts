import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { describeEventStoreContract } from './event-store.contract';
import { beginSlowAppend } from './slow-append.testing';
import type { RecordedEvent } from './event-store';
import { PostgresEventStore } from './postgres-event-store';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

let contractDb: TestDb;
describeEventStoreContract('PostgreSQL', {
  async setup() {
    contractDb = await createTestDatabase({ max: 24 });
  },
  async teardown() {
    await contractDb.drop();
  },
  async create() {
    return new PostgresEventStore(contractDb.pool);
  },
  beginSlowAppend: (streamId, events) => beginSlowAppend(contractDb.connectionString, streamId, events),
});

describe('PostgresEventStore specifics', () => {
  let db: TestDb;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase({ max: 12 });
    store = new PostgresEventStore(db.pool);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const waitUntil = async (check: () => boolean, what: string, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  const subscribe = (s: PostgresEventStore, prefix: string) => {
    const controller = new AbortController();
    const got: RecordedEvent[] = [];
    const done = s.subscribeAll(
      { transactionId: 0n, position: 0n },
      async (batch) => void got.push(...batch.filter((e) => e.streamId.startsWith(prefix))),
      controller.signal,
    );
    return { got, stop: () => (controller.abort(), done) };
  };

  it('orders by (transactionId, position): an older transaction that took a HIGHER position comes first', async () => {
    const p = `o${randomUUID().slice(0, 6)}-`;
    const sub = subscribe(store, p);
    const older = new pg.Client({ connectionString: db.connectionString });
    await older.connect();
    try {
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()'); // takes its transaction id now
      const younger = await store.append(`${p}young`, [{ type: 'Young', data: {} }], 'no_stream');
      const { rows } = await older.query<{ position: string }>(
        `INSERT INTO events (stream_id, stream_revision, event_id, type, data) VALUES ($1, 0, $2, 'Old', '{}') RETURNING position`,
        [`${p}old`, randomUUID()],
      );
      expect(BigInt(rows[0]!.position) > younger.position).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(sub.got).toEqual([]); // held back behind the older, still running transaction
      await older.query(`SELECT pg_notify('pawhaven_events', ''); COMMIT`);
    } finally {
      await older.end();
    }
    await waitUntil(() => sub.got.length === 2, 'both events');
    await sub.stop();
    expect(sub.got.map((e) => e.type)).toEqual(['Old', 'Young']);
    // readAll shows only transactions older than the cluster's oldest running one: other test files' transactions
    // may hold both events back a moment longer. Read again until they show; the order is what is asserted.
    let all: RecordedEvent[] = [];
    for (let round = 0; round < 200 && all.length < 2; round++) {
      if (round > 0) await new Promise((r) => setTimeout(r, 25));
      all = [];
      for await (const e of store.readAll({ transactionId: 0n, position: 0n }))
        if (e.streamId.startsWith(p)) all.push(e);
    }
    expect(all.map((e) => e.type)).toEqual(['Old', 'Young']);
  });

  it('a transaction that is not an append holding the horizon delays delivery but never stops it', async () => {
    const p = `h${randomUUID().slice(0, 6)}-`;
    const sub = subscribe(store, p);
    const blocker = new pg.Client({ connectionString: db.connectionString });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_current_xact_id()');
      await store.append(`${p}a`, [{ type: 'A', data: {} }], 'no_stream');
      await new Promise((r) => setTimeout(r, 100));
      expect(sub.got).toEqual([]);
      // Ends without any NOTIFY: only the adapter's held-back retry can notice.
      await blocker.query('COMMIT');
    } finally {
      await blocker.end();
    }
    await waitUntil(() => sub.got.length === 1, 'the held-back event');
    await sub.stop();
  });

  it('a subscriber wakes on NOTIFY from an append made through another store instance (another process)', async () => {
    const p = `n${randomUUID().slice(0, 6)}-`;
    const otherPool = new pg.Pool({ connectionString: db.connectionString, max: 2 });
    const other = new PostgresEventStore(otherPool);
    const sub = subscribe(store, p);
    try {
      await new Promise((r) => setTimeout(r, 50));
      for (let i = 0; i < 3; i++) {
        await other.append(`${p}x`, [{ type: 'X', data: { i } }], 'any');
        await waitUntil(() => sub.got.length === i + 1, `event ${i} via NOTIFY`);
      }
    } finally {
      await sub.stop();
      await other.close();
      await otherPool.end();
    }
  });

  it("a subscriber still wakes on other instances' appends after its LISTEN connection is killed", async () => {
    const p = `l${randomUUID().slice(0, 6)}-`;
    const own = new PostgresEventStore(db.pool);
    const other = new PostgresEventStore(db.pool);
    const sub = subscribe(own, p);
    try {
      await other.append(`${p}x`, [{ type: 'Before', data: {} }], 'no_stream');
      await waitUntil(() => sub.got.length === 1, 'the first event');
      const killed = await db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query = 'LISTEN pawhaven_events' AND pid <> pg_backend_pid()`,
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 20));
      // Appended while nobody may be listening, then once reconnected.
      await other.append(`${p}x`, [{ type: 'During', data: {} }], 0n);
      await waitUntil(() => sub.got.length === 2, 'the event appended while the listener was down');
      await new Promise((r) => setTimeout(r, 300));
      await other.append(`${p}x`, [{ type: 'After', data: {} }], 1n);
      await waitUntil(() => sub.got.length === 3, 'the event appended after reconnecting');
      expect(sub.got.map((e) => e.type)).toEqual(['Before', 'During', 'After']);
    } finally {
      await sub.stop();
      await own.close();
      await other.close();
    }
  });

  it('readAll pages by the global-order index, without a sort, in custom and generic (prepared) plans', async () => {
    const client = new pg.Client({ connectionString: db.connectionString });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off'); // the table is tiny here; ask what the index can do
      await client.query(`PREPARE read_page(text, bigint, int) AS
        SELECT position FROM events
        WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id, position LIMIT $3`);
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query(`SET plan_cache_mode = ${mode}`);
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE read_page('0', 0, 3)`);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, mode).toContain('events_global_order');
        expect(plan, mode).not.toMatch(/\bSort\b/);
      }
    } finally {
      await client.end();
    }
  });
});
