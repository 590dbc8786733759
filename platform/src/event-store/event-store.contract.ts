/**
 * The contract every EventStore adapter passes: ordering, expected revisions, concurrency
 * conflicts, idempotency, late-committing transactions, catch-up then live, resume from a checkpoint.
 *
 * An adapter's test file calls `describeEventStoreContract(name, fixture)`. The suite never assumes the log is
 * empty: every test writes to streams under its own random prefix and looks only at those, so it also runs
 * against a shared server (EventStoreDB in a container, whose `$all` holds other events).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  comparePositions,
  ConcurrencyError,
  positionOf,
  type AppendResult,
  type EventStore,
  type LogPosition,
  type ReadAllOptions,
  type NewEvent,
  type RecordedEvent,
} from './event-store';

/** An append whose transaction has taken its position but commits (or rolls back) only when told. */
export type SlowAppend = {
  /** Position and transaction of its last event, as `append` would have returned them. */
  readonly position: bigint;
  readonly transactionId: bigint;
  commit(): Promise<void>;
  rollback(): Promise<void>;
};

export type EventStoreContractFixture = {
  /** Once before the suite (start a server, create a database…). */
  setup?(): Promise<void>;
  /** Once after the suite. */
  teardown?(): Promise<void>;
  /** A fresh store instance over the suite's log; the suite closes it after each test. */
  create(): Promise<EventStore>;
  /**
   * Adapters whose appends are transactions that can commit out of position order (PostgreSQL) offer this;
   * the late-commit scenarios are skipped for adapters without it. It appends `events` to `streamId`
   * (a new stream) in a transaction that stays open until `commit()`/`rollback()`.
   */
  beginSlowAppend?(streamId: string, events: NewEvent[]): Promise<SlowAppend>;
};

const ev = (type: string, data: Record<string, unknown> = {}, eventId?: string): NewEvent => ({
  ...(eventId ? { eventId } : {}),
  type,
  data,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Test-side waiting: checks a condition until it holds or the time is up. */
async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

function expectStrictlyIncreasing(events: readonly RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1]!;
    const b = events[i]!;
    if (comparePositions(positionOf(a), positionOf(b)) >= 0) {
      throw new Error(
        `global order broken at index ${i}: (${a.transactionId}, ${a.position}) then (${b.transactionId}, ${b.position})`,
      );
    }
  }
}

const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);

/** A live subscriber that records what it receives (all events, and those of the test's streams). */
function follow(store: EventStore, from: LogPosition, prefix: string, opts: { batchSize?: number } = {}) {
  const controller = new AbortController();
  const all: RecordedEvent[] = [];
  const mine: RecordedEvent[] = [];
  const batchSizes: number[] = [];
  const done = store.subscribeAll(
    from,
    async (batch) => {
      batchSizes.push(batch.length);
      for (const e of batch) {
        all.push(e);
        if (e.streamId.startsWith(prefix)) mine.push(e);
      }
    },
    controller.signal,
    opts,
  );
  let failure: unknown;
  done.catch((error: unknown) => (failure = error));
  return {
    all,
    mine,
    batchSizes,
    done,
    get failure() {
      return failure;
    },
    async waitFor(count: number, timeoutMs?: number) {
      await eventually(
        () => {
          if (failure) throw failure;
          return mine.length >= count;
        },
        `${count} events at the subscriber (got ${mine.length})`,
        timeoutMs,
      );
    },
    async stop() {
      controller.abort();
      await done;
    },
  };
}

/**
 * Delegates to the adapter and remembers the highest position it appended. A committed append need not be
 * visible to readAll at once (PostgreSQL holds it back while an older transaction, in any database of the
 * server, still runs), so reads that expect every append wait until the head has passed that position.
 */
function tracking(inner: EventStore, onAppended: (at: LogPosition) => void): EventStore {
  return {
    append: async (streamId, events, expected) => {
      const result = await inner.append(streamId, events, expected);
      onAppended(result);
      return result;
    },
    readStream: (streamId, opts) => inner.readStream(streamId, opts),
    readAll: (from, opts) => inner.readAll(from, opts),
    subscribeAll: (from, handler, signal, opts) => inner.subscribeAll(from, handler, signal, opts),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
  };
}

export function describeEventStoreContract(adapterName: string, fixture: EventStoreContractFixture): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    let store: EventStore;
    /** Streams of this test start with it; the log may hold other tests' events. */
    let p: string;
    /** The head before this test wrote anything. */
    let start: LogPosition;
    const stops: (() => Promise<void>)[] = [];

    /** The highest position this test appended (or committed through a slow append). */
    let lastAppended: LogPosition;
    const noteAppended = (at: LogPosition) => {
      const pos = { transactionId: at.transactionId, position: at.position };
      if (comparePositions(pos, lastAppended) > 0) lastAppended = pos;
    };
    /** Waits until readers can see everything this test appended. */
    const settled = () =>
      eventually(
        async () => comparePositions(await store.headPosition(), lastAppended) >= 0,
        'the head to pass the last append',
      );
    /** This test's events in the log as readers see them right now. */
    const mineNow = async (from: LogPosition = start, opts?: ReadAllOptions) =>
      (await collect(store.readAll(from, opts))).filter((e) => e.streamId.startsWith(p));
    /** This test's events once everything it appended is visible. */
    const mineFrom = async (from: LogPosition = start, opts?: ReadAllOptions) => {
      await settled();
      return mineNow(from, opts);
    };
    const slow = async (streamId: string, events: NewEvent[]): Promise<SlowAppend> => {
      const s = await fixture.beginSlowAppend!(streamId, events);
      return {
        position: s.position,
        transactionId: s.transactionId,
        commit: async () => {
          await s.commit();
          noteAppended(s);
        },
        rollback: () => s.rollback(),
      };
    };
    const followMine = (from: LogPosition, opts?: { batchSize?: number }) => {
      const f = follow(store, from, p, opts);
      stops.push(() => f.stop().catch(() => {}));
      return f;
    };

    beforeAll(async () => {
      await fixture.setup?.();
    });
    afterAll(async () => {
      await fixture.teardown?.();
    });
    beforeEach(async () => {
      store = tracking(await fixture.create(), noteAppended);
      p = `c${randomUUID().slice(0, 8)}-`;
      start = await store.headPosition();
      lastAppended = start;
    });
    afterEach(async () => {
      for (const stop of stops.splice(0)) await stop();
      await store.close();
    });

    describe('append, readStream, readAll', () => {
      it('append returns the revision, position and transaction of its last event', async () => {
        const first = await store.append(`${p}a`, [ev('One'), ev('Two'), ev('Three')], 'no_stream');
        expect(first.nextRevision).toBe(2n);
        const [, , third] = await collect(store.readStream(`${p}a`));
        expect(third).toMatchObject({ position: first.position, transactionId: first.transactionId });
        const second = await store.append(`${p}a`, [ev('Four')], 2n);
        expect(second.nextRevision).toBe(3n);
        expect(comparePositions(second, first)).toBe(1);
      });

      it('readStream returns the events with revisions 0..n-1, their data, metadata and ids', async () => {
        const eventId = randomUUID();
        await store.append(
          `${p}pet-1`,
          [
            {
              eventId,
              type: 'PetListed',
              data: { name: 'Bilo', tags: ['cat', 'kitten'], age: 2 },
              metadata: { actorId: 'u-1' },
            },
            { type: 'PetRenamed', data: { name: 'Billo "the brave" \\ ünïcödé' } },
          ],
          'no_stream',
        );
        const events = await collect(store.readStream(`${p}pet-1`));
        expect(events.map((e) => [e.streamId, e.streamRevision, e.type])).toEqual([
          [`${p}pet-1`, 0n, 'PetListed'],
          [`${p}pet-1`, 1n, 'PetRenamed'],
        ]);
        expect(events[0]).toMatchObject({
          eventId,
          data: { name: 'Bilo', tags: ['cat', 'kitten'], age: 2 },
          metadata: { actorId: 'u-1' },
        });
        expect(events[1]!.data).toEqual({ name: 'Billo "the brave" \\ ünïcödé' });
        expect(events[1]!.eventId).toMatch(/^[0-9a-f-]{36}$/);
        expect(events[0]!.createdAt).toBeInstanceOf(Date);
      });

      it('readStream honours fromRevision and maxCount; an unknown stream reads empty', async () => {
        await store.append(
          `${p}s`,
          [0, 1, 2, 3, 4].map((n) => ev('N', { n })),
          'no_stream',
        );
        const rev = async (opts: { fromRevision?: bigint; maxCount?: number }) =>
          (await collect(store.readStream(`${p}s`, opts))).map((e) => e.streamRevision);
        expect(await rev({ fromRevision: 2n })).toEqual([2n, 3n, 4n]);
        expect(await rev({ maxCount: 2 })).toEqual([0n, 1n]);
        expect(await rev({ fromRevision: 1n, maxCount: 3 })).toEqual([1n, 2n, 3n]);
        expect(await collect(store.readStream(`${p}nothing-here`))).toEqual([]);
      });

      it('readAll returns every appended event once, in global order, with the positions append returned', async () => {
        const appended: { id: string; result: AppendResult }[] = [];
        for (let i = 0; i < 12; i++) {
          const id = randomUUID();
          const stream = `${p}s${i % 3}`;
          const result = await store.append(stream, [ev('N', { i }, id)], 'any');
          appended.push({ id, result });
        }
        const all = await mineFrom();
        expect(ids(all)).toEqual(appended.map((a) => a.id));
        expectStrictlyIncreasing(all);
        all.forEach((e, i) => {
          expect(positionOf(e)).toEqual({
            transactionId: appended[i]!.result.transactionId,
            position: appended[i]!.result.position,
          });
        });
        // Every stream's events keep their revision order inside the global order.
        for (const s of [0, 1, 2]) {
          expect(all.filter((e) => e.streamId === `${p}s${s}`).map((e) => e.streamRevision)).toEqual([
            0n,
            1n,
            2n,
            3n,
          ]);
        }
      });

      it('readAll starts strictly after its position and pages with any batch size without loss or repeat', async () => {
        for (let i = 0; i < 10; i++) await store.append(`${p}s`, [ev('N', { i })], 'any');
        const all = await mineFrom();
        expect(all).toHaveLength(10);
        for (const batchSize of [1, 3, 7, 10, 1000]) {
          expect(ids(await mineFrom(start, { batchSize }))).toEqual(ids(all));
        }
        const after3 = await mineFrom(positionOf(all[3]!), { batchSize: 2 });
        expect(ids(after3)).toEqual(ids(all.slice(4)));
        expect(await mineFrom(positionOf(all[9]!))).toEqual([]);
      });

      it('readAll honours maxCount and upTo', async () => {
        for (let i = 0; i < 6; i++) await store.append(`${p}s`, [ev('N', { i })], 'any');
        const all = await mineFrom();
        const after0 = positionOf(all[0]!);
        expect(ids(await collect(store.readAll(after0, { maxCount: 3, batchSize: 2 })))).toEqual(
          ids(all.slice(1, 4)),
        );
        expect(
          ids(await collect(store.readAll(after0, { upTo: positionOf(all[3]!), batchSize: 2 }))),
        ).toEqual(ids(all.slice(1, 4)));
      });

      it('readAll with types reads only events of those types, in order, paging past the others', async () => {
        for (let i = 0; i < 12; i++)
          await store.append(
            `${p}s`,
            [ev(i % 3 === 0 ? 'Wanted' : i % 3 === 1 ? 'Other' : 'Also', { i })],
            'any',
          );
        const all = await mineFrom();
        const wanted = all.filter((e) => e.type === 'Wanted' || e.type === 'Also');
        expect(wanted).toHaveLength(8);
        for (const batchSize of [1, 2, 5, 1000])
          expect(ids(await mineFrom(start, { batchSize, types: ['Wanted', 'Also'] }))).toEqual(ids(wanted));
        const upTo = positionOf(all[7]!);
        expect(ids(await mineFrom(start, { types: ['Wanted'], upTo, batchSize: 2 }))).toEqual(
          ids(all.slice(0, 8).filter((e) => e.type === 'Wanted')),
        );
        expect(await mineFrom(start, { types: ['Nothing'] })).toEqual([]);
      });

      it('headPosition is the position of the last appended event', async () => {
        await store.append(`${p}a`, [ev('N')], 'no_stream');
        const last = await store.append(`${p}b`, [ev('N'), ev('N')], 'no_stream');
        await settled();
        const head = await store.headPosition();
        expect(head).toEqual({ transactionId: last.transactionId, position: last.position });
        expect(comparePositions(head, start)).toBe(1);
      });

      it('an empty append is refused', async () => {
        await expect(store.append(`${p}a`, [], 'any')).rejects.toThrow();
        expect(await mineFrom()).toEqual([]);
      });
    });

    describe('expected revision', () => {
      it('no_stream appends to a new stream and throws ConcurrencyError on an existing one, appending nothing', async () => {
        await store.append(`${p}a`, [ev('Created')], 'no_stream');
        const error = await store.append(`${p}a`, [ev('Again')], 'no_stream').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ streamId: `${p}a`, expected: 'no_stream', actual: 0n, status: 409 });
        expect((await collect(store.readStream(`${p}a`))).map((e) => e.type)).toEqual(['Created']);
        expect(await mineFrom()).toHaveLength(1);
      });

      it("an exact revision appends when it is the stream's last revision", async () => {
        await store.append(`${p}a`, [ev('A'), ev('B')], 'no_stream');
        const r = await store.append(`${p}a`, [ev('C')], 1n);
        expect(r.nextRevision).toBe(2n);
        const r2 = await store.append(`${p}a`, [ev('D'), ev('E')], 2n);
        expect(r2.nextRevision).toBe(4n);
        expect((await collect(store.readStream(`${p}a`))).map((e) => e.type)).toEqual([
          'A',
          'B',
          'C',
          'D',
          'E',
        ]);
      });

      it('a wrong exact revision (behind, ahead, on a missing stream) throws ConcurrencyError and appends nothing', async () => {
        await store.append(`${p}a`, [ev('A'), ev('B'), ev('C')], 'no_stream');
        for (const wrong of [0n, 1n, 3n, 10n]) {
          const error = await store.append(`${p}a`, [ev('X'), ev('Y')], wrong).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ConcurrencyError);
          expect(error).toMatchObject({ streamId: `${p}a`, expected: wrong, actual: 2n });
        }
        const missing = await store.append(`${p}missing`, [ev('X')], 0n).catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(ConcurrencyError);
        expect((missing as ConcurrencyError).actual).toBeUndefined();
        expect(await collect(store.readStream(`${p}missing`))).toEqual([]);
        expect((await collect(store.readStream(`${p}a`))).map((e) => e.type)).toEqual(['A', 'B', 'C']);
        expect(await mineFrom()).toHaveLength(3);
      });

      it('any appends whatever the stream holds, new or not', async () => {
        expect((await store.append(`${p}a`, [ev('A')], 'any')).nextRevision).toBe(0n);
        expect((await store.append(`${p}a`, [ev('B'), ev('C')], 'any')).nextRevision).toBe(2n);
        expect((await collect(store.readStream(`${p}a`))).map((e) => e.streamRevision)).toEqual([0n, 1n, 2n]);
      });
    });

    describe('concurrency', () => {
      it('10 appends fired at once at the same exact revision: exactly one wins, nine get ConcurrencyError', async () => {
        await store.append(`${p}a`, [ev('Created')], 'no_stream');
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            store.append(`${p}a`, [ev('Racer', { i }), ev('Racer2', { i })], 0n),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(9);
        for (const l of lost) expect(l.reason).toBeInstanceOf(ConcurrencyError);
        const events = await collect(store.readStream(`${p}a`));
        expect(events.map((e) => e.streamRevision)).toEqual([0n, 1n, 2n]);
        // The winner's two events are both there, from one and the same append.
        expect(new Set(events.slice(1).map((e) => (e.data as { i: number }).i)).size).toBe(1);
        expect(await mineFrom()).toHaveLength(3);
      });

      it('10 appends fired at once with no_stream on a new stream: exactly one wins', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => store.append(`${p}new`, [ev('Created', { i })], 'no_stream')),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results)
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrencyError);
        expect(await collect(store.readStream(`${p}new`))).toHaveLength(1);
      });

      it('20 appends fired at once with any to one stream all succeed, with gapless revisions', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.append(`${p}busy`, [ev('N', { i })], 'any')),
        );
        expect(results.map((r) => r.nextRevision).sort((a, b) => (a < b ? -1 : 1))).toEqual(
          Array.from({ length: 20 }, (_, i) => BigInt(i)),
        );
        const events = await collect(store.readStream(`${p}busy`));
        expect(events.map((e) => e.streamRevision)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i)));
      });

      it('writers on different streams never conflict', async () => {
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            let expected: 'no_stream' | bigint = 'no_stream';
            for (let i = 0; i < 5; i++)
              expected = (await store.append(`${p}w${w}`, [ev('N', { i })], expected)).nextRevision;
          }),
        );
        expect(await mineFrom()).toHaveLength(40);
      });
    });

    describe('idempotency', () => {
      it('retrying an append with the same event ids returns the first result and appends nothing', async () => {
        const batch = [ev('A', {}, randomUUID()), ev('B', {}, randomUUID())];
        const first = await store.append(`${p}a`, batch, 'no_stream');
        await store.append(`${p}a`, [ev('C')], first.nextRevision);
        // Whatever the retry expects (the original no_stream, any, the current revision, a wrong one).
        for (const expected of ['no_stream', 'any', 2n, 7n] as const) {
          expect(await store.append(`${p}a`, batch, expected)).toEqual(first);
        }
        const single = ev('D', {}, randomUUID());
        const d = await store.append(`${p}b`, [single], 'any');
        expect(await store.append(`${p}b`, [single], 'any')).toEqual(d);
        expect((await collect(store.readStream(`${p}a`))).map((e) => e.type)).toEqual(['A', 'B', 'C']);
        expect(await mineFrom()).toHaveLength(4);
      });

      it('the same append retried concurrently is stored once and every attempt gets the same result', async () => {
        const batch = [ev('A', {}, randomUUID()), ev('B', {}, randomUUID())];
        const results = await Promise.all(
          Array.from({ length: 6 }, () => store.append(`${p}a`, batch, 'no_stream')),
        );
        for (const r of results) expect(r).toEqual(results[0]);
        expect(await mineFrom()).toHaveLength(2);
      });

      it('an event id already used in another stream is not a retry: the append fails and appends nothing', async () => {
        const id = randomUUID();
        await store.append(`${p}a`, [ev('A', {}, id)], 'no_stream');
        await expect(store.append(`${p}b`, [ev('A', {}, id)], 'no_stream')).rejects.toThrow();
        expect(await collect(store.readStream(`${p}b`))).toEqual([]);
        expect(await mineFrom()).toHaveLength(1);
      });
    });

    describe.skipIf(!fixture.beginSlowAppend)('late-committing transactions', () => {
      it('the transaction with the LOWER position commits LAST: a live subscriber gets both, in order, none skipped', async () => {
        const sub = followMine(start, { batchSize: 3 });
        const lateId = randomUUID();
        const late = await slow(`${p}late`, [ev('Late', {}, lateId)]);
        const early = await store.append(`${p}early`, [ev('Early')], 'no_stream');
        expect(late.position < early.position).toBe(true);
        // Give the subscriber every chance to (wrongly) move past the open transaction.
        await sleep(150);
        const beforeCommit = await mineNow(); // 'early' may be held back: do not wait for it
        await late.commit();
        await sub.waitFor(2);
        await sleep(50);
        const final = await mineFrom();
        expect(final.map((e) => e.streamId)).toEqual([`${p}late`, `${p}early`]);
        expect(final[0]!.eventId).toBe(lateId);
        expect(ids(sub.mine)).toEqual(ids(final));
        expectStrictlyIncreasing(sub.all);
        // What readers saw before the commit is a prefix of what they see after: no one skipped the late event.
        expect(ids(final).slice(0, beforeCommit.length)).toEqual(ids(beforeCommit));
      });

      it('several late transactions committing in reverse order all arrive once, in global order', async () => {
        const sub = followMine(start, { batchSize: 2 });
        const opened: SlowAppend[] = [];
        for (let i = 0; i < 4; i++) {
          opened.push(await slow(`${p}late-${i}`, [ev('Late', { i }), ev('Late', { i })]));
          await store.append(`${p}fast-${i}`, [ev('Fast', { i })], 'no_stream');
        }
        const seen: string[][] = [];
        for (const o of opened.reverse()) {
          await o.commit();
          await sleep(30);
          seen.push(ids(await mineNow()));
        }
        await sub.waitFor(12);
        const final = await mineFrom();
        expect(final).toHaveLength(12);
        expectStrictlyIncreasing(final);
        expect(ids(sub.mine)).toEqual(ids(final));
        for (const s of seen) expect(ids(final).slice(0, s.length)).toEqual(s);
      });

      it('a rolled-back transaction is never delivered and does not stall the subscriber', async () => {
        const sub = followMine(start);
        const gone = await slow(`${p}gone`, [ev('Gone')]);
        await store.append(`${p}kept`, [ev('Kept')], 'no_stream');
        await gone.rollback();
        await sub.waitFor(1);
        await store.append(`${p}kept`, [ev('Kept2')], 0n);
        await sub.waitFor(2);
        expect(sub.mine.map((e) => e.type)).toEqual(['Kept', 'Kept2']);
        expect((await mineFrom()).map((e) => e.type)).toEqual(['Kept', 'Kept2']);
      });
    });

    describe('subscriptions', () => {
      it('subscribeAll catches up on existing events, then delivers new ones live', async () => {
        for (let i = 0; i < 7; i++) await store.append(`${p}s`, [ev('Old', { i })], 'any');
        const sub = followMine(start, { batchSize: 3 });
        await sub.waitFor(7);
        for (let i = 0; i < 5; i++) {
          await store.append(`${p}s`, [ev('New', { i })], 'any');
          await sub.waitFor(8 + i);
        }
        const final = await mineFrom();
        expect(ids(sub.mine)).toEqual(ids(final));
        expect(sub.mine.map((e) => e.type)).toEqual([...Array(7).fill('Old'), ...Array(5).fill('New')]);
        expectStrictlyIncreasing(sub.all);
        for (const size of sub.batchSizes) expect(size).toBeLessThanOrEqual(3);
      });

      it('resuming from a checkpoint delivers every event exactly once across the restart', async () => {
        for (let i = 0; i < 20; i++) await store.append(`${p}s${i % 4}`, [ev('N', { i })], 'any');
        const received: RecordedEvent[] = [];
        let checkpoint = start;
        const controller = new AbortController();
        let batches = 0;
        // Stop from inside the handler after two batches: those two count as handled, nothing else does.
        await store.subscribeAll(
          start,
          async (batch) => {
            received.push(...batch);
            checkpoint = positionOf(batch[batch.length - 1]!);
            if (++batches === 2) controller.abort();
          },
          controller.signal,
          { batchSize: 5 },
        );
        expect(batches).toBe(2);
        for (let i = 20; i < 25; i++) await store.append(`${p}s${i % 4}`, [ev('N', { i })], 'any');
        const sub = followMine(checkpoint, { batchSize: 4 });
        const mineBefore = received.filter((e) => e.streamId.startsWith(p));
        await sub.waitFor(25 - mineBefore.length);
        await sleep(50);
        const together = [...mineBefore, ...sub.mine];
        expect(ids(together)).toEqual(ids(await mineFrom()));
        expect(new Set(ids(together)).size).toBe(25);
      });

      it('subscribeAll resolves when its signal aborts: while idle, while catching up, and when aborted before it starts', async () => {
        const idle = followMine(await store.headPosition());
        await sleep(50);
        await expect(idle.stop()).resolves.toBeUndefined();

        for (let i = 0; i < 30; i++) await store.append(`${p}s`, [ev('N', { i })], 'any');
        const controller = new AbortController();
        let calls = 0;
        const catchingUp = store.subscribeAll(
          start,
          async () => {
            calls++;
            controller.abort();
            await sleep(20);
          },
          controller.signal,
          { batchSize: 2 },
        );
        await expect(catchingUp).resolves.toBeUndefined();
        expect(calls).toBe(1);

        let called = false;
        await expect(
          store.subscribeAll(start, async () => void (called = true), AbortSignal.abort(), { batchSize: 2 }),
        ).resolves.toBeUndefined();
        expect(called).toBe(false);
      });

      it('subscribeAll rejects when the handler throws; a new subscription resumes after the last handled batch', async () => {
        for (let i = 0; i < 6; i++) await store.append(`${p}s`, [ev('N', { i })], 'any');
        const handled: RecordedEvent[] = [];
        let checkpoint = start;
        const failure = new Error('handler broke');
        let batch = 0;
        await expect(
          store.subscribeAll(
            start,
            async (events) => {
              if (++batch === 2) throw failure;
              handled.push(...events);
              checkpoint = positionOf(events[events.length - 1]!);
            },
            new AbortController().signal,
            { batchSize: 2 },
          ),
        ).rejects.toBe(failure);
        const sub = followMine(checkpoint, { batchSize: 2 });
        const mineHandled = handled.filter((e) => e.streamId.startsWith(p));
        await sub.waitFor(6 - mineHandled.length);
        expect(ids([...mineHandled, ...sub.mine])).toEqual(ids(await mineFrom()));
      });

      it('two subscribers on one store each get every event', async () => {
        const a = followMine(start, { batchSize: 1 });
        const b = followMine(start, { batchSize: 100 });
        for (let i = 0; i < 10; i++) await store.append(`${p}s`, [ev('N', { i })], 'any');
        await a.waitFor(10);
        await b.waitFor(10);
        expect(ids(a.mine)).toEqual(ids(b.mine));
      });
    });

    describe('stress', () => {
      it('writers append concurrently while a subscriber (batchSize 3) and a readAll pager (batchSize 3) follow: nothing lost, nothing repeated, one order', async () => {
        const writers = 6;
        const appendsPerWriter = 40;
        let expectedCount = 0;
        let writing = true;

        const sub = followMine(start, { batchSize: 3 });

        // A checkpointing reader built on readAll alone: resumes after the last event it saw, pages of 3.
        const paged: RecordedEvent[] = [];
        const pager = (async () => {
          let cursor = start;
          for (;;) {
            const last = !writing;
            for await (const e of store.readAll(cursor, { batchSize: 3 })) {
              cursor = positionOf(e);
              if (e.streamId.startsWith(p)) paged.push(e);
            }
            if (last) return;
            await sleep(1);
          }
        })();

        const fast = Array.from({ length: writers }, async (_, w) => {
          const revisions = new Map<string, bigint>();
          for (let i = 0; i < appendsPerWriter; i++) {
            const stream = `${p}w${w}-${i % 3}`;
            const expected = revisions.get(stream) ?? 'no_stream';
            const r = await store.append(stream, [ev('N', { w, i })], expected);
            revisions.set(stream, r.nextRevision);
            expectedCount++;
          }
        });
        // A shared stream with 'any': writers race for revisions there too.
        const shared = Array.from({ length: 2 }, async (_, w) => {
          for (let i = 0; i < 20; i++) {
            await store.append(`${p}shared`, [ev('S', { w, i }), ev('S2', { w, i })], 'any');
            expectedCount += 2;
          }
        });
        // Transactions that take a position and commit late (or never), where the adapter has them.
        const late = fixture.beginSlowAppend
          ? [
              (async () => {
                for (let i = 0; i < 15; i++) {
                  const s = await slow(`${p}late-${i}`, [ev('L', { i }), ev('L', { i })]);
                  await sleep(Math.floor(Math.random() * 15));
                  if (i % 5 === 4) await s.rollback();
                  else {
                    await s.commit();
                    expectedCount += 2;
                  }
                }
              })(),
            ]
          : [];
        await Promise.all([...fast, ...shared, ...late]);
        // The pager's last pass starts once everything appended is visible (it may be held back for a while).
        await settled();
        writing = false;
        await pager;
        await sub.waitFor(expectedCount, 20_000);
        await sleep(100);

        const final = await mineFrom();
        expect(final).toHaveLength(expectedCount);
        expect(new Set(ids(final)).size).toBe(expectedCount);
        expectStrictlyIncreasing(final);
        expectStrictlyIncreasing(sub.all);
        expect(ids(sub.mine)).toEqual(ids(final));
        expect(ids(paged)).toEqual(ids(final));
        for (const size of sub.batchSizes) expect(size).toBeLessThanOrEqual(3);
        // Per stream, revisions are gapless and in order inside the global order.
        const byStream = new Map<string, bigint[]>();
        for (const e of final)
          byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.streamRevision]);
        for (const revisions of byStream.values()) {
          expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
        }
      });
    });
  });
}
