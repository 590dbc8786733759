/**
 * A live follower of the whole log while writers append: which committed events it never delivered (skipped), which
 * it delivered more than once (duplicated), and how long after its append each arrived. For bench/sections/peer-emmett.ts.
 */
import type { Event } from '@event-driven-io/emmett';
import type { PostgresEventStore as EmmettEventStore } from '@event-driven-io/emmett-postgresql';
import { START, type PostgresEventStore } from '@pawhaven/platform';
import { measureConcurrent, round, type Cell } from './measure';

/** After the writers stop, how long the follower gets to deliver what it has not yet. */
const CATCH_UP_MS = 10_000;

/** What a followed event carries: who appended it (writer-index) and when (ms since the epoch, sub-ms). */
export type FollowedData = { key: string; sentAt: number };
export const now = () => performance.timeOrigin + performance.now();
export const followedData = (w: number, i: number) => ({ key: `${w}-${i}`, sentAt: now(), n: i });

/** Starts following; `deliver` is called for every event it hands over. Answers how to stop it. */
export type StartFollower = (deliver: (data: FollowedData) => void) => Promise<() => Promise<void>>;

/** Ours: subscribeAll from the start of the log, woken by the store's NOTIFY (a store of its own, like another process). */
export const followOurs =
  (store: PostgresEventStore): StartFollower =>
  async (deliver) => {
    const stop = new AbortController();
    const following = store.subscribeAll(
      START,
      async (batch) => {
        for (const e of batch) deliver(e.data as FollowedData);
      },
      stop.signal,
    );
    return async () => {
      stop.abort();
      await following;
    };
  };

type Followed = Event<'PetListed', FollowedData>;

/**
 * Emmett: its consumer with a reactor, as its documentation sets one up (checkpoint stored after each message, pages
 * of 100 polled every 50 ms while there are more, backing off to 1 s when there are none).
 */
export const followEmmett =
  (store: EmmettEventStore): StartFollower =>
  (deliver) => {
    const consumer = store.consumer<Followed>();
    consumer.reactor<Followed>({
      processorId: 'bench-follower',
      startFrom: 'BEGINNING',
      eachMessage: (m) => {
        deliver(m.data);
        return Promise.resolve();
      },
    });
    const running = consumer.start();
    // stop(), not close(): close() would also close the store's pool.
    return Promise.resolve(async () => {
      await consumer.stop();
      await running;
    });
  };

/**
 * `writers` concurrent writers append through `cell` for `durationMs` while the follower runs; then the follower gets
 * up to CATCH_UP_MS to deliver every event whose append returned.
 */
export async function followUnderWriters(opts: {
  cell: Cell;
  follow: StartFollower;
  durationMs: number;
  maxOps: number;
}) {
  const committed = new Set<string>();
  const deliveries = new Map<string, number>();
  const lagMs: number[] = [];
  const stop = await opts.follow((data) => {
    const seen = deliveries.get(data.key) ?? 0;
    if (seen === 0) lagMs.push(now() - data.sentAt);
    deliveries.set(data.key, seen + 1);
  });
  let caughtUpMs: number | null = null;
  try {
    const writing = await measureConcurrent({
      workers: opts.cell.workers,
      durationMs: opts.durationMs,
      maxOps: opts.maxOps,
      warmupMs: 0,
      op: async (w, i) => {
        await opts.cell.op(w, i);
        committed.add(`${w}-${i}`);
      },
    });
    const stoppedAt = performance.now();
    const allDelivered = () => [...committed].every((key) => deliveries.has(key));
    while (!allDelivered() && performance.now() - stoppedAt < CATCH_UP_MS)
      await new Promise((r) => setTimeout(r, 20));
    if (allDelivered()) caughtUpMs = round(performance.now() - stoppedAt, 0);
    lagMs.sort((a, b) => a - b);
    const at = (q: number) => round(lagMs[Math.min(lagMs.length - 1, Math.floor(q * lagMs.length))] ?? 0, 1);
    let duplicated = 0;
    for (const n of deliveries.values()) duplicated += n - 1;
    return {
      appendsPerSecond: writing.perSecond,
      committed: committed.size,
      skipped: [...committed].filter((key) => !deliveries.has(key)).length,
      duplicated,
      lagP50Ms: at(0.5),
      lagP99Ms: at(0.99),
      /** How long after the writers stopped the follower had delivered everything; null: not within CATCH_UP_MS. */
      caughtUpMs,
    };
  } finally {
    await stop();
  }
}
