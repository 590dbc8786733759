import type { Knex } from 'knex';
import type { EventStore, LogPosition } from '../event-store/event-store';
import { logger } from '../logger';
import { applyBatch, CheckpointMoved, readCheckpoint } from './checkpoints';
import type { Projection } from './projection';

export type ProjectorOptions = { batchSize?: number; retryDelayMs?: number };

/**
 * Keeps every projection live: each follows the log from its own checkpoint (catch-up, then live).
 * A handler failure or a moved checkpoint restarts that projection from its stored checkpoint.
 */
export function runProjector(
  knex: Knex,
  store: EventStore,
  projections: readonly Projection[],
  signal: AbortSignal,
  opts: ProjectorOptions = {},
): Promise<void> {
  return Promise.all(projections.map((p) => runOne(knex, store, p, signal, opts))).then(() => undefined);
}

async function runOne(knex: Knex, store: EventStore, projection: Projection, signal: AbortSignal, opts: ProjectorOptions) {
  let failures = 0;
  while (!signal.aborted) {
    try {
      let at: LogPosition = await readCheckpoint(knex, projection.name);
      await store.subscribeAll(
        at,
        async (batch) => {
          at = await applyBatch(knex, projection, batch, at);
          failures = 0;
        },
        signal,
        { batchSize: opts.batchSize ?? 500 },
      );
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof CheckpointMoved)) {
        failures++;
        logger.error({ err: error, projection: projection.name }, 'projection failed; retrying from its checkpoint');
        const delay = Math.min((opts.retryDelayMs ?? 200) * 2 ** Math.min(failures, 6), 10_000);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }
}
