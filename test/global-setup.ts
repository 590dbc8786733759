import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectDatabase, freePort, migrate, startEmbeddedPostgres } from '@pawhaven/platform';
import { allMigrations } from '@pawhaven/projections/migrations';

/** One real PostgreSQL for the whole run; each test file clones its own database from a migrated template. */
type Shared = { ready: Promise<{ adminUrl: string; stop(): Promise<void> }>; users: number };
const shared = globalThis as typeof globalThis & { __pawhavenTestPg?: Shared };

export default async function setup(project: TestProject) {
  // Vitest runs this once per project in the same process: share one server between them.
  shared.__pawhavenTestPg ??= { ready: startServer(), users: 0 };
  const entry = shared.__pawhavenTestPg;
  entry.users++;
  const { adminUrl } = await entry.ready;
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', 'pawhaven_template');
  return async () => {
    if (--entry.users > 0) return;
    shared.__pawhavenTestPg = undefined;
    await (await entry.ready).stop();
  };
}

async function startServer() {
  const port = await freePort();
  const dataDir = path.join(tmpdir(), `pawhaven-test-pg-${process.pid}-${port}`);
  await rm(dataDir, { recursive: true, force: true });
  const pg = await startEmbeddedPostgres({ dataDir, port, database: 'pawhaven_template' });
  const db = connectDatabase(pg.connectionString, { max: 2 });
  await migrate(db.knex, allMigrations);
  await db.close();
  return {
    adminUrl: pg.adminConnectionString,
    async stop() {
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
