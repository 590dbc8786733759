import type { Knex } from 'knex';
import type { EventStore } from '../event-store/event-store';
import type { RebuildOptions, RebuildResult, Replayed } from './rebuild';
import type { FoldFeed } from './rebuild-fold-pass';
import { catchUpAndSwap, checkStillWanted, rebuildInPlace } from './rebuild-swap';
import { ShadowTables } from './shadow-tables';
import type { LiveSnapshot } from './write-in-place';

/** How a write phase tells its caller which projection it is writing (with its catch-up's count) and progress. */
export type WriteProgress = { writing(name: string, own?: Replayed): void; report(): void };

/**
 * The write phase of the fold path, for folds that hold the log up to `replayed.at`: each projection written in place
 * (`rebuildInPlace`), or, where its tables do not allow that, its folded rows loaded into fresh shadow copies and
 * swapped in like the apply path (events committed since are replayed through `apply` first). Two projections are
 * written at a time, the one fed most events first; runs on the fold thread too (with its events read here).
 */
export async function writeFolds(
  knex: Knex,
  store: Pick<EventStore, 'readAll'>,
  folds: readonly FoldFeed[],
  replayed: Replayed,
  started: number,
  opts: RebuildOptions,
  progress: WriteProgress,
  /** Live rows read ahead, by projection name (the fold thread reads its projections' during the pass). */
  ahead: ReadonlyMap<string, Promise<LiveSnapshot | null>> = new Map(),
): Promise<RebuildResult[]> {
  const results: RebuildResult[] = [];
  // While PostgreSQL loads and merges one projection through shadow copies, this thread compares another in place;
  // the largest model first, so that it overlaps the small ones.
  const queue = [...folds].sort((a, b) => b.fed - a.fed);
  let next = 0;
  // One in-place write at a time: it is this thread's work (reading and comparing), so two at once took as long
  // in all and held each projection's checkpoint row (the live projector waiting) twice as long.
  let inPlaceTurn: Promise<unknown> = Promise.resolve();
  const writeNext = async (): Promise<void> => {
    for (let k = next++; k < queue.length; k = next++) {
      checkStillWanted(opts.signal);
      const { projection, fold } = queue[k]!;
      const own: Replayed = {
        at: { transactionId: replayed.at.transactionId, position: replayed.at.position },
        processed: replayed.processed,
      };
      progress.writing(projection.name, own);
      const report = () => progress.report();
      const turn = inPlaceTurn.then(() =>
        rebuildInPlace(knex, store, projection, fold, own, started, opts, report, ahead.get(projection.name)),
      );
      inPlaceTurn = turn.catch(() => {});
      const inPlace = await turn;
      if (inPlace) {
        results.push(inPlace);
        continue;
      }
      const shadow = await ShadowTables.create(knex, projection);
      try {
        await shadow.load(fold.rows());
        results.push(await catchUpAndSwap(knex, store, projection, shadow, own, started, opts, report));
      } finally {
        await shadow.close();
      }
    }
  };
  await Promise.all([writeNext(), writeNext()]);
  return results;
}
