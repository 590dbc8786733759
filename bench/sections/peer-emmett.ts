import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { PostgresEventStore } from '@pawhaven/platform';
import { followEmmett, followedData, followOurs, followUnderWriters } from '../lib/live-follower';
import { measureInterleaved, round, type Measurement } from '../lib/measure';
import {
  emmettBatch,
  emmettCell,
  emmettDatabase,
  emmettStore,
  emmettVersion,
  fillLog,
  keepDefaultParsers,
  oursBatch,
  oursCell,
  oursDatabase,
  poolOf,
  rawBatch,
  rawDatabase,
  readEmmett,
  readOurs,
  readRaw,
  READ_PAGE,
} from '../lib/peer-stores';
import { rawCell } from '../lib/raw-insert';
import type { BenchContext, BenchRow, BenchSection, BenchValue } from '../lib/types';

const WRITERS = [1, 4, 16];
/** Each figure is the median of this many interleaved repetitions. */
const REPETITIONS = 3;
/** Events in each store's log for the whole-log read (BENCH_PEER_LOG_EVENTS: a smaller one to iterate faster). */
const LOG_EVENTS = Number(process.env.BENCH_PEER_LOG_EVENTS ?? 100_000);
/** The log is filled by this many concurrent writers, this many events per append (faster than one by one). */
const FILL_WRITERS = 8;
const FILL_PER_APPEND = 10;
const FOLLOW_WRITERS = 8;

const EMMETT_VERSION = emmettVersion();

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const ratio = (a: number | null, b: number | null) => (a && b ? round(a / b, 3) : null);
const fixed = (v: BenchValue) => (typeof v === 'number' ? v.toFixed(2) : '–');

/** A whole-log read's ids: how many distinct expected ones never came, and how many came more than once. */
function checkRead(ids: string[], expected: number) {
  const distinct = new Set(ids).size;
  return { skipped: expected - distinct, duplicated: ids.length - distinct };
}

type Databases = Record<'ours' | 'emmett' | 'raw' | 'oursLive' | 'emmettLive', string>;

async function appendRow(
  ctx: BenchContext,
  db: Databases,
  writers: number,
  run: string,
  types: pg.CustomTypesConfig,
) {
  // One connection per writer, plus one; ours opens its LISTEN/NOTIFY connection outside the pool.
  const oursPool = poolOf(db.ours, writers + 1, types);
  const emmettPool = poolOf(db.emmett, writers + 1);
  const rawPool = poolOf(db.raw, writers + 1, types);
  const ours = new PostgresEventStore(oursPool);
  const emmett = emmettStore(db.emmett, emmettPool);
  try {
    const cells = [
      oursCell(ours, writers, run),
      emmettCell(emmett, writers, run),
      rawCell(rawPool, writers, run),
    ];
    const reps: Measurement[][] = [];
    for (let r = 0; r < REPETITIONS; r++)
      reps.push(await measureInterleaved(cells, { durationMs: ctx.cellMs, maxOps: ctx.maxOpsPerCell }));
    const [o, e, raw] = [0, 1, 2].map((c) => median(reps.map((rep) => rep[c]!.perSecond)));
    const [oP50, eP50, rawP50] = [0, 1, 2].map((c) => median(reps.map((rep) => rep[c]!.latencyMs.p50)));
    ctx.log(
      `  ${String(writers).padStart(2)} writer(s), appends/s by repetition: ours ${reps.map((x) => x[0]!.perSecond).join(' ')}, ` +
        `emmett ${reps.map((x) => x[1]!.perSecond).join(' ')}, raw ${reps.map((x) => x[2]!.perSecond).join(' ')}`,
    );
    return {
      measure: 'append (1 event, exact version; raw: INSERT)',
      writers,
      ours: o!,
      emmett: e!,
      raw: raw!,
      oursP50Ms: oP50!,
      emmettP50Ms: eP50!,
      rawP50Ms: rawP50!,
    };
  } finally {
    await ours.close();
    await emmett.close();
    await Promise.all([oursPool.end(), emmettPool.end(), rawPool.end()]);
  }
}

async function readRow(ctx: BenchContext, db: Databases, types: pg.CustomTypesConfig) {
  const oursPool = poolOf(db.ours, 4, types);
  const emmettPool = poolOf(db.emmett, 4);
  const rawPool = poolOf(db.raw, 4, types);
  const ours = new PostgresEventStore(oursPool);
  const emmett = emmettStore(db.emmett, emmettPool);
  try {
    // Each database is new: its log is exactly the events filled here.
    const fills = [oursBatch(ours), emmettBatch(emmett), rawBatch(rawPool)];
    const fillSeconds: number[] = [];
    for (const append of fills) {
      const t0 = performance.now();
      await fillLog(append, LOG_EVENTS, FILL_WRITERS, FILL_PER_APPEND);
      fillSeconds.push(round((performance.now() - t0) / 1000, 1));
    }
    ctx.log(
      `  filled ${LOG_EVENTS.toLocaleString()} events (${FILL_WRITERS} writers, ${FILL_PER_APPEND} per append): ` +
        `ours ${fillSeconds[0]} s, emmett ${fillSeconds[1]} s, raw ${fillSeconds[2]} s`,
    );
    for (const pool of [oursPool, emmettPool, rawPool]) await pool.query('VACUUM ANALYZE');
    const readers = [() => readOurs(ours), () => readEmmett(emmett), () => readRaw(rawPool)];
    const rates: number[][] = [[], [], []];
    // Every repetition reads the same log: the last one's check stands for all.
    const checks: ReturnType<typeof checkRead>[] = [];
    for (let r = 0; r < REPETITIONS; r++) {
      for (const [k, read] of readers.entries()) {
        const t0 = performance.now();
        const ids = await read();
        rates[k]!.push(Math.round(ids.length / ((performance.now() - t0) / 1000)));
        checks[k] = checkRead(ids, LOG_EVENTS);
      }
    }
    ctx.log(
      `  whole-log reads/s by repetition: ours ${rates[0]!.join(' ')}, emmett ${rates[1]!.join(' ')}, raw ${rates[2]!.join(' ')}` +
        ` (ours skipped ${checks[0]!.skipped} / duplicated ${checks[0]!.duplicated}, emmett ${checks[1]!.skipped} / ${checks[1]!.duplicated})`,
    );
    const [o, e, raw] = rates.map(median);
    return {
      measure: `read whole log of ${LOG_EVENTS.toLocaleString()} (emmett: consumer; raw: SELECT)`,
      writers: null,
      ours: o!,
      emmett: e!,
      raw: raw!,
      oursSkipDup: `${checks[0]!.skipped} / ${checks[0]!.duplicated}`,
      emmettSkipDup: `${checks[1]!.skipped} / ${checks[1]!.duplicated}`,
      pageSize: READ_PAGE,
      oursFillSeconds: fillSeconds[0]!,
      emmettFillSeconds: fillSeconds[1]!,
      rawFillSeconds: fillSeconds[2]!,
    };
  } finally {
    await ours.close();
    await emmett.close();
    await Promise.all([oursPool.end(), emmettPool.end(), rawPool.end()]);
  }
}

async function followerRow(ctx: BenchContext, db: Databases, run: string, types: pg.CustomTypesConfig) {
  const durationMs = REPETITIONS * ctx.cellMs;
  // Writers and follower on stores of their own, as if in different processes.
  const oursPool = poolOf(db.oursLive, FOLLOW_WRITERS + 1, types);
  const oursFollowerPool = poolOf(db.oursLive, 2, types);
  const emmettPool = poolOf(db.emmettLive, FOLLOW_WRITERS + 1);
  const emmettFollowerPool = poolOf(db.emmettLive, 2);
  const stores = {
    ours: new PostgresEventStore(oursPool),
    oursFollower: new PostgresEventStore(oursFollowerPool),
    emmett: emmettStore(db.emmettLive, emmettPool),
    emmettFollower: emmettStore(db.emmettLive, emmettFollowerPool),
  };
  try {
    const ours = await followUnderWriters({
      cell: oursCell(stores.ours, FOLLOW_WRITERS, run, followedData),
      follow: followOurs(stores.oursFollower),
      durationMs,
      maxOps: ctx.maxOpsPerCell,
    });
    const emmett = await followUnderWriters({
      cell: emmettCell(stores.emmett, FOLLOW_WRITERS, run, followedData),
      follow: followEmmett(stores.emmettFollower),
      durationMs,
      maxOps: ctx.maxOpsPerCell,
    });
    ctx.log(`  live follower, ours:   ${JSON.stringify(ours)}`);
    ctx.log(`  live follower, emmett: ${JSON.stringify(emmett)}`);
    return {
      measure: `live follower, ${durationMs / 1000} s of writers (appends/s)`,
      writers: FOLLOW_WRITERS,
      ours: ours.appendsPerSecond,
      emmett: emmett.appendsPerSecond,
      raw: null,
      oursSkipDup: `${ours.skipped} / ${ours.duplicated}`,
      emmettSkipDup: `${emmett.skipped} / ${emmett.duplicated}`,
      oursLagP99Ms: ours.lagP99Ms,
      emmettLagP99Ms: emmett.lagP99Ms,
      oursLagP50Ms: ours.lagP50Ms,
      emmettLagP50Ms: emmett.lagP50Ms,
      oursCommitted: ours.committed,
      emmettCommitted: emmett.committed,
      oursCaughtUpMs: ours.caughtUpMs,
      emmettCaughtUpMs: emmett.caughtUpMs,
    };
  } finally {
    for (const store of Object.values(stores)) await store.close();
    await Promise.all([oursPool, oursFollowerPool, emmettPool, emmettFollowerPool].map((p) => p.end()));
  }
}

/**
 * A peer beside our store: Emmett's PostgreSQL event store and raw SQL on the same server in the same run, each store
 * on a database of its own. Appends, a whole-log read, and a live follower's correctness under concurrent writers.
 * Emmett reads its log in (transaction id, global position) order but resumes after the last row's global position,
 * so where concurrent transactions took positions out of their id order a page boundary can skip or repeat events:
 * the skipped/dup columns count what each reader missed or repeated.
 */
export const peerEmmett: BenchSection = {
  name: 'peer-emmett',
  title: `Our PostgresEventStore beside Emmett's (@event-driven-io/emmett-postgresql ${EMMETT_VERSION}) and raw SQL`,
  columns: [
    { key: 'measure', header: 'measure' },
    { key: 'writers', header: 'writers' },
    { key: 'ours', header: 'ours/s' },
    { key: 'emmett', header: 'emmett/s' },
    { key: 'raw', header: 'raw/s' },
    { key: 'oursToRaw', header: 'ours÷raw', format: fixed },
    { key: 'emmettToRaw', header: 'emmett÷raw', format: fixed },
    { key: 'oursToEmmett', header: 'ours÷emmett', format: fixed },
    { key: 'oursSkipDup', header: 'ours skipped/dup' },
    { key: 'emmettSkipDup', header: 'emmett skipped/dup' },
    { key: 'oursLagP99Ms', header: 'ours lag p99 ms' },
    { key: 'emmettLagP99Ms', header: 'emmett lag p99 ms' },
  ],
  async run(ctx) {
    ctx.log(`  @event-driven-io/emmett-postgresql ${EMMETT_VERSION}`);
    // Taken before Emmett opens its first pool (which swaps node-postgres's parsers), given back at the end.
    const parsers = keepDefaultParsers();
    const run = randomUUID().slice(0, 8);
    try {
      const db: Databases = {
        ours: await oursDatabase(ctx.connectionString, 'pawhaven_peer_ours'),
        oursLive: await oursDatabase(ctx.connectionString, 'pawhaven_peer_ours_live'),
        raw: await rawDatabase(ctx.connectionString, 'pawhaven_peer_raw'),
        emmett: await emmettDatabase(ctx.connectionString, 'pawhaven_peer_emmett'),
        emmettLive: await emmettDatabase(ctx.connectionString, 'pawhaven_peer_emmett_live'),
      };
      // The read first, on logs of exactly LOG_EVENTS; the appends then go on top of them (a log is never empty).
      const read = await readRow(ctx, db, parsers.types);
      const rows: BenchRow[] = [];
      for (const writers of WRITERS) rows.push(await appendRow(ctx, db, writers, run, parsers.types));
      rows.push(read, await followerRow(ctx, db, run, parsers.types));
      return rows.map((row) => ({
        ...row,
        oursToRaw: ratio(row.ours as number | null, row.raw as number | null),
        emmettToRaw: ratio(row.emmett as number | null, row.raw as number | null),
        oursToEmmett: ratio(row.ours as number | null, row.emmett as number | null),
        emmettVersion: EMMETT_VERSION,
      }));
    } finally {
      parsers.restore();
    }
  },
};
