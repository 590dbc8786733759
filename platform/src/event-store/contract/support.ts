/** What the contract's sections share: the fixture an adapter gives, the running test's context, and helpers. */
import {
  comparePositions,
  positionOf,
  type EventStore,
  type LogPosition,
  type ReadAllOptions,
  type NewEvent,
  type RecordedEvent,
} from '../event-store';

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
  /**
   * False for adapters whose event ids are idempotency tokens per stream only (KurrentDB): the check that an id used
   * in another stream is refused is then skipped, with that reason printed.
   */
  eventIdsUniqueAcrossStreams?: boolean;
};

export const ev = (type: string, data: Record<string, unknown> = {}, eventId?: string): NewEvent => ({
  ...(eventId ? { eventId } : {}),
  type,
  data,
});

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Test-side waiting: checks a condition until it holds or the time is up. */
export async function eventually(
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

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

export function expectStrictlyIncreasing(events: readonly RecordedEvent[]): void {
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

export const ids = (events: readonly RecordedEvent[]) => events.map((e) => e.eventId);

/** A live subscriber that records what it receives (all events, and those of the test's streams). */
export function follow(
  store: EventStore,
  from: LogPosition,
  prefix: string,
  opts: { batchSize?: number } = {},
) {
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
export function tracking(inner: EventStore, onAppended: (at: LogPosition) => void): EventStore {
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

/**
 * What a section of the contract works with. `store`, `p` and `start` are the running test's (a fresh store, a
 * fresh stream prefix and the head before the test wrote anything, set before each test): read them inside a test.
 */
export type ContractContext = {
  readonly fixture: EventStoreContractFixture;
  readonly store: EventStore;
  /** Streams of this test start with it; the log may hold other tests' events. */
  readonly p: string;
  /** The head before this test wrote anything. */
  readonly start: LogPosition;
  /** Waits until readers can see everything this test appended. */
  settled(): Promise<void>;
  /** This test's events in the log as readers see them right now. */
  mineNow(from?: LogPosition, opts?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** This test's events once everything it appended is visible. */
  mineFrom(from?: LogPosition, opts?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** A slow append (the fixture's) whose commit counts as this test's append. */
  slow(streamId: string, events: NewEvent[]): Promise<SlowAppend>;
  /** A live subscriber from `from` recording this test's events, stopped after the test. */
  followMine(from: LogPosition, opts?: { batchSize?: number }): ReturnType<typeof follow>;
};
