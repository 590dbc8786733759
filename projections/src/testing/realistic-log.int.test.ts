import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  personalDataShredderProjection,
  readCheckpoint,
  rebuildProjections,
  runProjector,
  START,
  type RecordedEvent,
  type RebuildResult,
} from '@pawhaven/platform';
import { createTestDatabase, testEventStore } from '@pawhaven/platform/testing';
import { allProjections } from '../index';
import { appendRealisticLog } from '@pawhaven/simulator';

/**
 * Every read model is a pure function of the log, whichever way it is built: a realistic log (users signing up,
 * ads adopted, posts liked, chats read, accounts deleted by an administrator …) projected live, event by event with
 * each projection's SQL `apply`, and then rebuilt from scratch (in memory, by the projections' folds) must give the
 * very same rows: the rebuild changes none.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;
let store: ReturnType<typeof testEventStore>;
let appended: Awaited<ReturnType<typeof appendRealisticLog>>;
let rebuilt: RebuildResult[];

const count = async (sql: string, bindings: unknown[] = []) =>
  Number((await db.pool.query<{ n: string }>(sql, bindings)).rows[0]!.n);

beforeAll(async () => {
  db = await createTestDatabase({ max: 10 });
  store = testEventStore(db);
  // Deletions are rarer in the product (about 300 per million events): a few here, among the first 6,000.
  appended = await appendRealisticLog(store, {
    events: 6000,
    seed: 20260601,
    concurrency: 4,
    deletionsPerMillion: 3000,
  });

  // The app's live projector (the shredder included: it destroys a deleted user's key as it projects UserDeleted).
  const live = [...allProjections, personalDataShredderProjection];
  const controller = new AbortController();
  const running = runProjector(db.knex, store, live, controller.signal, { retryDelayMs: 20 });
  try {
    const deadline = Date.now() + 240_000;
    // The head readers see lags while any transaction of the server (other test files' too) is older than our last
    // append: wait until it covers every appended event, or the rebuild would read further than the projector did.
    let head = await store.headPosition();
    while (
      (await count(
        `SELECT count(*) AS n FROM events WHERE (transaction_id, position) <= ($1::text::xid8, $2)`,
        [head.transactionId.toString(), head.position.toString()],
      )) < appended.events
    ) {
      if (Date.now() > deadline) throw new Error('the appended events never all became visible');
      await new Promise((r) => setTimeout(r, 50));
      head = await store.headPosition();
    }
    for (;;) {
      const behind = [];
      for (const p of live)
        if (comparePositions(await readCheckpoint(db.knex, p.name), head) < 0) behind.push(p.name);
      if (behind.length === 0) break;
      if (Date.now() > deadline) throw new Error(`the projector did not catch up: ${behind.join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    controller.abort();
    await running;
  }

  // As on a long log: part of the projections folded and written on the rebuild's second thread.
  rebuilt = await rebuildProjections(db.knex, store, allProjections, () => {}, { foldThreadFrom: 0 });
}, 600_000);

afterAll(async () => {
  await store?.close();
  await db?.drop();
});

describe('a realistic log, projected live then rebuilt', () => {
  it('appended what was planned', async () => {
    expect(appended.events).toBeGreaterThanOrEqual(6000);
    expect(appended.counts.UserDeleted).toBeGreaterThanOrEqual(3);
    expect(await count(`SELECT count(*) AS n FROM events`)).toBe(appended.events);
  });

  it('rebuilds every read model to exactly the rows the live projector wrote', () => {
    expect(rebuilt.map((r) => r.name).sort()).toEqual(allProjections.map((p) => p.name).sort());
    for (const r of rebuilt) expect(r.processed, r.name).toBeGreaterThan(0);
    const onThread = rebuilt.filter((r) => r.foldThread).map((r) => r.name);
    expect(onThread.length).toBeGreaterThan(0);
    expect(onThread.length).toBeLessThan(allProjections.length);
    expect(Object.fromEntries(rebuilt.map((r) => [r.name, r.changedRows]))).toEqual(
      Object.fromEntries(allProjections.map((p) => [p.name, 0])),
    );
  });

  it('is a realistic community: accounts, adoptions, posts, chats and notifications', async () => {
    const registered = await count(
      `SELECT count(DISTINCT stream_id) AS n FROM events WHERE type = 'UserRegistered'`,
    );
    const deleted = await count(`SELECT count(*) AS n FROM events WHERE type = 'UserDeleted'`);
    expect(deleted).toBeGreaterThanOrEqual(3);
    expect(await count(`SELECT count(*) AS n FROM users`)).toBe(registered - deleted);
    // A deleted user leaves no row behind in the models that list people and what they made.
    const gone = `(SELECT data->>'userId' FROM events WHERE type = 'UserDeleted')`;
    expect(await count(`SELECT count(*) AS n FROM users WHERE id IN ${gone}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM posts WHERE author_id IN ${gone}`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM adoption_ads WHERE owner_id IN ${gone}`)).toBe(0);

    expect(await count(`SELECT count(*) AS n FROM users WHERE is_veterinarian`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM users WHERE is_admin`)).toBeGreaterThanOrEqual(1);
    expect(await count(`SELECT count(*) AS n FROM posts`)).toBeGreaterThan(50);
    expect(await count(`SELECT count(*) AS n FROM post_likes`)).toBeGreaterThan(200);
    expect(
      await count(`SELECT count(*) AS n FROM post_comments WHERE parent_comment_id IS NOT NULL`),
    ).toBeGreaterThan(0);
    const statuses = (
      await db.pool.query<{ status: string }>(`SELECT DISTINCT status FROM adoption_requests ORDER BY status`)
    ).rows.map((r) => r.status);
    expect(statuses).toEqual(expect.arrayContaining(['accepted', 'pending', 'rejected']));
    expect(await count(`SELECT count(*) AS n FROM adoption_ads WHERE status = 'adopted'`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM conversations WHERE message_count > 1`)).toBeGreaterThan(
      10,
    );
    expect(await count(`SELECT count(*) AS n FROM chat_messages`)).toBeGreaterThan(200);
    expect(await count(`SELECT count(*) AS n FROM notifications`)).toBeGreaterThan(100);
    expect(await count(`SELECT count(*) AS n FROM notifications WHERE read`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM contact_messages`)).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM ngos`)).toBeGreaterThan(0);
  });
});

describe("read models that need only each stream's order (order: 'stream')", () => {
  /** Every table's rows of `projection` folded from `events`, sorted, as text. */
  const folded = (projection: (typeof allProjections)[number], events: readonly RecordedEvent[]) => {
    const fold = projection.fold!();
    for (const e of events) if (projection.handles.includes(e.type)) fold.apply(e);
    return Object.fromEntries(
      Object.entries(fold.rows()).map(([table, rows]) => [
        table,
        [...rows].map((r) => JSON.stringify(r)).sort(),
      ]),
    );
  };
  /** The log's events with the streams interleaved otherwise (seeded), each stream's own in order: a bus's view. */
  const interleavedOtherwise = (events: readonly RecordedEvent[]) => {
    const streams = new Map<string, RecordedEvent[]>();
    for (const e of events) streams.set(e.streamId, [...(streams.get(e.streamId) ?? []), e]);
    const queues = [...streams.values()];
    const out: RecordedEvent[] = [];
    for (let seed = 7; queues.length > 0;) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const i = seed % queues.length;
      out.push(queues[i]!.shift()!);
      if (queues[i]!.length === 0) queues.splice(i, 1);
    }
    return out;
  };

  it('build the same rows when the streams interleave otherwise; a read model that needs the log order does not', async () => {
    const events: RecordedEvent[] = [];
    for await (const e of store.readAll(START)) events.push(e);
    const other = interleavedOtherwise(events);
    expect(other.map((e) => e.eventId)).not.toEqual(events.map((e) => e.eventId));
    const declared = allProjections.filter((p) => p.order === 'stream');
    expect(declared.map((p) => p.name).sort()).toEqual(['adoption-audit', 'directory']);
    for (const p of declared) expect(folded(p, other), p.name).toEqual(folded(p, events));
    // The check bites: notifications name what other streams made (an ad's owner, a post's author).
    const notifications = allProjections.find((p) => p.name === 'notifications')!;
    expect(folded(notifications, other)).not.toEqual(folded(notifications, events));
  });
});
