import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { CONNECTION_SETTINGS } from '../db/database';
import { noteIfDatabaseUnavailable } from '../db/availability';
import { logger } from '../logger';

/**
 * Runs `work` in one process at a time among every process that calls this with the same `name` on the same
 * database: the one whose session holds the advisory lock named after it. The others wait, trying again every
 * `retryMs`, and take over when the holder stops or its connection is lost (the lock goes with the session; `work`'s
 * signal is then aborted). Two projectors following the store would each project every batch and discard half
 * of it (the checkpoint moved under one of them): correct, but twice the work. Correctness never depends on this
 * lock: for a moment after a lost connection two may run, and the checkpoints keep them apart.
 */
export async function oneAtATime(
  connectionString: string,
  name: string,
  work: (signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
  opts: { retryMs?: number; onWaiting?: () => void; onTakingOver?: () => void } = {},
): Promise<void> {
  const retryMs = opts.retryMs ?? 1000;
  let waitingSaid = false;
  while (!signal.aborted) {
    const client = new pg.Client({ connectionString, ...CONNECTION_SETTINGS });
    const lost = new AbortController();
    client.on('error', (error) => {
      noteIfDatabaseUnavailable(error, `${name} (one at a time)`);
      lost.abort();
    });
    client.on('end', () => lost.abort());
    try {
      await client.connect();
      for (;;) {
        const { rows } = await client.query<{ held: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS held',
          [`pawhaven:${name}`],
        );
        if (rows[0]?.held) break;
        if (!waitingSaid) opts.onWaiting?.();
        waitingSaid = true;
        await sleep(retryMs, undefined, { signal: AbortSignal.any([signal, lost.signal]) });
      }
      if (waitingSaid) opts.onTakingOver?.();
      logger.debug({ name }, 'this process runs it now');
      await work(AbortSignal.any([signal, lost.signal]));
    } catch (error) {
      if (!signal.aborted && !lost.signal.aborted && !noteIfDatabaseUnavailable(error, name))
        logger.error({ err: error, name }, 'one-at-a-time work failed; trying again');
    } finally {
      await client.end().catch(() => {});
    }
    if (!signal.aborted) await sleep(retryMs, undefined, { signal }).catch(() => {});
  }
}
