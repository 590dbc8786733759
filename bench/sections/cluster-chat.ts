import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { benchCluster, connectionsTo, rssMb, type BenchCluster } from '../lib/cluster';
import { httpRequest } from '../lib/http-request';
import { benchPostgresPids, childPids, cpuUse } from '../lib/cpu';
import { round } from '../lib/measure';
import { percentile, steady } from '../lib/open-loop';
import { arrival, connect, connectAll } from '../lib/sockets';
import type { BenchRow, BenchSection } from '../lib/types';
import { conversationStarted, userRegistered } from '../lib/chat-seed';

const SOCKETS = Number(process.env.BENCH_CLUSTER_SOCKETS ?? 10_000);
/** Conversations between users 2c (sockets on query-api 1) and 2c + 1 (on query-api 2): every message crosses nodes. */
const CONVERSATIONS = Math.min(1000, Math.floor(SOCKETS / 2));
const RATE = Number(process.env.BENCH_CLUSTER_CHAT_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_CLUSTER_CHAT_SECONDS ?? 10);
const TARGET_P99_MS = 100;
/** A second run at a quarter of the rate: the path's latency when the machine is not saturated. */
const COMPARISON_RATE = Number(process.env.BENCH_CLUSTER_CHAT_COMPARISON_RATE ?? 50);
const BATCH = 500;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** How many users are online (a query-api node's health: realtime.onlineUsers, every node's users); null when unsaid. */
async function onlineUsers(node: { url: string }): Promise<number | null> {
  const res = await httpRequest('GET', `${node.url}/api/health`).catch(() => null);
  if (res?.status !== 200) return null;
  return (
    (JSON.parse(res.body) as { parts?: { realtime?: { onlineUsers?: number } } }).parts?.realtime
      ?.onlineUsers ?? null
  );
}

async function until(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** 10,000 registered users with an open session each and 1,000 conversations, appended straight to the cluster's log. */
async function seed(cluster: BenchCluster, userId: (i: number) => string) {
  const at = new Date().toISOString();
  const registered = await connectAll(SOCKETS, 16, async (i) => {
    const { streamId, event } = userRegistered(userId(i), `benchcc${i}x${userId(i).slice(-6)}`, at);
    return (await cluster.store.append(streamId, [event], 'no_stream')).position;
  });
  const tokens = await connectAll(SOCKETS, 16, (i) => cluster.tokenFor(userId(i)));
  const conversations = await connectAll(CONVERSATIONS, 16, async (c) => {
    const [a, b] = [2 * c, 2 * c + 1];
    const { id, streamId, event } = conversationStarted(userId(a), userId(b), at);
    const { position } = await cluster.store.append(streamId, [event], 'no_stream');
    return { id, a, b, position };
  });
  const last = [...registered, ...conversations.map((c) => c.position)].reduce((m, p) => (p > m ? p : m), 0n);
  if (!(await cluster.waiter.waitFor(last, 600_000)))
    throw new Error('the seeded users and conversations were not in the read models after 10 minutes');
  return { tokens, conversations };
}

/** Each query-api node's open connections (its sockets: nginx proxies one connection per socket). */
const perNode = (cluster: BenchCluster) => cluster.queryNodes.map((n) => connectionsTo(n.port));

/**
 * Client addresses nginx sends to each query-api node. It keeps each client address on one node and every bench
 * socket comes from one machine, so without this every socket would land on one node: the bench binds its sockets to
 * 127.k.0.1 (all loopback on Linux) and looks at which node got a new connection.
 */
async function addressesByNode(cluster: BenchCluster, token: string): Promise<(string | null)[]> {
  const found: (string | null)[] = cluster.queryNodes.map(() => null);
  for (let k = 1; k <= 64 && found.includes(null); k++) {
    const localAddress = `127.${k}.0.1`;
    const before = perNode(cluster);
    const socket = await connect(cluster.url, { token }, { localAddress });
    let node = -1;
    await until(async () => {
      node = perNode(cluster).findIndex((n, i) => n !== null && n > before[i]!);
      return node >= 0;
    }, 5000);
    socket.close();
    if (node >= 0) found[node] ??= localAddress;
    await until(async () => perNode(cluster).every((n, i) => n === before[i]), 5000);
  }
  return found;
}

/** nginx's folder: its configuration names its pid file there. */
const nginxDir = (cluster: BenchCluster) =>
  /pid (\S+)\/nginx\.pid;/.exec(cluster.cluster.nginx.config)?.[1] ?? '';

/** The last line of nginx's error log (why it closed a connection: worker_connections, open files). */
function nginxComplaint(cluster: BenchCluster): string {
  const file = path.join(nginxDir(cluster), 'error.log');
  try {
    const last = readFileSync(file, 'utf8').trim().split('\n').at(-1);
    return last ? last.replace(/^\S+ \S+ /, '') : 'nothing';
  } catch (error) {
    return `not readable: ${String(error)}`;
  }
}

/** A socket.io connect_error with its cause (the WebSocket's own error: a refused upgrade, an address in use). */
const describe = (error: unknown) => {
  const cause = (error as { description?: { message?: string; error?: unknown } }).description;
  const detail = cause?.message ?? (cause?.error === undefined ? undefined : String(cause.error));
  return detail ? `${String(error)} (${detail})` : String(error);
};

/** How many files a process has open (Linux's /proc), or '?'. */
const openFiles = (pid: number) => {
  try {
    return String(readdirSync(`/proc/${pid}/fd`).length);
  } catch {
    return '?';
  }
};

/**
 * Chat over the distributed deployment: 10,000 sockets through nginx, half on each query-api node, and messages sent
 * at a steady rate over one member's socket (its sendMessage: the product's path) between members on different
 * nodes, each measured until the other member's socket gets it (getMessage): query-api appends it, a worker projects
 * it, and every node pushes it to its own sockets from the change notice.
 */
export const clusterChat: BenchSection = {
  name: 'cluster-chat',
  title: `Chat over the cluster: ${SOCKETS.toLocaleString()} sockets on 2 query-api nodes (through nginx, as many as it takes), ${RATE} messages/s for ${SECONDS} s between members on different nodes (target: p99 < ${TARGET_P99_MS} ms)`,
  columns: [
    { key: 'measure', header: 'measure' },
    { key: 'sockets', header: 'sockets (query-api 1 + 2)' },
    { key: 'ratePerSecond', header: 'rate/s' },
    { key: 'sent', header: 'sent' },
    { key: 'delivered', header: 'delivered' },
    { key: 'lost', header: 'lost' },
    { key: 'p50Ms', header: 'p50 ms' },
    { key: 'p95Ms', header: 'p95 ms' },
    { key: 'p99Ms', header: 'p99 ms' },
    { key: 'maxMs', header: 'max ms' },
    { key: 'target', header: `target p99 < ${TARGET_P99_MS} ms` },
  ],
  async run(ctx) {
    const sockets: Socket[] = [];
    let cluster: BenchCluster | { unavailable: string } | undefined;
    try {
      ctx.log('  starting the cluster on a database of its own…');
      cluster = await benchCluster(ctx, 'pawhaven_bench_cluster_chat');
      if ('unavailable' in cluster) {
        ctx.log(`  not measured: ${cluster.unavailable}`);
        return [{ measure: `not measured: ${cluster.unavailable}` }];
      }
      const c = cluster;
      const run = randomUUID().slice(0, 8);
      const userId = (i: number) => `bench-cc-${run}-${i}`;
      let t0 = performance.now();
      ctx.log(
        `  seeding ${SOCKETS.toLocaleString()} users with a session each and ${CONVERSATIONS.toLocaleString()} conversations…`,
      );
      const { tokens, conversations } = await seed(c, userId);
      ctx.log(`  seeded and projected in ${round((performance.now() - t0) / 1000, 1)} s`);

      const nodes = c.queryNodes;
      const addresses = await addressesByNode(c, tokens[0]!);
      if (addresses.includes(null))
        throw new Error('nginx sent every client address tried to the same query-api node');
      ctx.log(
        `  nginx sends ${addresses.map((a, n) => `${a} to ${nodes[n]!.name}`).join(', ')}: sockets bind to those`,
      );

      // Socket i on node i % 2, through nginx; once nginx refuses, the rest go to the node's own port.
      const via: ('nginx' | 'direct')[] = new Array(SOCKETS);
      let nginxRefused: string | null = null;
      let notConnected: string | null = null;
      const one = async (i: number) => {
        const node = i % nodes.length;
        if (!nginxRefused) {
          try {
            const socket = await connect(c.url, { token: tokens[i]! }, { localAddress: addresses[node]! });
            via[i] = 'nginx';
            return socket;
          } catch (error) {
            nginxRefused ??= `${describe(error)}; nginx worker's open files: ${childPids(c.cluster.nginx.child.pid).map(openFiles).join(', ')}; its error log: ${nginxComplaint(c)}`;
          }
        }
        via[i] = 'direct';
        return connect(nodes[node]!.url.replace('//localhost:', '//127.0.0.1:'), { token: tokens[i]! });
      };
      t0 = performance.now();
      for (let from = 0; from < SOCKETS && !notConnected; from += BATCH) {
        const count = Math.min(BATCH, SOCKETS - from);
        const batch = await connectAll(count, 50, (k) =>
          one(from + k).then(
            (s) => s,
            (error: unknown) => {
              notConnected ??= describe(error);
              return null;
            },
          ),
        );
        for (const s of batch) if (s) sockets.push(s);
        if ((from + count) % 1000 === 0 || from + count === SOCKETS || notConnected)
          ctx.log(
            `  ${sockets.length.toLocaleString()} / ${SOCKETS.toLocaleString()} sockets in ${round((performance.now() - t0) / 1000, 1)} s, bench RSS ${mb(process.memoryUsage().rss)} MB`,
          );
      }
      const connectSeconds = round((performance.now() - t0) / 1000, 1);
      const throughNginx = via.filter((v) => v === 'nginx').length;
      const direct = sockets.length - throughNginx;
      if (nginxRefused)
        ctx.log(
          `  nginx took ${throughNginx.toLocaleString()} sockets, then refused (${nginxRefused}); the other ${direct.toLocaleString()} connected to the nodes' own ports`,
        );
      if (notConnected)
        ctx.log(`  only ${sockets.length.toLocaleString()} sockets connected: ${notConnected}`);
      const split = perNode(c);
      const online = await onlineUsers(nodes[0]!);
      ctx.log(
        `  connections per node: ${nodes.map((n, k) => `${n.name} ${split[k]?.toLocaleString() ?? '?'}`).join(', ')}; users online (health): ${online?.toLocaleString() ?? '?'}`,
      );
      const memory = process.memoryUsage();
      const nginxWorkers = childPids(c.cluster.nginx.child.pid);
      const memoryLine = [
        `bench client RSS ${mb(memory.rss)} MB (heap ${mb(memory.heapUsed)} MB)`,
        ...nodes.map((n) => `${n.name} RSS ${rssMb(n.child.pid) ?? '?'} MB`),
        `nginx worker RSS ${nginxWorkers.map((p) => rssMb(p) ?? '?').join(' + ')} MB`,
      ].join(', ');
      ctx.log(`  memory: ${memoryLine}`);
      if (sockets.length < 2 * CONVERSATIONS) throw new Error('too few sockets connected to measure');

      // Arrivals by clientMessageId on the recipient's socket (its sender's gets the message too).
      const arrivals = new Map<string, () => void>();
      for (let i = 0; i < sockets.length; i++)
        sockets[i]!.on('getMessage', (m: { clientMessageId: string }) =>
          arrivals.get(`${m.clientMessageId}:${i}`)?.(),
        );
      const groups = () => ({
        'bench client': [process.pid],
        ...c.processes(),
        postgres: benchPostgresPids(),
      });
      /** One run: `rate` messages a second for SECONDS, each measured until its ack and the recipient's getMessage. */
      const measure = async (rate: number, seconds: number) => {
        const acks: number[] = [];
        /** Each message's delivery latency by its number (the timeline: does a queue build up?). */
        const arrived: number[] = [];
        let refused = 0;
        let firstSend = 0;
        let lastSend = 0;
        let lastPosition = 0n;
        const send = (i: number) => {
          const conversation = conversations[i % conversations.length]!;
          const [from, to] =
            Math.floor(i / conversations.length) % 2 === 0
              ? [conversation.a, conversation.b]
              : [conversation.b, conversation.a];
          const clientMessageId = randomUUID();
          const heard = arrival(arrivals, `${clientMessageId}:${to}`);
          const sent = performance.now();
          firstSend ||= sent;
          lastSend = sent;
          sockets[from]!.emit(
            'sendMessage',
            { conversationId: conversation.id, text: `Message ${i}`, clientMessageId },
            (answer: { ok: boolean; position?: string }) => {
              if (!answer.ok) return void refused++;
              acks.push(performance.now() - sent);
              if (answer.position && BigInt(answer.position) > lastPosition)
                lastPosition = BigInt(answer.position);
            },
          );
          return heard.then(() => void (arrived[i] = performance.now() - sent));
        };
        const total = rate * seconds;
        // Whatever the previous run left (pushes, a GC) is over before this one starts.
        await new Promise((r) => setTimeout(r, 2000));
        const cpu = cpuUse(groups);
        const delivered = await steady(rate, total, send);
        const cpuLine = cpu.stop();
        // A run that left a queue behind: the next starts once the read models have everything.
        await c.waiter.waitFor(lastPosition, 120_000);
        const timeline = Array.from({ length: seconds }, (_, s) => {
          const second = arrived.slice(s * rate, (s + 1) * rate).filter((v) => v !== undefined);
          second.sort((a, b) => a - b);
          return second.length > 0 ? String(Math.round(percentile(second, 0.5))) : '–';
        });
        const sentPerSecond = round(((total - 1) * 1000) / Math.max(lastSend - firstSend, 1), 1);
        return { total, acks, delivered, refused, timeline, cpuLine, sentPerSecond };
      };

      const splitText = split.map((n) => n?.toLocaleString() ?? '?').join(' + ');
      const rowsOf = (rate: number, run: Awaited<ReturnType<typeof measure>>, target: boolean) => {
        const row = (measure: string, samples: number[], lost: number, withTarget: boolean): BenchRow => {
          samples.sort((a, b) => a - b);
          const p99 = percentile(samples, 0.99);
          return {
            measure,
            sockets: splitText,
            ratePerSecond: rate,
            sent: run.total,
            delivered: samples.length,
            lost,
            p50Ms: percentile(samples, 0.5),
            p95Ms: percentile(samples, 0.95),
            p99Ms: p99,
            maxMs: round(samples.at(-1) ?? 0, 2),
            target: withTarget ? (p99 < TARGET_P99_MS && lost === 0 ? 'met' : 'missed') : null,
          };
        };
        return [
          row('sendMessage → its ack (recorded in the log)', run.acks, run.total - run.acks.length, false),
          {
            ...row(
              'sendMessage → the other member’s getMessage (on the other node)',
              run.delivered,
              run.total - run.delivered.length,
              target,
            ),
            sentPerSecond: run.sentPerSecond,
            refused: run.refused,
            deliveryP50BySecond: run.timeline.join(', '),
            cpu: run.cpuLine,
          },
        ];
      };

      const idle = cpuUse(groups);
      await new Promise((r) => setTimeout(r, 5000));
      ctx.log(`  idle with ${sockets.length.toLocaleString()} sockets: ${idle.stop()}`);
      // Unmeasured warm-up: each node's first messages compile code and prepare statements.
      await measure(RATE, 1);
      const rows: BenchRow[] = [];
      for (const rate of [RATE, ...(RATE > COMPARISON_RATE ? [COMPARISON_RATE] : [])]) {
        ctx.log(`  sending ${(rate * SECONDS).toLocaleString()} messages at ${rate}/s…`);
        const run = await measure(rate, SECONDS);
        ctx.log(
          `    sent at ${run.sentPerSecond}/s; delivery p50 ms by second of sending: ${run.timeline.join(', ')}`,
        );
        ctx.log(`    ${run.cpuLine}`);
        rows.push(...rowsOf(rate, run, rate === RATE));
      }
      Object.assign(rows[1]!, {
        socketsConnected: sockets.length,
        socketsThroughNginx: throughNginx,
        socketsDirect: direct,
        nginxRefused,
        connectSeconds,
        memory: memoryLine,
      });
      return rows;
    } finally {
      for (const s of sockets) s.close();
      if (cluster && !('unavailable' in cluster)) await cluster.stop();
    }
  },
};
