export type Measurement = {
  name: string;
  workers: number;
  ops: number;
  seconds: number;
  perSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
};

/** One thing to measure: `op` runs in `workers` concurrent loops; `i` counts that worker's operations. */
export type Cell = { name: string; workers: number; op: (worker: number, i: number) => Promise<void> };

/**
 * Measures cells for `durationMs` each (or until `maxOps` operations of that cell), after a short unmeasured
 * warm-up. The cells take turns in `slices` short slices, so a machine that gets busier or quieter while the
 * bench runs (other processes, disk) skews every cell alike and the ratios between them stay meaningful.
 */
export async function measureInterleaved(
  cells: Cell[],
  opts: { durationMs: number; maxOps: number; slices?: number; warmupMs?: number },
): Promise<Measurement[]> {
  const slices = Math.max(1, opts.slices ?? 6);
  const state = cells.map((cell) => ({
    cell,
    counters: Array.from({ length: cell.workers }, () => 0),
    budget: opts.maxOps,
    ms: 0,
    latencies: [] as number[],
  }));
  const runFor = async (s: (typeof state)[number], ms: number, record: boolean) => {
    const started = performance.now();
    const until = started + ms;
    await Promise.all(
      s.counters.map(async (_, w) => {
        while (performance.now() < until && s.budget > 0) {
          if (record) s.budget--;
          const t0 = performance.now();
          await s.cell.op(w, s.counters[w]!++);
          if (record) s.latencies.push(performance.now() - t0);
        }
      }),
    );
    if (record) s.ms += performance.now() - started;
  };
  for (const s of state) await runFor(s, opts.warmupMs ?? 300, false);
  for (let slice = 0; slice < slices; slice++) {
    for (const s of state) if (s.budget > 0) await runFor(s, opts.durationMs / slices, true);
  }
  return state.map((s) => {
    const seconds = s.ms / 1000;
    const sorted = s.latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0, 3);
    return {
      name: s.cell.name,
      workers: s.cell.workers,
      ops: sorted.length,
      seconds: round(seconds, 3),
      perSecond: seconds > 0 ? Math.round(sorted.length / seconds) : 0,
      latencyMs: { p50: at(0.5), p99: at(0.99), max: round(sorted[sorted.length - 1] ?? 0, 3) },
    };
  });
}

export const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** One cell alone: `op` in `workers` concurrent loops for `durationMs` (or `maxOps` operations). */
export async function measureConcurrent(opts: {
  workers: number;
  durationMs: number;
  maxOps: number;
  warmupMs?: number;
  op: (worker: number, i: number) => Promise<void>;
}): Promise<Measurement> {
  const [m] = await measureInterleaved([{ name: 'cell', workers: opts.workers, op: opts.op }], {
    durationMs: opts.durationMs,
    maxOps: opts.maxOps,
    slices: 1,
    ...(opts.warmupMs === undefined ? {} : { warmupMs: opts.warmupMs }),
  });
  return m!;
}

/**
 * Command → visible latency at a steady rate (open loop: a slow answer never delays the next send). `send(i)`
 * posts the i-th command and answers its position, or null when it failed; each sample is then measured until
 * `waitFor(position)` says every read model has it. Answers the two rows every latency bench prints.
 */
export async function commandToVisible(opts: {
  rate: number;
  total: number;
  send: (i: number) => Promise<bigint | null>;
  waitFor: (position: bigint) => Promise<unknown>;
  labels: { command: string; visible: string };
}) {
  const commandMs: number[] = [];
  const visibleMs: number[] = [];
  let failed = 0;
  const one = async (i: number) => {
    const t0 = performance.now();
    const position = await opts.send(i);
    const t1 = performance.now();
    if (position === null) {
      failed++;
      return;
    }
    await opts.waitFor(position);
    commandMs.push(t1 - t0);
    visibleMs.push(performance.now() - t0);
  };
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < opts.total; i++) {
    const wait = started + (i * 1000) / opts.rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(one(i));
  }
  await Promise.all(inFlight);
  const row = (measure: string, samples: number[]) => {
    samples.sort((a, b) => a - b);
    const at = (q: number) =>
      Math.round((samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0) * 100) / 100;
    return {
      measure,
      ratePerSecond: opts.rate,
      samples: samples.length,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      failed,
    };
  };
  return [row(opts.labels.command, commandMs), row(opts.labels.visible, visibleMs)];
}
