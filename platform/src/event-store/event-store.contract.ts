/**
 * The contract every EventStore adapter passes: ordering, expected revisions, concurrency
 * conflicts, idempotency, late-committing transactions, catch-up then live, resume from a checkpoint.
 *
 * An adapter's test file calls `describeEventStoreContract(name, fixture)`. The suite never assumes the log is
 * empty: every test writes to streams under its own random prefix and looks only at those, so it also runs
 * against a shared server (EventStoreDB in a container, whose `$all` holds other events).
 *
 * This file sets up each test (a fresh store, prefix and head) and runs the sections, one file each under
 * `contract/`: appending and reading, conflicts, idempotency, late commits, subscriptions, stress.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import {
  comparePositions,
  type EventStore,
  type LogPosition,
  type ReadAllOptions,
  type NewEvent,
} from './event-store';
import {
  collect,
  eventually,
  follow,
  tracking,
  type ContractContext,
  type EventStoreContractFixture,
  type SlowAppend,
} from './contract/support';
import { describeAppendAndRead } from './contract/append-and-read';
import { describeConflicts } from './contract/conflicts';
import { describeIdempotency } from './contract/idempotency';
import { describeLateCommits } from './contract/late-commits';
import { describeSubscriptions } from './contract/subscriptions';
import { describeStress } from './contract/stress';

export type { EventStoreContractFixture, SlowAppend } from './contract/support';

/** The suite an adapter's test file runs: one `describe` holding every section, in the order below. */
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

    const t: ContractContext = {
      fixture,
      get store() {
        return store;
      },
      get p() {
        return p;
      },
      get start() {
        return start;
      },
      settled,
      mineNow,
      mineFrom,
      slow,
      followMine,
    };
    describeAppendAndRead(t);
    describeConflicts(t);
    describeIdempotency(t);
    describeLateCommits(t);
    describeSubscriptions(t);
    describeStress(t);
  });
}
