import type { Knex } from 'knex';
import type { RecordedEvent } from '../event-store/event-store';
import type { Notices } from './notices';

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
  /**
   * Applies one event to the read model. Live projection also hands `notices`, for the realtime gateway
   * (`notices.ts`); replays hand a sink that drops them.
   */
  apply(tx: Knex.Transaction, event: RecordedEvent, notices: Notices): Promise<void>;
};

export const defineProjection = (p: Projection): Projection => p;
