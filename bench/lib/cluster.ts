import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { clusterUnavailable, startCluster, type Cluster, type ServiceProcess } from '@pawhaven/cluster';
import {
  ConsistencyWaiter,
  connectDatabase,
  PostgresEventStore,
  resolveJwtSecret,
  TokenService,
} from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { childPids, commandName } from './cpu';
import { freshDatabase } from './postgres';
import { startBenchSession } from './session';
import type { BenchContext } from './types';

export type BenchCluster = {
  cluster: Cluster;
  /** nginx, the browser's one address (127.0.0.1: nginx listens on IPv4). */
  url: string;
  databaseUrl: string;
  db: ReturnType<typeof connectDatabase>;
  /** The cluster's log, for seeding straight into it as the command side records events. */
  store: PostgresEventStore;
  /** Until every read model of the cluster (those the workers feed from Kafka too) has passed a position. */
  waiter: ConsistencyWaiter;
  /** A signed-in user of the cluster: a real open session in the user's stream, signed with the cluster's secret. */
  tokenFor(userId: string): Promise<string>;
  queryNodes: ServiceProcess[];
  commandNodes: ServiceProcess[];
  /** The cluster's processes by kind (pids), for `cpuUse`. */
  processes(): Record<string, number[]>;
  stop(): Promise<void>;
};

/** The resident memory of a process, in MB (Linux's /proc); null when unknown. */
export function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * How many established TCP connections this machine has to local `port` (the server's side, from Linux's
 * /proc/net/tcp and tcp6): a query-api node's sockets, whether nginx proxies them or they came straight in. Null
 * where /proc is not there.
 */
export function connectionsTo(port: number): number | null {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let count = 0;
  let read = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '01' && local?.endsWith(hex)) count++;
    }
  }
  return read ? count : null;
}

/**
 * `npm run cluster`'s deployment (cluster/src/cluster.ts: a Kafka broker, the relay, 2 × command-api, 2 × query-api,
 * 2 projection workers, nginx in front) on a fresh database `name` of the bench's server, EVENT_BUS=kafka; or why it
 * cannot run here (no nginx, no Java or Maven for the broker): the section then reports itself as not measured.
 * `stop` stops every process, drops the database and removes the broker's and nginx's files; until then, a bench
 * process that exits on its own (Ctrl-C, a crash) kills them on its way out, so none is left behind.
 */
export async function benchCluster(
  ctx: BenchContext,
  name: string,
  env: Record<string, string> = {},
): Promise<BenchCluster | { unavailable: string }> {
  const missing = clusterUnavailable();
  if (missing) return { unavailable: missing };
  const databaseUrl = await freshDatabase(ctx.connectionString, name);
  const dataDir = path.resolve('.data', 'bench-cluster', `${process.pid}-${name}`);
  const dropDatabase = async () => {
    const admin = new pg.Client({ connectionString: ctx.connectionString });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
  const cleanUp = async () => {
    await dropDatabase().catch((error: unknown) => ctx.log(`  could not drop ${name}: ${String(error)}`));
    await rm(dataDir, { recursive: true, force: true });
  };
  await rm(dataDir, { recursive: true, force: true });
  const t0 = performance.now();
  let cluster: Cluster;
  try {
    cluster = await startCluster({
      databaseUrl,
      port: 0,
      dataDir,
      demoData: false,
      // The bench's embedded app is configured silent; here warnings stay (they say why something fails).
      env: { LOG_LEVEL: 'warn', ...env },
      log: (line) => ctx.log(`  ${line}`),
    });
  } catch (error) {
    await cleanUp();
    throw error;
  }
  // Synchronous: the signals are sent before this process is gone.
  const killAll = () => {
    cluster.nginx.child.kill('SIGTERM');
    for (const s of cluster.services) void s.kill();
    void cluster.broker?.kill();
  };
  process.once('exit', killAll);
  const stopCluster = async () => {
    process.off('exit', killAll);
    await cluster.stop();
  };
  if (cluster.kafkaSkipped) {
    await stopCluster();
    await cleanUp();
    return { unavailable: `no Kafka broker: ${cluster.kafkaSkipped}` };
  }
  ctx.log(`  cluster started in ${Math.round((performance.now() - t0) / 100) / 10} s at ${cluster.url}`);
  const db = connectDatabase(databaseUrl, { max: 8 });
  const store = new PostgresEventStore(db.pool);
  const waiter = new ConsistencyWaiter(
    db.knex,
    databaseUrl,
    allProjections.map((p) => p.name),
  );
  // In the order of their names (they start together, so they are listed in the order they came up).
  const nodesOf = (service: string) =>
    cluster.services.filter((s) => s.service === service).sort((a, b) => a.name.localeCompare(b.name));
  try {
    const tokens = new TokenService(await resolveJwtSecret(db.knex), 3600);
    await waiter.start();
    return {
      cluster,
      url: cluster.url.replace('//localhost:', '//127.0.0.1:'),
      databaseUrl,
      db,
      store,
      waiter,
      tokenFor: (userId) => startBenchSession(store, tokens, userId),
      queryNodes: nodesOf('query-api'),
      commandNodes: nodesOf('command-api'),
      processes() {
        const of = (service: string) =>
          cluster.services.filter((s) => s.service === service).map((s) => s.child.pid ?? 0);
        const nginx = cluster.nginx.child.pid;
        return {
          nginx: nginx ? [nginx, ...childPids(nginx)] : [],
          'command-api ×2': of('command-api'),
          'query-api ×2': of('query-api'),
          'workers ×2': of('projections'),
          relay: of('relay'),
          // The broker is the one Java process this one started.
          kafka: childPids(process.pid).filter((p) => commandName(p) === 'java'),
        };
      },
      async stop() {
        try {
          await waiter.stop();
          await store.close();
          await db.close();
        } finally {
          await stopCluster();
          await cleanUp();
        }
      },
    };
  } catch (error) {
    await waiter.stop().catch(() => {});
    await store.close().catch(() => {});
    await db.close().catch(() => {});
    await stopCluster();
    await cleanUp();
    throw error;
  }
}
