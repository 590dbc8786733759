import { randomUUID } from 'node:crypto';
import { postStream, type CommunityEvent } from '@pawhaven/contracts';
import { allProjections } from '@pawhaven/projections';
import { PostgresEventStore, type ConsistencyWaiter, type EventStore } from '@pawhaven/platform';
import { benchCluster, type BenchCluster } from '../lib/cluster';
import { httpRequest } from '../lib/http-request';
import { commandToVisible, measureConcurrent, round } from '../lib/measure';
import { median, percentile } from '../lib/open-loop';
import { connectAll } from '../lib/sockets';
import { benchPostgresPids, cpuUse } from '../lib/cpu';
import type { BenchRow, BenchSection } from '../lib/types';
import { benchApp } from './adoption';

const RATE = 50;
const REPETITIONS = Number(process.env.BENCH_CLUSTER_REPETITIONS ?? 3);
const WRITERS = Number(process.env.BENCH_CLUSTER_WRITERS ?? 16);
const POSTS = 400;
/** Likes per user in the throughput cells: under RATE_LIMIT_WRITES (300 per user and window), on distinct posts. */
const LIKES_PER_USER = 200;

/** What the bench needs of one deployment: where the browser's requests go, its log, and its read models' progress. */
type Target = {
  name: 'embedded' | 'cluster';
  url: string;
  store: EventStore;
  waiter: ConsistencyWaiter;
  tokenFor(userId: string): Promise<string>;
  /** Fresh ids per run: a section run twice on the same server (or after another) never meets its own streams. */
  prefix: string;
  posts: string[];
  /** Next like of each throughput writer (over every repetition: a user's likes stay under the limit). */
  writerLikes: number[];
  writerTokens: Map<string, Promise<string>>;
};

/** 400 posts appended straight to the log, as the command side records them; answers once they are in every read model. */
async function seedPosts(target: Target) {
  const posts = Array.from({ length: POSTS }, () => randomUUID());
  const positions = await connectAll(posts.length, 8, async (i) => {
    const authorId = `${target.prefix}-author-${i % 20}`;
    const published: CommunityEvent = {
      type: 'PostPublished',
      data: {
        postId: posts[i]!,
        authorId,
        authorIsVeterinarian: false,
        caption: `Story ${i}`,
        imageUrl: '/api/images/000000000000000000000000',
        publishedAt: new Date(Date.now() - (posts.length - i) * 1000).toISOString(),
      },
    };
    const event = { type: published.type, data: published.data, metadata: { actorId: authorId } };
    return (await target.store.append(postStream(posts[i]!), [event], 'no_stream')).position;
  });
  const last = positions.reduce((m, p) => (p > m ? p : m), 0n);
  if (!(await target.waiter.waitFor(last, 120_000)))
    throw new Error(`${target.name}: the posts were not in the read models after 2 minutes`);
  target.posts.push(...posts);
}

type LikeAnswer = { status: number; position: bigint | null; liked: boolean };

/** POST /api/posts/{id}/like as the browser sends it, through `target.url`. */
async function like(target: Target, postId: string, token: string): Promise<LikeAnswer> {
  const res = await httpRequest('POST', `${target.url}/api/posts/${postId}/like`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) return { status: res.status, position: null, liked: false };
  const body = JSON.parse(res.body) as { position: string; liked: boolean };
  return { status: res.status, position: BigInt(body.position), liked: body.liked };
}

/**
 * The read a client makes after its command: the post's page with X-Consistent-After (query-api waits until every read
 * model has the position, bounded by CONSISTENCY_WAIT_MS); true when it answered consistent and lists the like.
 */
async function readAfter(target: Target, postId: string, position: bigint, userId: string) {
  const res = await httpRequest('GET', `${target.url}/api/posts/${postId}`, {
    headers: { 'X-Consistent-After': String(position) },
  });
  return (
    res.status === 200 && res.headers['x-consistency'] === 'consistent' && res.body.includes(`"${userId}"`)
  );
}

/**
 * The read models fed by Kafka under EVENT_BUS=kafka (they declare `order: 'stream'`) and those that follow the log in
 * every deployment: the bench also waits for each group on its own (its own waiter, beside the read), to show which
 * path a visible command waits for. In the embedded app both follow the log.
 */
const BUS_FED = allProjections.filter((p) => p.order === 'stream').map((p) => p.name);
const LOG_FED = allProjections.filter((p) => p.order !== 'stream').map((p) => p.name);

const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

type LatencyResult = {
  commandP50: number;
  commandP99: number;
  visibleP50: number;
  visibleP99: number;
  logFedP50: number;
  logFedP99: number;
  busFedP50: number;
  busFedP99: number;
  failed: number;
  stale: number;
  samples: number;
};

/**
 * One repetition of LikePost at RATE/s (open loop), each like measured until the post's page read with its position
 * shows it, and until each group of read models has it.
 */
async function likeLatency(target: Target, tokens: { userId: string; token: string }[]) {
  const sent = new Map<bigint, { i: number; t0: number }>();
  const logFed: number[] = [];
  const busFed: number[] = [];
  let stale = 0;
  const [command, visible] = await commandToVisible({
    rate: RATE,
    total: tokens.length,
    send: async (i) => {
      const t0 = performance.now();
      const answer = await like(target, target.posts[i % POSTS]!, tokens[i]!.token);
      if (answer.position === null || !answer.liked) return null;
      sent.set(answer.position, { i, t0 });
      return answer.position;
    },
    waitFor: async (position) => {
      const { i, t0 } = sent.get(position)!;
      const group = async (names: string[], into: number[]) => {
        if (await target.waiter.waitFor(position, 10_000, names)) into.push(performance.now() - t0);
      };
      const [read] = await Promise.all([
        readAfter(target, target.posts[i % POSTS]!, position, tokens[i]!.userId),
        group(LOG_FED, logFed),
        group(BUS_FED, busFed),
      ]);
      if (!read) stale++;
    },
    labels: { command: 'command', visible: 'visible' },
  });
  const [log, bus] = [ascending(logFed), ascending(busFed)];
  return {
    commandP50: command!.p50Ms,
    commandP99: command!.p99Ms,
    visibleP50: visible!.p50Ms,
    visibleP99: visible!.p99Ms,
    logFedP50: percentile(log, 0.5),
    logFedP99: percentile(log, 0.99),
    busFedP50: percentile(bus, 0.5),
    busFedP99: percentile(bus, 0.99),
    failed: command!.failed,
    stale,
    samples: command!.samples,
  } satisfies LatencyResult;
}

/** Likes by WRITERS concurrent users (each loop moving to a new user every LIKES_PER_USER) for `ms`, then drained. */
async function likeThroughput(target: Target, ms: number, maxOps: number) {
  let failed = 0;
  let last = 0n;
  const m = await measureConcurrent({
    workers: WRITERS,
    durationMs: ms,
    maxOps,
    op: async (w) => {
      const n = target.writerLikes[w]!++;
      const userId = `${target.prefix}-writer-${w}-${Math.floor(n / LIKES_PER_USER)}`;
      let token = target.writerTokens.get(userId);
      if (!token) target.writerTokens.set(userId, (token = target.tokenFor(userId)));
      const answer = await like(target, target.posts[n % POSTS]!, await token);
      if (answer.position === null || !answer.liked) failed++;
      else if (answer.position > last) last = answer.position;
    },
  });
  // Whatever the burst left for the projections is done before the next cell measures anything.
  const t0 = performance.now();
  const caughtUp = await target.waiter.waitFor(last, 120_000);
  return {
    perSecond: m.perSecond,
    p50: m.latencyMs.p50,
    p99: m.latencyMs.p99,
    ops: m.ops,
    failed,
    drainMs: caughtUp ? round(performance.now() - t0, 1) : null,
  };
}

/**
 * The same commands and reads against the embedded app (one process: `npm start`) and the distributed deployment
 * (`npm run cluster`: nginx, 2 × command-api, 2 × query-api, 2 workers, the relay, Kafka), taking turns, on the same
 * PostgreSQL server: LikePost at a steady 50/s measured until the post's page shows it, then likes as fast as
 * WRITERS concurrent users send them.
 */
export const clusterVsEmbedded: BenchSection = {
  name: 'cluster',
  title: `Distributed (nginx, 2 command-api, 2 query-api, 2 workers, relay, Kafka) vs embedded: LikePost at ${RATE}/s → visible through X-Consistent-After, and ${WRITERS} concurrent writers (median of ${REPETITIONS}, interleaved)`,
  columns: [
    { key: 'measure', header: 'measure' },
    { key: 'embedded', header: 'embedded' },
    { key: 'cluster', header: 'cluster' },
    {
      key: 'ratio',
      header: 'cluster ÷ embedded',
      format: (v) => (typeof v === 'number' ? v.toFixed(2) : '–'),
    },
    { key: 'failed', header: 'failed (embedded / cluster)' },
  ],
  async run(ctx) {
    let cluster: BenchCluster | { unavailable: string } | undefined;
    const bench = await benchApp(ctx);
    const embeddedStore = new PostgresEventStore(bench.db.pool);
    try {
      ctx.log('  starting the cluster on a database of its own…');
      cluster = await benchCluster(ctx, 'pawhaven_bench_cluster');
      if ('unavailable' in cluster) {
        ctx.log(`  cluster not measured: ${cluster.unavailable}`);
        return [{ measure: `not measured: ${cluster.unavailable}` }];
      }
      const c = cluster;
      const run = randomUUID().slice(0, 8);
      const target = (
        name: Target['name'],
        url: string,
        deployment: Pick<Target, 'store' | 'waiter' | 'tokenFor'>,
      ): Target => ({
        name,
        url,
        store: deployment.store,
        waiter: deployment.waiter,
        tokenFor: deployment.tokenFor,
        prefix: `bench-${name}-${run}`,
        posts: [],
        writerLikes: Array.from({ length: WRITERS }, () => 0),
        writerTokens: new Map(),
      });
      const targets = [
        target('embedded', `http://127.0.0.1:${bench.app.port}`, {
          store: embeddedStore,
          waiter: bench.waiter,
          tokenFor: bench.tokenFor,
        }),
        target('cluster', c.url, c),
      ];
      const latencyMs = Math.max(ctx.cellMs * 2, 2000);
      const perRun = Math.floor((RATE * latencyMs) / 1000);
      const warmUp = 2 * RATE;
      ctx.log(
        `  seeding ${POSTS} posts and ${(REPETITIONS * perRun + warmUp).toLocaleString()} sessions each…`,
      );
      const tokens = new Map<string, { userId: string; token: string }[]>();
      for (const t of targets) {
        await seedPosts(t);
        const userIds = Array.from(
          { length: REPETITIONS * perRun + warmUp },
          (_, i) => `${t.prefix}-liker-${i}`,
        );
        tokens.set(
          t.name,
          await connectAll(userIds.length, 8, async (i) => ({
            userId: userIds[i]!,
            token: await t.tokenFor(userIds[i]!),
          })),
        );
      }
      // Unmeasured: a shorter first round of each kind (each node's first requests compile code, prepare statements).
      for (const t of targets) {
        const warm = await likeLatency(t, tokens.get(t.name)!.slice(REPETITIONS * perRun));
        await likeThroughput(t, 1000, ctx.maxOpsPerCell);
        if (warm.failed > 0) throw new Error(`${t.name}: ${warm.failed} warm-up likes failed`);
        ctx.log(`  warmed up: ${t.name}`);
      }

      const latency = new Map<string, LatencyResult[]>(targets.map((t) => [t.name, []]));
      const throughput = new Map<string, Awaited<ReturnType<typeof likeThroughput>>[]>(
        targets.map((t) => [t.name, []]),
      );
      for (let r = 0; r < REPETITIONS; r++) {
        // Taking turns, the first one alternating: a machine getting busier or quieter skews both alike.
        const order = r % 2 === 0 ? targets : [...targets].reverse();
        for (const t of order) {
          const result = await likeLatency(t, tokens.get(t.name)!.slice(r * perRun, (r + 1) * perRun));
          latency.get(t.name)!.push(result);
          ctx.log(
            `  ${r + 1}/${REPETITIONS} ${t.name.padEnd(8)} ${RATE}/s: round trip p50 ${result.commandP50} ms, p99 ${result.commandP99} ms; → visible p50 ${result.visibleP50} ms, p99 ${result.visibleP99} ms (log-fed read models p50 ${result.logFedP50}, Kafka-fed p50 ${result.busFedP50}; ${result.failed} failed, ${result.stale} stale)`,
          );
        }
        for (const t of order) {
          const cpu = cpuUse((): Record<string, number[]> =>
            t.name === 'embedded'
              ? { 'bench process (client + embedded app)': [process.pid], postgres: benchPostgresPids() }
              : { 'bench client': [process.pid], ...c.processes(), postgres: benchPostgresPids() },
          );
          const result = await likeThroughput(t, ctx.cellMs, ctx.maxOpsPerCell);
          const cpuLine = cpu.stop();
          throughput.get(t.name)!.push(result);
          ctx.log(
            `  ${r + 1}/${REPETITIONS} ${t.name.padEnd(8)} ${WRITERS} writers: ${result.perSecond} likes/s (${result.ops} in ${ctx.cellMs / 1000} s, p99 ${result.p99} ms, ${result.failed} failed), all visible ${result.drainMs ?? '> 120,000'} ms after the last`,
          );
          ctx.log(`      ${cpuLine}`);
        }
      }

      const row = (
        measure: string,
        pick: (name: string) => number[],
        failed?: (name: string) => number,
      ): BenchRow => {
        const [e, k] = [median(pick('embedded')), median(pick('cluster'))];
        return {
          measure,
          embedded: e,
          cluster: k,
          ratio: e > 0 ? round(k / e, 3) : null,
          failed: failed ? `${failed('embedded')} / ${failed('cluster')}` : null,
          embeddedRuns: pick('embedded').join(', '),
          clusterRuns: pick('cluster').join(', '),
        };
      };
      const lat = (pick: (r: LatencyResult) => number) => (name: string) => latency.get(name)!.map(pick);
      const latFailed = (name: string) => latency.get(name)!.reduce((n, r) => n + r.failed + r.stale, 0);
      const thr =
        (pick: (r: Awaited<ReturnType<typeof likeThroughput>>) => number | null) => (name: string) =>
          throughput.get(name)!.map((r) => pick(r) ?? Number.POSITIVE_INFINITY);
      const thrFailed = (name: string) => throughput.get(name)!.reduce((n, r) => n + r.failed, 0);
      return [
        row(
          `LikePost at ${RATE}/s: round trip p50 ms`,
          lat((r) => r.commandP50),
          latFailed,
        ),
        row(
          `LikePost at ${RATE}/s: round trip p99 ms`,
          lat((r) => r.commandP99),
        ),
        row(
          `LikePost at ${RATE}/s: → visible (X-Consistent-After read) p50 ms`,
          lat((r) => r.visibleP50),
        ),
        row(
          `LikePost at ${RATE}/s: → visible (X-Consistent-After read) p99 ms`,
          lat((r) => r.visibleP99),
        ),
        row(
          '  → in the read models that follow the log, p50 ms',
          lat((r) => r.logFedP50),
        ),
        row(
          '  → in the read models that follow the log, p99 ms',
          lat((r) => r.logFedP99),
        ),
        row(
          '  → in the read models fed by Kafka (cluster), p50 ms',
          lat((r) => r.busFedP50),
        ),
        row(
          '  → in the read models fed by Kafka (cluster), p99 ms',
          lat((r) => r.busFedP99),
        ),
        row(
          `LikePost, ${WRITERS} concurrent writers: commands/s`,
          thr((r) => r.perSecond),
          thrFailed,
        ),
        row(
          `LikePost, ${WRITERS} concurrent writers: round trip p50 ms`,
          thr((r) => r.p50),
        ),
        row(
          `LikePost, ${WRITERS} concurrent writers: round trip p99 ms`,
          thr((r) => r.p99),
        ),
        row(
          `LikePost, ${WRITERS} concurrent writers: end of the burst → all visible ms`,
          thr((r) => r.drainMs),
        ),
      ];
    } finally {
      try {
        if (cluster && !('unavailable' in cluster)) await cluster.stop();
      } finally {
        await embeddedStore.close();
        await bench.stop();
      }
    }
  },
};
