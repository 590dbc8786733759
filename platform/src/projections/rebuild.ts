import type { Knex } from 'knex';
import type { EventStore, LogPosition } from '../event-store/event-store';
import { START } from '../event-store/event-store';
import { recordProjectionError } from './checkpoints';
import { FoldThreadFailed } from './fold-thread';
import type { Projection } from './projection';
import { countUpTo, rebuildFolded } from './rebuild-fold-pass';
import { withRebuildLock } from './rebuild-lock';
import { catchUpAndSwap, checkStillWanted, replayThroughApply } from './rebuild-swap';
import { ShadowTables } from './shadow-tables';

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
 * Rebuilds a projection blue/green (see 'Projections' in docs/architecture.md): the whole log is replayed into shadow
 * copies of its tables (temporary tables on a connection of the rebuild's own, see `ShadowTables`) while the live
 * tables keep serving reads and the live projector keeps them current; then ONE transaction locks the live checkpoint
 * row (the live projector's batch waits on it), replays into the shadow whatever the live model has seen beyond it,
 * makes the live tables equal to the shadow (only rows that differ are written) and stores the checkpoint. Readers
 * see the old model or the rebuilt one, never an empty or partial one, and the checkpoint never goes back.
 *
 * A projection with a `fold` is replayed in memory (`rebuild-fold-pass.ts`) and, usually, compared with the live
 * tables and written in place (`write-folds.ts`, `write-in-place.ts`: the same one transaction, only differing rows
 * written, no shadow copies); one without replays `apply` as above.
 *
 * The checkpoint ends where the live one was, or further if the replay went further (nobody was projecting):
 * then a live projector notices it moved, leaves its group and follows on alone from the stored checkpoint.
 * Either way every event is applied exactly once to what readers see. The CLI and the dashboard both call this.
 */
export async function rebuildProjection(
  knex: Knex,
  store: EventStore,
  projection: Projection,
  onProgress: (p: RebuildProgress) => void = () => {},
  opts: RebuildOptions = {},
): Promise<RebuildResult> {
  if (projection.fold) {
    const [result] = await rebuildFolded(
      knex,
      store,
      [projection],
      ({ processed, total }) => onProgress({ name: projection.name, processed, total }),
      opts,
    );
    return result!;
  }
  return rebuildByApply(knex, store, projection, onProgress, opts);
}

/** Where a shadow's replay stands: it holds every event up to `at`, `processed` of them. */
export type Replayed = { at: LogPosition; processed: number };

/** The apply path: replays the whole log through `projection.apply` into the shadow, then swaps. */
async function rebuildByApply(
  knex: Knex,
  store: EventStore,
  projection: Projection,
  onProgress: (p: RebuildProgress) => void,
  opts: RebuildOptions,
): Promise<RebuildResult> {
  const started = performance.now();
  const head = await store.headPosition();
  const total = await countUpTo(knex, head);
  const shadow = await ShadowTables.create(knex, projection);
  try {
    const replayed: Replayed = { at: START, processed: 0 };
    const report = () =>
      onProgress({
        name: projection.name,
        processed: replayed.processed,
        total: Math.max(total, replayed.processed),
      });
    report();
    await replayThroughApply(
      shadow,
      store.readAll(START, { batchSize: opts.batchSize ?? 1000, upTo: head }),
      replayed,
      opts,
      report,
    );
    return await catchUpAndSwap(knex, store, projection, shadow, replayed, started, opts, report);
  } finally {
    await shadow.close();
  }
}

/** `RebuildRunProgress.current` while the folds read the log, before any projection is written. */
export const EVENT_LOG = 'event log';

export type RebuildRunProgress = {
  /** The projection being rebuilt, or EVENT_LOG while the log is read for every fold at once. */
  current: string;
  /** 1-based index of `current` among `count` (0 for EVENT_LOG). */
  index: number;
  count: number;
  /** Events replayed over the whole run, and the run's estimated total (one pass for all folds, one per other projection). */
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
  return withRebuildLock(knex, async () => {
    opts.onLocked?.();
    const started = performance.now();
    const folded = projections.filter((p) => p.fold);
    const applied = projections.filter((p) => !p.fold);
    // Every fold shares one read of the log; every other projection reads it once more.
    const passes = (folded.length > 0 ? 1 : 0) + applied.length;
    let done = 0;
    let pass = 0;
    let current: string = EVENT_LOG;
    const report = (at: string, index: number, processed: number, total: number) => {
      current = at;
      const all = done + processed;
      const estimate = Math.max(all, done + total * (passes - pass));
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
      if (folded.length > 0) {
        results.push(
          ...(await rebuildFolded(
            knex,
            store,
            folded,
            ({ processed, total, writing, started }) =>
              report(writing ?? EVENT_LOG, started, processed, total),
            opts,
          )),
        );
        done += results[0]?.processed ?? 0;
        pass++;
      }
      for (const projection of applied) {
        const index = folded.length + applied.indexOf(projection) + 1;
        const result = await rebuildByApply(
          knex,
          store,
          projection,
          ({ processed, total }) => report(projection.name, index, processed, total),
          opts,
        );
        done += result.processed;
        pass++;
        results.push(result);
      }
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
