import path from 'node:path';
import {
  ensurePortFree,
  HTTP_PORT_USE,
  loadConfig,
  ownedDatabase,
  runProcess,
  StartError,
} from '@pawhaven/platform';
import { clusterUnavailable, startCluster } from './cluster';

const database = ownedDatabase();

/**
 * `npm run cluster`: the distributed deployment on this machine, without Docker (cluster.ts), on an embedded
 * PostgreSQL of its own (DATA_DIR defaults to ./.data-cluster, its port to 54339: `npm start` may run beside it).
 */
runProcess(
  'PawHaven cluster',
  async () => {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: process.env.DATA_DIR ?? './.data-cluster',
      EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54339',
    });
    if (clusterUnavailable())
      throw new StartError(
        'The cluster needs nginx, which is not installed.',
        'Install it (Debian/Ubuntu: sudo apt-get install -y nginx; macOS: brew install nginx), then run npm run cluster again.',
        { reason: 'config' },
      );
    await ensurePortFree(config.PORT, HTTP_PORT_USE);
    const db = await database.start(config);
    const cluster = await startCluster({
      databaseUrl: db.connectionString,
      port: config.PORT,
      dataDir: path.resolve(config.DATA_DIR),
      demoData: db.embedded,
      log: (line) => console.log(line),
    });
    if (cluster.kafkaSkipped)
      console.log(`\n  Kafka is not running: ${cluster.kafkaSkipped}. The workers follow the store instead.`);
    console.log(`\n  PawHaven (distributed) is running at ${cluster.url}\n`);
    const shown = cluster.firstStart.split('\n').filter((l) => /^\s+[│┌└]|Demo accounts|@gmail\.com/.test(l));
    if (shown.length > 0) console.log(`${shown.join('\n')}\n`);
    console.log('  Press Ctrl-C to stop.\n');
    return cluster;
  },
  database.processOptions,
);
