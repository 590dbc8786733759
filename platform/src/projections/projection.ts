import type { Knex } from 'knex';
import type { RecordedEvent } from '../event-store/event-store';
import type { Notices } from './notices';
import type { EvolvingModel } from './read-model';

/**
 * A named read model: which tables it owns, and how events change them. Write a new one with `defineReadModel`
 * (`read-model.ts`): one `evolve` from which `apply`, `applyBatch` and `fold` are all derived. `defineProjection`,
 * with `apply` and `fold` written separately, remains for the models not moved to it yet.
 */
export type Projection = {
  name: string;
  /**
   * Tables this projection alone writes, named unqualified in `apply`: a rebuild computes their rows and makes the
   * live tables equal to them in one transaction (in place, or through temporary copies swapped in: `rebuild.ts`).
   */
  tables: readonly string[];
  /** Event types it reacts to; every other event only moves its checkpoint. */
  handles: readonly string[];
  /**
   * Applies one event to the read model. Live projection also hands `notices`, for the realtime gateway
   * (`notices.ts`); replays hand a sink that drops them.
   */
  apply(tx: Knex.Transaction, event: RecordedEvent, notices: Notices): Promise<void>;
  /**
   * Applies a batch of events (in log order, only types it `handles`) in one go: a read model defined once
   * (`defineReadModel`) loads the rows the batch needs and writes its changes back at the end.
   */
  applyBatch?(tx: Knex.Transaction, events: readonly RecordedEvent[], notices: Notices): Promise<void>;
  /**
   * A read model defined once: its tables and `evolve` (`defineReadModel`). The projector evolves every such model
   * of a batch together (`evolveTogether`: one load per pass and one write for all of them); the others `apply`.
   */
  model?: EvolvingModel;
  /**
   * The same read model computed in memory, for rebuilds: one pass over the log feeds every projection's fold, and
   * each table is then written once, in bulk. Replaying `apply` (a few statements per event) caps a rebuild at a few
   * thousand events a second; a fold runs at the speed of reading the log. Without one, a rebuild replays `apply`.
   * Every rebuild test compares the rebuilt rows with what `apply` built live, so the two cannot drift apart unseen
   * (for a model defined once both run the same `evolve`, over memory or over its tables).
   */
  fold?: () => ProjectionFold;
  /**
   * False when its model holds no personal field (e-mails, texts… contracts' PERSONAL_DATA), so a rebuild may feed
   * its fold events with those fields still sealed, and skip opening them where no other fold needs them; a list of
   * event types when it reads only theirs. Undeclared means it reads them all. The rebuild tests catch a wrong
   * declaration: the fold would write ciphertext.
   */
  readsPersonalData?: false | readonly string[];
  /** Where another thread can import this projection from (`importableFrom`): rebuilds may fold it there. */
  source?: ProjectionSource;
  /**
   * 'stream' when what an event does to its rows depends only on earlier events of the same stream (a session, one
   * ad's history): it may then consume a partitioned bus, where each stream's events come in order but streams
   * interleave differently than in the log. Undeclared: it needs the log's global order (it reads rows other
   * streams' events wrote), and follows the store.
   */
  order?: 'stream';
};

/** A module's URL and the name of its export holding a projection, or a list of them (found by name). */
export type ProjectionSource = { module: string; exportName: string };

/**
 * `projections` as exported by `module` under `exportName`, each knowing it: a rebuild's second thread
 * (`fold-thread.ts`) imports them from there, as functions cannot be sent to it.
 */
export const importableFrom = (
  module: string,
  exportName: string,
  projections: readonly Projection[],
): readonly Projection[] => projections.map((p) => ({ ...p, source: { module, exportName } }));

/** One row as column → value, the value as `apply` would write it (JSON-able: PostgreSQL casts it to the column). */
export type FoldedRow = Record<string, unknown>;

export type ProjectionFold = {
  /** One event of a type the projection `handles`, in log order. */
  apply(event: RecordedEvent): void;
  /**
   * Every row of each of the projection's `tables` after the applied events, exactly as `apply` would have left them
   * (all columns `apply` writes, defaults included). Tables without rows may be left out.
   */
  rows(): Record<string, Iterable<FoldedRow>>;
};

export const defineProjection = (p: Projection): Projection => p;
