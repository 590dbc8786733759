import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import {
  connectDatabase,
  freePort,
  migrate,
  platformMigrations,
  startEmbeddedPostgres,
} from '@pawhaven/platform';

export type BenchServer = {
  connectionString: string;
  version: string;
  dataDir: string;
  stop(): Promise<void>;
};

/**
 * A throwaway embedded PostgreSQL with the platform schema, on a free port, in a fresh directory; or, with `kept`,
 * in `.data/bench-pg/kept`, reused from the last run and left in place (for data a section keeps between runs).
 */
export async function startBenchPostgres(kept = false): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = path.resolve('.data', 'bench-pg', kept ? 'kept' : `${process.pid}-${port}`);
  if (!kept) await rm(dataDir, { recursive: true, force: true });
  let pgServer: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    pgServer = await startEmbeddedPostgres({ dataDir, port, database: 'pawhaven_bench' });
  } catch (error) {
    if (!kept) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const db = connectDatabase(pgServer.connectionString, { max: 2 });
  let version = 'unknown';
  try {
    await migrate(db.knex, platformMigrations);
    const client = new pg.Client({ connectionString: pgServer.connectionString });
    await client.connect();
    version =
      (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ??
      version;
    await client.end();
  } finally {
    await db.close();
  }
  return {
    connectionString: pgServer.connectionString,
    version,
    dataDir,
    async stop() {
      await pgServer.stop();
      if (!kept) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new, empty database on the bench's server with the product's whole schema, for a section whose data would
 * weigh on the others (a million events). Answers its connection string.
 */
export async function freshDatabase(
  connectionString: string,
  name: string,
  /** A database to copy instead of starting empty. */
  template?: string,
): Promise<string> {
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    // A template must have no session: one just closed may not have ended on the server yet.
    if (template)
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [
        template,
      ]);
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(connectionString);
  url.pathname = `/${name}`;
  return url.toString();
}
