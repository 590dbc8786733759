/**
 * The copy of the log that PawHaven keeps in PostgreSQL when KurrentDB holds the log. Here the source is the
 * PostgreSQL adapter on a database of its own, standing in for KurrentDB (no KurrentDB server runs on these
 * machines; the KurrentDB adapter runs the same contract in kurrentdb-event-store.int.test.ts where Docker does):
 * the copier and the services' store are the same code either way, since both speak only the event store port.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../testing/test-database';
import { describeEventStoreContract } from '../event-store.contract';
import {
  START,
  type BatchHandler,
  type EventStore,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
} from '../event-store';
import { PostgresEventStore } from '../postgres-event-store';
import { UnitsOfWork } from '../unit-of-work';
import {
  copiedEventId,
  LogCopyBehind,
  MirroredEventStore,
  readMirrorCheckpoint,
  runLogMirror,
} from './log-mirror';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

/** A source log (its own database) and the copy's database, with copiers started and stopped by the test. */
async function mirrorSetup() {
  const [sourceDb, copyDb] = await Promise.all([
    createTestDatabase({ max: 16 }),
    createTestDatabase({ max: 16 }),
  ]);
  const source = new PostgresEventStore(sourceDb.pool);
  const target = new PostgresEventStore(copyDb.pool);
  const units = new UnitsOfWork(copyDb.connectionString, { max: 4 });
  const copiers: { abort: AbortController; done: Promise<void> }[] = [];
  const startCopier = (opts: { from?: EventStore; batchSize?: number; name?: string } = {}) => {
    const abort = new AbortController();
    const done = runLogMirror({
      source: opts.from ?? source,
      target,
      units,
      pool: copyDb.pool,
      signal: abort.signal,
      batchSize: opts.batchSize ?? 50,
      ...(opts.name ? { name: opts.name } : {}),
    });
    done.catch(() => {});
    const copier = { abort, done };
    copiers.push(copier);
    return copier;
  };
  const stopCopiers = async () => {
    for (const c of copiers.splice(0)) {
      c.abort.abort();
      await c.done.catch(() => {});
    }
  };
  return {
    sourceDb,
    copyDb,
    source,
    target,
    startCopier,
    stopCopiers,
    store: (waitMs?: number) =>
      new MirroredEventStore(
        new PostgresEventStore(sourceDb.pool),
        new PostgresEventStore(copyDb.pool),
        copyDb.pool,
        {
          ...(waitMs ? { waitMs } : {}),
        },
      ),
    async close() {
      await stopCopiers();
      await Promise.all([source.close(), target.close(), units.close()]);
      await Promise.all([sourceDb.drop(), copyDb.drop()]);
    },
  };
}

let contract: Awaited<ReturnType<typeof mirrorSetup>>;
describeEventStoreContract('a copy in PostgreSQL of another log (the KurrentDB mode)', {
  async setup() {
    contract = await mirrorSetup();
    contract.startCopier();
  },
  async teardown() {
    await contract.close();
  },
  create: async () => contract.store(),
});

const copyOf = async (db: TestDb) =>
  (
    await db.pool.query<{ event_id: string; stream_id: string; stream_revision: string; type: string }>(
      'SELECT event_id::text, stream_id, stream_revision::text, type FROM events ORDER BY transaction_id, position',
    )
  ).rows;

const ev = (type: string, data: Record<string, unknown> = {}, eventId?: string): NewEvent => ({
  type,
  data,
  ...(eventId ? { eventId } : {}),
});

describe('the log copy', () => {
  let m: Awaited<ReturnType<typeof mirrorSetup>>;
  beforeAll(async () => {
    m = await mirrorSetup();
  });
  afterEach(async () => {
    await m.stopCopiers();
  });
  afterAll(async () => {
    await m.close();
  });

  const sourceLog = () => copyOf(m.sourceDb);
  /** The copy once it holds the whole source log (the template's events too), or the difference after 15 s. */
  const copied = async () => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [copy, source] = await Promise.all([copyOf(m.copyDb), sourceLog()]);
      if (JSON.stringify(copy) === JSON.stringify(source) || Date.now() > deadline) return { copy, source };
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** The position of a log's last event, read directly: headPosition() stops below any transaction still open
   *  on the server, and other test files share this server. */
  const lastEventAt = async (db: TestDb): Promise<LogPosition> => {
    const { rows } = await db.pool.query<{ t: string; p: string }>(
      'SELECT transaction_id::text AS t, position::text AS p FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1',
    );
    return { transactionId: BigInt(rows[0]?.t ?? 0), position: BigInt(rows[0]?.p ?? 0) };
  };
  const eventsIn = async (db: TestDb) =>
    Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

  it('copies the log in its order, stopped and started again mid-way: nothing twice, nothing skipped', async () => {
    for (let i = 0; i < 30; i++)
      await m.source.append(`pet-${i % 4}`, [ev('A', { i }), ev('B', { i })], 'any');
    const first = m.startCopier({ batchSize: 7 });
    const deadline = Date.now() + 15_000;
    while ((await eventsIn(m.copyDb)) < (await eventsIn(m.sourceDb)) - 40 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    first.abort.abort();
    await first.done;
    expect(await eventsIn(m.copyDb)).toBeLessThan(await eventsIn(m.sourceDb)); // stopped mid-way
    for (let i = 30; i < 40; i++) await m.source.append(`pet-${i % 4}`, [ev('A', { i })], 'any');
    m.startCopier({ batchSize: 7 });
    const { copy, source } = await copied();
    expect(copy).toEqual(source);
    expect(new Set(copy.map((r) => r.event_id)).size).toBe(copy.length);
    expect(await readMirrorCheckpoint(m.copyDb.pool, 'kurrentdb')).toEqual(await lastEventAt(m.sourceDb));
  });

  it('two copiers at once (a takeover overlapping the old one) still copy each event once, in order', async () => {
    const writing = (async () => {
      for (let i = 0; i < 60; i++) await m.source.append(`ad-${i % 5}`, [ev('N', { i })], 'any');
    })();
    m.startCopier({ batchSize: 5 });
    m.startCopier({ batchSize: 3 });
    await writing;
    const { copy, source } = await copied();
    expect(copy).toEqual(source);
  });

  it("an append through the services' store returns once the copy has it, with the copy's position", async () => {
    m.startCopier();
    const store = m.store();
    try {
      const stream = `user-${randomUUID()}`;
      const result = await store.append(stream, [ev('UserRegistered'), ev('EmailVerified')], 'no_stream');
      expect(result.nextRevision).toBe(1n);
      const [, second] = await collect(store.readStream(stream));
      expect(second).toMatchObject({ position: result.position, transactionId: result.transactionId });
      // The copy's position, not the source's: what checkpoints and consistency waits compare with.
      const row = await m.copyDb.pool.query<{ position: string }>(
        'SELECT position FROM events WHERE stream_id = $1 AND stream_revision = 1',
        [stream],
      );
      expect(result.position).toBe(BigInt(row.rows[0]!.position));
    } finally {
      await store.close();
    }
  });

  it('with no copier running, an append is kept by the source and answers 503, saying to reload', async () => {
    const store = m.store(300);
    try {
      const stream = `post-${randomUUID()}`;
      const refused = await store.append(stream, [ev('PostCreated')], 'no_stream').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LogCopyBehind);
      expect(refused).toMatchObject({ status: 503, message: expect.stringMatching(/Reload in a moment/) });
      expect(await collect(m.source.readStream(stream))).toHaveLength(1);
      m.startCopier();
      const copied = await collect(store.readStream(stream));
      for (let i = 0; copied.length === 0 && i < 200; i++) {
        await new Promise((r) => setTimeout(r, 20));
        copied.push(...(await collect(store.readStream(stream))));
      }
      expect(copied.map((e) => e.type)).toEqual(['PostCreated']);
    } finally {
      await store.close();
    }
  });

  it('an event id the source holds in two streams (KurrentDB allows it) is copied the second time under a derived id', async () => {
    const shared = randomUUID();
    const head = await lastEventAt(m.copyDb);
    const at = (n: number) => ({ transactionId: head.transactionId + 1000n, position: BigInt(n) });
    const [a, b] = [`chat-${randomUUID()}`, `chat-${randomUUID()}`];
    const recorded = (streamId: string, n: number): RecordedEvent => ({
      eventId: shared,
      streamId,
      streamRevision: 0n,
      type: 'MessageSent',
      data: { n },
      metadata: {},
      createdAt: new Date(),
      ...at(n),
    });
    // KurrentDB's behaviour, which no PostgreSQL source can show: the same id in two streams.
    const kurrentLike: EventStore = Object.assign(Object.create(m.source) as EventStore, {
      subscribeAll: async (from: LogPosition, handler: BatchHandler, signal: AbortSignal) => {
        if (from.transactionId < at(1).transactionId) await handler([recorded(a, 1), recorded(b, 2)]);
        await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      },
    });
    m.startCopier({ from: kurrentLike, name: 'two-streams' });
    const deadline = Date.now() + 10_000;
    let rows: { event_id: string; stream_id: string }[] = [];
    while (rows.length < 2 && Date.now() < deadline) {
      rows = (
        await m.copyDb.pool.query<{ event_id: string; stream_id: string }>(
          'SELECT event_id::text, stream_id FROM events WHERE stream_id = ANY($1) ORDER BY position',
          [[a, b]],
        )
      ).rows;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(rows).toEqual([
      { event_id: shared, stream_id: a },
      { event_id: copiedEventId(b, shared), stream_id: b },
    ]);
    expect(await readMirrorCheckpoint(m.copyDb.pool, 'two-streams')).toEqual(at(2));
    expect(await readMirrorCheckpoint(m.copyDb.pool, 'kurrentdb')).not.toEqual(START);
  });
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
