import type { EventStore, ExpectedRevision, NewEvent } from '@pawhaven/platform';
import { Simulation } from './simulation';

/**
 * A realistic PawHaven event log, for the rebuild bench and the fold/apply equivalence test: a deterministic
 * simulation of the product's users (seeded PRNG, no clock, no random UUIDs) producing the appends the command side
 * would record for what they do, in the order it would record them — the same streams, event shapes, expected
 * revisions and metadata, with the deciders' rules kept (no request on one's own ad, one open request per requester
 * and ad, accepting closes the others, nobody acts on a deleted user's content, …).
 *
 * The community grows: new users arrive in proportion to the active ones, and every active user acts at the same
 * average rate, so the mix of events is about the same from the first thousand events to the millionth; time runs
 * faster as the community grows (about 1,000,000 events in the 185 days before `now`, by default).
 */

export type PlannedAppend = {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  deps: number[];
};

export type RealisticLogOptions = {
  seed?: number;
  /** The log starts `days` before this (default: the current time). */
  now?: Date;
  /** Days before `now` the log starts (default 185: about where the millionth event lands). */
  days?: number;
  /** Users deleted by an administrator per 1,000,000 events (default 300). */
  deletionsPerMillion?: number;
};

/**
 * The appends of a PawHaven deployment's life, in the order the product would record them (endless). `deps` are
 * indices of earlier appends this one needs committed first (the account that acts, the post liked, the ad
 * requested, the notification read); appends to one stream must also keep their order (their `expected` revisions
 * say so). The same options give the same appends (event ids included).
 */
export function* realisticLog(opts: RealisticLogOptions = {}): Generator<PlannedAppend> {
  const sim = new Simulation(opts);
  sim.start();
  for (;;) {
    while (sim.out.length === 0) sim.step();
    for (const planned of sim.out) yield planned;
    sim.out.length = 0;
  }
}

/**
 * Appends the first appends of `realisticLog` until `events` events were appended. Up to `concurrency` appends are
 * in flight; each waits for its `deps` and for the previous append to its stream, and they start in log order.
 */
export async function appendRealisticLog(
  store: EventStore,
  opts: {
    events: number;
    seed?: number;
    concurrency?: number;
    onProgress?: (appended: number) => void;
  } & Omit<RealisticLogOptions, 'seed'>,
): Promise<{ events: number; appends: number; counts: Record<string, number> }> {
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const counts: Record<string, number> = {};
  const pending = new Map<number, Promise<void>>();
  const lastOfStream = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let planned = 0;
  let appended = 0;
  let appends = 0;
  let index = 0;
  const { events: target, seed, concurrency: _c, onProgress: _p, ...logOptions } = opts;
  for (const next of realisticLog({ ...logOptions, seed })) {
    if (planned >= target || failure !== undefined) break;
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const i = index++;
    const waits: Promise<void>[] = [];
    for (const d of next.deps) {
      const p = pending.get(d);
      if (p) waits.push(p);
    }
    const previous = lastOfStream.get(next.streamId);
    if (previous !== undefined) {
      const p = pending.get(previous);
      if (p) waits.push(p);
    }
    lastOfStream.set(next.streamId, i);
    planned += next.events.length;
    const job = (async () => {
      if (waits.length > 0) await Promise.all(waits);
      if (failure !== undefined) return;
      await store.append(next.streamId, next.events, next.expected);
      appends++;
      appended += next.events.length;
      for (const e of next.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
      opts.onProgress?.(appended);
    })()
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        pending.delete(i);
        inFlight.delete(job);
        if (lastOfStream.get(next.streamId) === i) lastOfStream.delete(next.streamId);
      });
    pending.set(i, job);
    inFlight.add(job);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  return { events: appended, appends, counts };
}
