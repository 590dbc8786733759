import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config';
import { startEmbeddedPostgres } from './embedded-postgres';

export type DatabaseHandle = { connectionString: string; embedded: boolean; stop(): Promise<void> };

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR. Tools (rebuild CLI, bench) reuse a
 * server that `npm start` is already running rather than starting a second one on the same data.
 */
export async function databaseFromConfig(
  config: Config,
  opts: { reuseRunning: boolean; onLog?: (line: string) => void },
): Promise<DatabaseHandle> {
  if (config.DATABASE_URL)
    return { connectionString: config.DATABASE_URL, embedded: false, stop: async () => {} };
  const passwordFile = path.resolve(config.DATA_DIR, 'pg-password');
  const url = async () =>
    `postgres://pawhaven:${encodeURIComponent((await readFile(passwordFile, 'utf8')).trim())}@localhost:${config.EMBEDDED_PG_PORT}/pawhaven`;
  if (existsSync(passwordFile) && (await reachable(await url()))) {
    if (!opts.reuseRunning)
      throw new Error(
        `PawHaven's database under ${config.DATA_DIR} is already running (port ${config.EMBEDDED_PG_PORT}). Is PawHaven already started?`,
      );
    return { connectionString: await url(), embedded: true, stop: async () => {} };
  }
  const started = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
    onLog: opts.onLog,
  });
  return { connectionString: started.connectionString, embedded: true, stop: started.stop };
}

async function reachable(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
