/**
 * `npm run bench`: starts its own embedded PostgreSQL, runs every bench section on it, prints one table per
 * section and writes everything to bench/results/latest.json. Add a bench by appending to `sections`.
 * Numbers are measured, never asserted: tests check behaviour, the bench reports speed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { otherLoad } from './lib/cpu';
import { startBenchPostgres } from './lib/postgres';
import { renderTable } from './lib/table';
import type { BenchContext, BenchRow, BenchSection } from './lib/types';
import { adoptionListingThroughput, adoptionRequestLatency } from './sections/adoption';
import { appendThroughput } from './sections/append-throughput';
import { chatDeliveryLatency, notificationQueries } from './sections/chat';
import { clusterVsEmbedded } from './sections/cluster';
import { clusterChat } from './sections/cluster-chat';
import { communityFeedThroughput, communityLikeLatency } from './sections/community';
import { lighthouseScores } from './sections/lighthouse';
import { peerEmmett } from './sections/peer-emmett';
import { adminListLatency, rebuildThroughput } from './sections/rebuild';
import { soak } from './sections/soak';
import { userHistoryCost } from './sections/user-history';
import { commandToVisibleLatency } from './sections/visible';

const sections: BenchSection[] = [
  appendThroughput,
  peerEmmett,
  adoptionRequestLatency,
  adoptionListingThroughput,
  communityLikeLatency,
  communityFeedThroughput,
  chatDeliveryLatency,
  notificationQueries,
  commandToVisibleLatency,
  userHistoryCost,
  lighthouseScores,
  soak,
  // The distributed deployment (Kafka, nginx, 7 services), each on a database of its own: about 1.5 minutes each.
  clusterVsEmbedded,
  clusterChat,
  // Last: they generate a million events (in a database of their own).
  rebuildThroughput,
  adminListLatency,
];

const CELL_MS = Number(process.env.BENCH_CELL_MS ?? 3000);
/** A section during which anything but the bench took more of the machine than this is marked as measured busy. */
const BUSY_PERCENT = 5;
const MAX_OPS_PER_CELL = Number(process.env.BENCH_MAX_OPS ?? 500_000);

async function main() {
  const only = process.argv.slice(2);
  const selected = only.length > 0 ? sections.filter((s) => only.includes(s.name)) : sections;
  if (selected.length === 0)
    throw new Error(`no bench named ${only.join(', ')}; known: ${sections.map((s) => s.name).join(', ')}`);

  // BENCH_REBUILD_KEEP (bench/sections/rebuild.ts): the generated log is kept on a server that outlives the run.
  const kept = Boolean(process.env.BENCH_REBUILD_KEEP);
  console.log(
    kept
      ? 'Starting the kept embedded PostgreSQL (.data/bench-pg/kept)…'
      : 'Starting a throwaway embedded PostgreSQL…',
  );
  const server = await startBenchPostgres(kept);
  const stopOnSignal = () => void server.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    postgres: server.version,
  };
  console.log(
    `${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, PostgreSQL ${machine.postgres}\n`,
  );

  const ctx: BenchContext = {
    connectionString: server.connectionString,
    cellMs: CELL_MS,
    maxOpsPerCell: MAX_OPS_PER_CELL,
    log: (line) => console.log(line),
  };
  const results: {
    name: string;
    title: string;
    seconds: number;
    otherLoadPercent: number | null;
    busyMachine: boolean;
    rows: BenchRow[];
  }[] = [];
  const startedAt = new Date();
  try {
    for (const section of selected) {
      console.log(`## ${section.title}`);
      const t0 = performance.now();
      const load = otherLoad();
      const rows = await section.run(ctx);
      const other = load.stop();
      const seconds = Math.round((performance.now() - t0) / 100) / 10;
      console.log(`\n${renderTable(section, rows)}\n`);
      const busy = other !== null && other.otherPercent > BUSY_PERCENT;
      console.log(
        other === null
          ? 'Other load during this section: unknown (no /proc)\n'
          : `Other load during this section: ${other.otherPercent} % of the machine (${other.otherSeconds} CPU-s not the bench's)` +
              (busy
                ? ` — BUSY MACHINE: above ${BUSY_PERCENT} %, these figures are not a quiet machine's\n`
                : '\n'),
      );
      results.push({
        name: section.name,
        title: section.title,
        seconds,
        otherLoadPercent: other?.otherPercent ?? null,
        busyMachine: busy,
        rows,
      });
    }
  } finally {
    await server.stop();
  }

  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json');
  await mkdir(path.dirname(out), { recursive: true });
  const json = {
    startedAt: startedAt.toISOString(),
    settings: { cellMs: CELL_MS, maxOpsPerCell: MAX_OPS_PER_CELL },
    machine,
    sections: results,
  };
  await writeFile(out, JSON.stringify(json, null, 2) + '\n');
  console.log(`Results written to ${path.relative(process.cwd(), out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
