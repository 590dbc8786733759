/**
 * `npx tsx --max-semi-space-size=64 bench/folds.ts [events]`: the rebuild's in-memory work alone, without the
 * database: the first `events` (default 200,000) events of the realistic log (`@pawhaven/simulator`, generated
 * before timing) fed to a fresh fold of every projection that has one, as a rebuild feeds them. Prints each run's
 * CPU time (this process's, garbage collection included: on a shared machine, what waiting for a core adds to the
 * elapsed time is left out) and elapsed time, their medians of 3, then each fold's CPU time alone. Compare two
 * versions by running this in both, interleaved, in the same hour.
 */
import type { Projection, RecordedEvent } from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { realisticLog } from '@pawhaven/simulator';

const EVENTS = Number(process.argv[2] ?? process.env.BENCH_FOLD_EVENTS ?? 200_000);
const RUNS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The log's events as a rebuild reads them: in order, with positions, revisions and commit times. */
function events(n: number): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  const revisions = new Map<string, bigint>();
  const start = Date.parse('2026-01-01T00:00:00Z');
  let tx = 1n;
  for (const append of realisticLog({ seed: 20260601, now: new Date('2026-07-01T00:00:00Z') })) {
    let revision = revisions.get(append.streamId) ?? -1n;
    for (const e of append.events) {
      revision++;
      out.push({
        eventId: e.eventId ?? `00000000-0000-4000-8000-${out.length.toString().padStart(12, '0')}`,
        streamId: append.streamId,
        streamRevision: revision,
        type: e.type,
        // As read back from jsonb.
        data: JSON.parse(JSON.stringify(e.data)) as unknown,
        metadata: e.metadata ?? {},
        position: BigInt(out.length + 1),
        transactionId: tx,
        createdAt: new Date(start + out.length * 15_000),
      });
    }
    revisions.set(append.streamId, revision);
    tx++;
    if (out.length >= n) break;
  }
  return out.slice(0, n);
}

/** CPU and elapsed seconds to feed `log` to fresh folds of `projections`, as the rebuild does (`foldsOf`). */
function feed(projections: readonly Projection[], log: readonly RecordedEvent[]) {
  const byType = new Map<string, ((event: RecordedEvent) => void)[]>();
  for (const p of projections) {
    const fold = p.fold!();
    for (const type of p.handles) byType.set(type, [...(byType.get(type) ?? []), (e) => fold.apply(e)]);
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (const event of log) {
    const applies = byType.get(event.type);
    if (applies) for (const apply of applies) apply(event);
  }
  const { user, system } = process.cpuUsage(cpu0);
  return { cpu: (user + system) / 1e6, elapsed: (performance.now() - t0) / 1000 };
}

const log = events(EVENTS);
const folded = allProjections.filter((p) => p.fold);
console.log(`${log.length.toLocaleString()} events, ${folded.length} folds`);
const runs: { cpu: number; elapsed: number }[] = [];
for (let run = 1; run <= RUNS; run++) {
  runs.push(feed(folded, log));
  console.log(
    `run ${run}: ${runs.at(-1)!.cpu.toFixed(2)} s CPU, ${runs.at(-1)!.elapsed.toFixed(2)} s elapsed`,
  );
}
const cpu = median(runs.map((r) => r.cpu));
console.log(
  `all folds: median ${cpu.toFixed(2)} s CPU (${Math.round(log.length / cpu).toLocaleString()} events per CPU second), ` +
    `${median(runs.map((r) => r.elapsed)).toFixed(2)} s elapsed`,
);
for (const p of folded) console.log(`  ${p.name.padEnd(24)} ${feed([p], log).cpu.toFixed(3)} s CPU`);
