import type { Knex } from 'knex';

/** Thrown by `rebuildProjections` while another rebuild runs anywhere (any process, CLI or dashboard). */
export class RebuildAlreadyRunning extends Error {
  constructor() {
    super('A rebuild is already running. Wait for it to finish.');
  }
}

/** The advisory lock every rebuild holds (two int4 keys: 'pawh', 1), visible in pg_locks. */
const REBUILD_LOCK = [0x70617768, 1] as const;

/** Whether a rebuild holds the lock now, in any process. */
export async function rebuildIsRunning(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: { held: boolean }[] }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND classid = ? AND objid = ? AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
    [REBUILD_LOCK[0], REBUILD_LOCK[1]],
  );
  return rows[0]?.held === true;
}

/**
 * Runs `run` holding the rebuild lock, or throws RebuildAlreadyRunning. The lock is a session advisory lock on a
 * connection held for the run: a process that dies releases it with its connection.
 */
export async function withRebuildLock<T>(knex: Knex, run: () => Promise<T>): Promise<T> {
  const connection = (await knex.client.acquireConnection()) as {
    query(sql: string, values?: unknown[]): Promise<{ rows: { locked: boolean }[] }>;
  };
  try {
    const { rows } = await connection.query('SELECT pg_try_advisory_lock($1, $2) AS locked', [
      ...REBUILD_LOCK,
    ]);
    if (!rows[0]?.locked) throw new RebuildAlreadyRunning();
    try {
      return await run();
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1, $2)', [...REBUILD_LOCK]).catch(() => {});
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
