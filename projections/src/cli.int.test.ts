import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminRebuildState } from '@pawhaven/contracts';
import { createTestDatabase } from '@pawhaven/platform/testing';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The environment a user has: the CLI picks its own log level. */
const { LOG_LEVEL: _level, ...withoutLogLevel } = process.env;

type Ran = { code: number; stdout: string; stderr: string };

/** `npm run projections -- …` as a user runs it: its own process, on the database DATABASE_URL names. */
async function projections(databaseUrl: string, ...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: ROOT, env: { ...withoutLogLevel, DATABASE_URL: databaseUrl }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('npm run projections -- rebuild', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase({ max: 4 });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('runs as the dashboard does: its progress and end recorded where the Projections screen reads them', async () => {
    const ran = await projections(db.connectionString, 'rebuild', 'users');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^users: \d+ events processed in /m);
    expect(ran.stderr).toContain('users (1/1)'); // the progress bar
    // Nothing but its own output: the app's structured log lines are not printed.
    expect(ran.stdout + ran.stderr).not.toContain('"level"');
    const { rows } = await db.pool.query<{ state: AdminRebuildState }>(
      'SELECT state FROM rebuild_runs ORDER BY started_at DESC',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toMatchObject({
      target: 'users',
      state: 'finished',
      percent: 100,
      count: 1,
      startedBy: 'command line',
      error: null,
    });
  });

  it('is refused while another rebuild runs anywhere, and records nothing', async () => {
    const holder = await db.pool.connect();
    try {
      // The lock every rebuild holds (`rebuildProjections`): taken here as another process's rebuild would.
      await holder.query(`SELECT pg_advisory_lock(${0x70617768}, 1)`);
      const ran = await projections(db.connectionString, 'rebuild', 'all');
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('A rebuild is already running. Wait for it to finish.');
      const { rows } = await db.pool.query('SELECT 1 FROM rebuild_runs');
      expect(rows).toHaveLength(1); // the first test's run only
    } finally {
      await holder.query(`SELECT pg_advisory_unlock(${0x70617768}, 1)`);
      holder.release();
    }
  });
});
