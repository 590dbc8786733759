import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config';
import { alreadyRunning, findRunningOwner } from './data-dir-owner';
import { startEmbeddedPostgres } from './embedded-postgres';
import { waitUntil } from './processes';
import { StartError } from './start-error';

export type DatabaseHandle = {
  connectionString: string;
  embedded: boolean;
  /** Stopping is under way (Ctrl-C reached the embedded server too): its exit is no crash to recover from. */
  expectStop(): void;
  stop(): Promise<void>;
};

const external = (connectionString: string, embedded: boolean): DatabaseHandle => ({
  connectionString,
  embedded,
  expectStop: () => {},
  stop: async () => {},
});

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR. Tools (rebuild CLI, bench) reuse a
 * server that `npm start` is already running rather than starting a second one on the same data; `npm start` itself
 * refuses to run twice on one data folder. A server whose starter has died is not reused but stopped and started
 * afresh (see startEmbeddedPostgres).
 */
export async function databaseFromConfig(
  config: Config,
  opts: { reuseRunning: boolean; onLog?: (line: string) => void; onNotice?: (message: string) => void },
): Promise<DatabaseHandle> {
  if (config.DATABASE_URL) return external(config.DATABASE_URL, false);
  const dataDir = path.resolve(config.DATA_DIR);
  for (let attempt = 0; ; attempt++) {
    const owner = await findRunningOwner(dataDir);
    if (owner) {
      if (!opts.reuseRunning) throw alreadyRunning(dataDir, owner);
      return reuse(dataDir, owner.pgPort ?? config.EMBEDDED_PG_PORT, owner.pid);
    }
    try {
      const started = await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        port: config.EMBEDDED_PG_PORT,
        onLog: opts.onLog,
        onNotice: opts.onNotice ?? ((message) => console.log(message)),
      });
      return {
        connectionString: started.connectionString,
        embedded: true,
        expectStop: started.expectStop,
        stop: started.stop,
      };
    } catch (error) {
      // Another process took the folder between the look and the start: a tool may use its server.
      const raced = error instanceof StartError && error.reason === 'already-running';
      if (!raced || !opts.reuseRunning || attempt > 0) throw error;
    }
  }
}

/** The server of the live process `owner` (the running app), once it answers; it may still be starting. */
async function reuse(dataDir: string, port: number, owner: number): Promise<DatabaseHandle> {
  const passwordFile = path.join(dataDir, 'pg-password');
  let connectionString = '';
  const answers = async () => {
    const password = await readFile(passwordFile, 'utf8').catch(() => undefined);
    if (password === undefined) return false;
    connectionString = `postgres://pawhaven:${encodeURIComponent(password.trim())}@localhost:${port}/pawhaven`;
    return reachable(connectionString);
  };
  if (await waitUntil(answers, 30_000)) return external(connectionString, true);
  throw new StartError(
    `PawHaven's database under ${dataDir} belongs to process ${owner}, but does not answer on port ${port}.`,
    `Wait until that process has finished starting, or stop it (Ctrl-C in its terminal, or \`kill ${owner}\`) and try again.`,
    { reason: 'already-running' },
  );
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
