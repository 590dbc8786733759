import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { noteIfDatabaseUnavailable } from '../db/availability';
import type { EventStore, LogPosition } from '../event-store/event-store';
import { logger } from '../logger';
import { applyBatch, CheckpointMoved, readCheckpoint, recordProjectionError } from './checkpoints';
import type { Projection } from './projection';

export type ProjectorOptions = { batchSize?: number; retryDelayMs?: number };

/**
 * Keeps every projection live. Projections whose checkpoints agree follow the log together: one reader, and one
 * transaction per batch that writes all their read models and checkpoints. A projection whose checkpoint moves
 * under the group (a rebuild) leaves it and follows the log on its own from its stored checkpoint.
 */
export async function runProjector(
  knex: Knex,
  store: EventStore,
  projections: readonly Projection[],
  signal: AbortSignal,
  opts: ProjectorOptions = {},
): Promise<void> {
  const groups = new Map<string, Projection[]>();
  for (const p of projections) {
    const at = await untilReachable(() => readCheckpoint(knex, p.name), signal, opts);
    if (at === undefined) return; // stopped meanwhile
    const key = `${at.transactionId}/${at.position}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const running: Promise<void>[] = [];
  const runGroup = (members: Projection[]) => {
    running.push(followTogether(knex, store, members, signal, opts, (left) => runGroup([left])));
  };
  for (const members of groups.values()) runGroup(members);
  // Groups may spawn solo followers while running; wait until every one has stopped.
  for (let i = 0; i < running.length; i++) await running[i];
}

async function followTogether(
  knex: Knex,
  store: EventStore,
  initial: Projection[],
  signal: AbortSignal,
  opts: ProjectorOptions,
  detach: (p: Projection) => void,
): Promise<void> {
  let members = [...initial];
  let failures = 0;
  while (!signal.aborted && members.length > 0) {
    try {
      let at: LogPosition = await readCheckpoint(knex, members[0]!.name);
      await store.subscribeAll(
        at,
        async (batch) => {
          at = await applyBatch(knex, members, batch, at);
          failures = 0;
        },
        signal,
        { batchSize: opts.batchSize ?? 500 },
      );
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof CheckpointMoved) {
        members = members.filter((m) => m !== error.projection);
        detach(error.projection);
        continue;
      }
      failures++;
      // The database away (a restart, a failover): nothing to record, and no reason to wait long once it is back.
      if (noteIfDatabaseUnavailable(error, 'projector')) {
        await pause(retryDelay(opts, failures, 1000), signal);
        continue;
      }
      logger.error(
        { err: error, projections: members.map((m) => m.name) },
        'projection failed; retrying from its checkpoint',
      );
      await recordProjectionError(
        knex,
        members.map((m) => m.name),
        error,
      );
      await pause(retryDelay(opts, failures, 10_000), signal);
    }
  }
}

/** A growing delay between attempts, up to `capMs`. */
const retryDelay = (opts: ProjectorOptions, failures: number, capMs: number) =>
  Math.min((opts.retryDelayMs ?? 200) * 2 ** Math.min(failures, 6), capMs);

/** Waits `ms`, or less when the projector is stopped meanwhile. */
const pause = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => {});

/** `read`, tried again while the database cannot be reached; undefined when stopped first. */
async function untilReachable<T>(
  read: () => Promise<T>,
  signal: AbortSignal,
  opts: ProjectorOptions,
): Promise<T | undefined> {
  for (let failures = 1; !signal.aborted; failures++) {
    try {
      return await read();
    } catch (error) {
      if (!noteIfDatabaseUnavailable(error, 'projector')) throw error;
      await pause(retryDelay(opts, failures, 1000), signal);
    }
  }
  return undefined;
}
