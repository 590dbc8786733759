import { round } from './measure';
import { percentile } from './open-loop';
import type { BenchRow } from './types';

/** One call that went as expected: when it started (seconds after `startClock`) and how long it took. */
export type CallSample = { at: number; ms: number };

/** A row of calls: how many, per second over `seconds`, their p50 and p99 (successes only) and how many failed. */
export function callRow(call: string, samples: CallSample[], errors: number, seconds: number): BenchRow {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    call,
    count: sorted.length + errors,
    perSecond: round((sorted.length + errors) / seconds, 1),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    errors,
  };
}

/**
 * Latencies and failures of named calls, for a load that mixes many kinds of them. A call fails when it throws or
 * answers what went wrong; the first few failures are kept word for word.
 */
export function callStats(keepErrors = 5) {
  const calls = new Map<string, { samples: CallSample[]; errors: number }>();
  const firstErrors: string[] = [];
  let origin = performance.now();
  return {
    firstErrors,
    startClock() {
      origin = performance.now();
    },
    /** Runs `call` (null: as expected; else what went wrong), timed from `t0`; whether it went as expected. */
    async timed(name: string, call: () => Promise<string | null>, t0 = performance.now()): Promise<boolean> {
      let problem: string | null;
      try {
        problem = await call();
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      const c = calls.get(name) ?? { samples: [], errors: 0 };
      calls.set(name, c);
      if (problem === null) c.samples.push({ at: (t0 - origin) / 1000, ms: performance.now() - t0 });
      else {
        c.errors++;
        const at = Math.round((t0 - origin) / 1000);
        if (firstErrors.length < keepErrors) firstErrors.push(`${name}, at ${at} s: ${problem}`);
      }
      return problem === null;
    },
    all: () => [...calls.values()].flatMap((c) => c.samples),
    errors: () => [...calls.values()].reduce((s, c) => s + c.errors, 0),
    /** One row per call, by name. */
    rows: (seconds: number) =>
      [...calls]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, c]) => callRow(name, c.samples, c.errors, seconds)),
  };
}
