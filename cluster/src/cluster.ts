import path from 'node:path';
import { POST_QUERIES } from '@pawhaven/query-api';
import { freePort } from './ports';
import { kafkaUnavailable, startKafkaBroker, type KafkaBroker } from './kafka/broker';
import { findNginx, startNginx, type Nginx } from './nginx';
import { startService, type Service, type ServiceProcess } from './service-process';

export type ClusterOptions = {
  databaseUrl: string;
  /** The browser's port (nginx). */
  port: number;
  /** Kafka's data and nginx's files go here. */
  dataDir: string;
  /** Create the demo accounts, ads, posts and chats on a first start. */
  demoData: boolean;
  /** Settings for every service (tests: generous rate limits). */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

export type Cluster = {
  url: string;
  /** Set when this start created the admin account. */
  adminCredentials: { email: string; password: string } | null;
  /** What command-api printed on its first start (the admin login, the demo accounts). */
  firstStart: string;
  services: ServiceProcess[];
  /** Null when Java or Maven cannot be had: the services then follow the store (`kafkaSkipped` says why). */
  broker: KafkaBroker | null;
  kafkaSkipped: string | null;
  nginx: Nginx;
  stop(): Promise<void>;
};

/** Why the cluster cannot run here (no nginx), with what to do; null when it can. */
export function clusterUnavailable(): string | null {
  return findNginx()
    ? null
    : 'nginx is not installed (Debian/Ubuntu: sudo apt-get install -y nginx; macOS: brew install nginx)';
}

/**
 * The distributed deployment on one machine, from real parts: a Kafka broker (KRaft; its jars fetched from Maven
 * Central on first use), the relay, 2 × command-api, 2 × query-api, 2 projection workers in one consumer group, and
 * nginx in front on one port, on the PostgreSQL at `databaseUrl`. The first command-api starts alone (it prepares the
 * database and seeds); the rest start together. `stop` stops everything, nginx first.
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? (() => {});
  const nginxBinary = findNginx();
  if (!nginxBinary) throw new Error(clusterUnavailable()!);
  const started: ServiceProcess[] = [];
  let broker: KafkaBroker | null = null;
  let nginx: Nginx | null = null;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(started.map((s) => s.stop()));
    await broker?.stop();
  };
  try {
    const kafkaSkipped = kafkaUnavailable();
    if (!kafkaSkipped) {
      log('Starting a Kafka broker…');
      broker = await startKafkaBroker({ dataDir: path.join(opts.dataDir, 'kafka') });
    }
    const env = {
      ...opts.env,
      DATABASE_URL: opts.databaseUrl,
      TRUST_PROXY_HOPS: '1',
      EVENT_BUS: broker ? 'kafka' : 'none',
      ...(broker ? { KAFKA_BROKERS: broker.brokers } : {}),
    };
    const start = async (service: Service, name: string, extra: Record<string, string> = {}) => {
      const s = await startService(service, { ...env, ...extra }, { name });
      started.push(s);
      log(`  ${name} on port ${s.port}`);
      return s;
    };
    log('Starting the services…');
    const first = await start('command-api', 'command-api 1', { DEMO_DATA: String(opts.demoData) });
    // Every start settles before a failure is thrown, so `stop` below stops each one that did start.
    const starts = await Promise.allSettled([
      start('command-api', 'command-api 2'),
      start('query-api', 'query-api 1'),
      start('query-api', 'query-api 2'),
      start('projections', 'projection worker 1'),
      start('projections', 'projection worker 2'),
      ...(broker ? [start('relay', 'relay')] : []),
    ]);
    const failed = starts.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const [second, q1, q2] = starts.map((r) => (r as PromiseFulfilledResult<ServiceProcess>).value);
    const port = opts.port || (await freePort());
    nginx = await startNginx(nginxBinary, path.join(opts.dataDir, 'nginx'), {
      port,
      command: [first, second!].map((s) => `127.0.0.1:${s.port}`),
      query: [q1!, q2!].map((s) => `127.0.0.1:${s.port}`),
      postQueries: POST_QUERIES,
    });
    const firstStart = first.output();
    const email = /│ email:\s+(\S+)/.exec(firstStart)?.[1];
    const password = /│ password:\s+(\S+)/.exec(firstStart)?.[1];
    return {
      url: `http://localhost:${port}`,
      adminCredentials: email && password ? { email, password } : null,
      firstStart,
      services: started,
      broker,
      kafkaSkipped,
      nginx,
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
