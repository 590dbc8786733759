import type { Knex } from 'knex';
import type { EventStore, LogPosition } from '../event-store/event-store';
import { recordProjectionError } from './checkpoints';
import { FoldThreadFailed } from './fold-thread';
import type { Projection } from './projection';
import { rebuildFolded } from './rebuild-fold-pass';
import { withRebuildLock } from './rebuild-lock';
import { checkStillWanted } from './rebuild-swap';

// Among the platform's exports (index.ts), as the rest of this module.
export { checkStillWanted };
export { rebuildIsRunning, RebuildAlreadyRunning } from './rebuild-lock';

export type RebuildProgress = { name: string; processed: number; total: number };
export type RebuildResult = {
  name: string;
  processed: number;
  seconds: number;
  eventsPerSecond: number;
  /**
   * How long the swap transaction held the live checkpoint row: the live projector's group waited that long, and,
   * as with any writing transaction, subscribers saw no event committed after it began. Readers never wait.
   */
  swapMs: number;
  /** Live rows the swap inserted, updated or deleted: 0 when the read model already matched the log. */
  changedRows: number;
  /** Whether the rebuild's second thread folded and wrote it (`fold-thread.ts`). */
  foldThread: boolean;
};

export type RebuildOptions = {
  /** Events read per page, and at most per shadow transaction. */
  batchSize?: number;
  /**
   * A shadow transaction commits after about this long: while it runs, it holds back the event log's visibility
   * horizon for every subscriber (readers only see transactions older than the oldest running one).
   */
  maxTransactionMs?: number;
  /** Aborted: the rebuild fails at its next batch (the app is stopping), the live read models as they were. */
  signal?: AbortSignal;
  /**
   * Logs of at least this many events fold part of the projections on a second thread (`fold-thread.ts`), when they
   * can be imported there (`importableFrom`): 0 always, Infinity never.
   */
  foldThreadFrom?: number;
};

/**
 * Rebuilds a projection (see 'Projections' in docs/architecture.md): the whole log is folded in memory through the
 * projection's `fold` (`rebuild-fold-pass.ts`) while the live tables keep serving reads and the live projector keeps
 * them current; then ONE transaction locks the live checkpoint row (the live projector's batch waits on it), brings
 * the folded model up to what the live model has seen beyond it, makes the live tables equal to it (only rows that
 * differ are written: in place, `write-in-place.ts`, or through shadow copies where a table does not allow that,
 * `shadow-tables.ts`) and stores the checkpoint. Readers see the old model or the rebuilt one, never an empty or
 * partial one, and the checkpoint never goes back. A projection without a fold (a reactor) is not rebuilt.
 */
export async function rebuildProjection(
  knex: Knex,
  store: EventStore,
  projection: Projection,
  onProgress: (p: RebuildProgress) => void = () => {},
  opts: RebuildOptions = {},
): Promise<RebuildResult> {
  requireFolds([projection]);
  const [result] = await rebuildFolded(
    knex,
    store,
    [projection],
    ({ processed, total }) => onProgress({ name: projection.name, processed, total }),
    opts,
  );
  return result!;
}

/** Where a shadow's replay stands: it holds every event up to `at`, `processed` of them. */
export type Replayed = { at: LogPosition; processed: number };

/** Only a read model with a fold can be rebuilt (every one defined with `defineReadModel` has one). */
function requireFolds(projections: readonly Projection[]): void {
  const without = projections.filter((p) => !p.fold).map((p) => p.name);
  if (without.length > 0)
    throw new Error(`${without.join(', ')} cannot be rebuilt: no fold (define it with defineReadModel)`);
}

/** `RebuildRunProgress.current` while the folds read the log, before any projection is written. */
export const EVENT_LOG = 'event log';

export type RebuildRunProgress = {
  /** The projection being rebuilt, or EVENT_LOG while the log is read for every fold at once. */
  current: string;
  /** 1-based index of `current` among `count` (0 for EVENT_LOG). */
  index: number;
  count: number;
  /** Events replayed over the whole run (one pass of the log for every fold), and the run's estimated total. */
  processed: number;
  total: number;
  eventsPerSecond: number;
  /** Seconds left at the current rate; null before anything was measured. */
  etaSeconds: number | null;
};

/**
 * Takes the rebuild lock (or throws RebuildAlreadyRunning), then rebuilds each projection in turn with
 * `rebuildProjection`, reporting the whole run's progress with its rate and ETA. The CLI and the dashboard both run
 * rebuilds through this, so two can never overlap, wherever they were started (`rebuild-lock.ts`).
 */
export async function rebuildProjections(
  knex: Knex,
  store: EventStore,
  projections: readonly Projection[],
  onProgress: (p: RebuildRunProgress) => void = () => {},
  opts: RebuildOptions & { onLocked?: () => void } = {},
): Promise<RebuildResult[]> {
  requireFolds(projections);
  return withRebuildLock(knex, async () => {
    opts.onLocked?.();
    const started = performance.now();
    // Every fold shares one read of the log.
    let current: string = EVENT_LOG;
    const report = (at: string, index: number, processed: number, total: number) => {
      current = at;
      const all = processed;
      const estimate = Math.max(all, total);
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? all / seconds : 0;
      onProgress({
        current: at,
        index,
        count: projections.length,
        processed: all,
        total: estimate,
        eventsPerSecond: Math.round(rate),
        etaSeconds: rate > 0 ? Math.round(((estimate - all) / rate) * 10) / 10 : null,
      });
    };
    const results: RebuildResult[] = [];
    try {
      if (projections.length > 0)
        results.push(
          ...(await rebuildFolded(
            knex,
            store,
            projections,
            ({ processed, total, writing, started }) =>
              report(writing ?? EVENT_LOG, started, processed, total),
            opts,
          )),
        );
    } catch (error) {
      // On the fold thread's projections if it failed; else on the projection being written; while the log was
      // read, on every one of them.
      const failed =
        error instanceof FoldThreadFailed
          ? error.projections
          : projections.some((p) => p.name === current)
            ? [current]
            : projections.map((p) => p.name);
      await recordProjectionError(knex, failed, error);
      throw error;
    }
    return results;
  });
}
