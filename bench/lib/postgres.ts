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

/** A throwaway embedded PostgreSQL with the platform schema, on a free port, in a fresh directory. */
export async function startBenchPostgres(): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = path.resolve('.data', 'bench-pg', `${process.pid}-${port}`);
  await rm(dataDir, { recursive: true, force: true });
  let pgServer: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    pgServer = await startEmbeddedPostgres({ dataDir, port, database: 'pawhaven_bench' });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
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
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new, empty database on the bench's server with the product's whole schema, for a section whose data would
 * weigh on the others (a million events). Answers its connection string.
 */
export async function freshDatabase(connectionString: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(connectionString);
  url.pathname = `/${name}`;
  return url.toString();
}
