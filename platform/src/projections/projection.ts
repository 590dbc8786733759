import type { Knex } from 'knex';
import type { RecordedEvent } from '../event-store/event-store';

/** A named read model: which tables it owns, and how one event changes them. */
export type Projection = {
  name: string;
  /**
   * Tables this projection alone writes, named unqualified in `apply`: a rebuild fills temporary copies of them
   * beside the live tables and swaps the result in (blue/green, `rebuild.ts`).
   */
  tables: readonly string[];
  /** Event types it reacts to; every other event only moves its checkpoint. */
  handles: readonly string[];
  apply(tx: Knex.Transaction, event: RecordedEvent): Promise<void>;
};

export const defineProjection = (p: Projection): Projection => p;
