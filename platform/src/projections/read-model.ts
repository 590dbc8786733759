import type { RecordedEvent } from '../event-store/event-store';
import { NO_NOTICES, type ChangeNotice, type Notices } from './notices';
import type { Projection } from './projection';
import { memoryStore, runBatch, type Row, type RowStore, type TableSpecs } from './row-store';

/**
 * A read model written once: its tables (primary key, the columns it finds rows by) and one synchronous `evolve` per
 * event against those rows. The same `evolve` keeps the model live and rebuilds it:
 * - live, the projector hands it a batch of events (`applyBatch`): rows are read from the tables as `evolve` first
 *   asks for them (all a pass misses in one round trip), its changes kept aside and written back at the batch's end
 *   in one statement, in the projector's transaction (`row-store.ts`, `runBatch`);
 * - in a rebuild, it evolves rows held in memory (`fold`), which are then written in bulk like any fold's.
 * A batch consumer of another log (a Kafka topic, say) runs it the same way: `applyBatch` in its transaction, with
 * its offsets.
 */
export type ReadModel<T extends Record<string, Row>> = Omit<
  Projection,
  'apply' | 'fold' | 'tables' | 'applyBatch'
> & {
  tables: TableSpecs<T>;
  /**
   * What one event (of a type in `handles`) does to the rows. Synchronous and free of effects besides `rows` and
   * `notices`: a live batch may run it more than once before its rows are all loaded (only the last run counts).
   */
  evolve(rows: RowStore<T>, event: RecordedEvent, notices: Notices): void;
};

export function defineReadModel<T extends Record<string, Row>>(model: ReadModel<T>): Projection {
  const { tables, evolve, ...rest } = model;
  const applyBatch: NonNullable<Projection['applyBatch']> = async (tx, events, notices) => {
    let pushed: ChangeNotice[] = [];
    await runBatch(tx, tables, (rows) => {
      // Only the last run's notices count; a replay's stay NO_NOTICES (a model may skip work for them).
      pushed = [];
      const collect: Notices = notices === NO_NOTICES ? NO_NOTICES : { push: (n) => void pushed.push(n) };
      for (const event of events) evolve(rows, event, collect);
    });
    for (const notice of pushed) notices.push(notice);
  };
  return {
    ...rest,
    tables: Object.keys(tables),
    applyBatch,
    apply: (tx, event, notices) => applyBatch(tx, [event], notices),
    fold: () => {
      const memory = memoryStore(tables);
      return {
        apply: (event) => evolve(memory.store, event, NO_NOTICES),
        rows: memory.rows,
      };
    },
  };
}
