import type { Knex } from 'knex';
import type { RecordedEvent } from '../event-store/event-store';
import { evolveLive, runInOneStatement, type Statement } from './live-batch';
import { NO_NOTICES, type ChangeNotice, type Notices } from './notices';
import type { Projection } from './projection';
import { memoryStore, type Row, type RowStore, type TableSpec, type TableSpecs } from './row-store';

/**
 * A read model written once: its tables (primary key, the columns it finds rows by) and one synchronous `evolve` per
 * event against those rows. The same `evolve` keeps the model live and rebuilds it:
 * - live, the projector evolves a batch of events over the tables (`evolveTogether`, every read model of the batch
 *   at once): rows are read as `evolve` first asks for them (all a pass misses in one round trip), the changes kept
 *   aside and written back at the batch's end in one statement, in the projector's transaction (`live-batch.ts`);
 * - in a rebuild, it evolves rows held in memory (`fold`), which are then written in bulk like any fold's.
 * A batch consumer of another log (a Kafka topic, say) runs it the same way in its transaction, with its offsets.
 */
export type ReadModel<T extends Record<string, Row>> = Omit<
  Projection,
  'apply' | 'fold' | 'tables' | 'applyBatch' | 'model'
> & {
  tables: TableSpecs<T>;
  /**
   * What one event (of a type in `handles`) does to the rows. Synchronous and free of effects besides `rows` and
   * `notices`: a live batch may run it more than once before its rows are all loaded (only the last run counts).
   */
  evolve(rows: RowStore<T>, event: RecordedEvent, notices: Notices): void;
};

/** What the projector needs of a read model defined once: its tables and its `evolve`. */
export type EvolvingModel = {
  tables: Record<string, TableSpec>;
  evolve(rows: RowStore<Record<string, Row>>, event: RecordedEvent, notices: Notices): void;
};

export function defineReadModel<T extends Record<string, Row>>(model: ReadModel<T>): Projection {
  const { tables, evolve, ...rest } = model;
  const projection: Projection = {
    ...rest,
    tables: Object.keys(tables),
    model: { tables, evolve } as unknown as EvolvingModel,
    applyBatch: async (tx, events, notices) =>
      runInOneStatement(tx, await evolveTogether(tx, [projection], events, notices)),
    apply: (tx, event, notices) => projection.applyBatch!(tx, [event], notices),
    fold: () => {
      const memory = memoryStore(tables);
      return {
        apply: (event) => evolve(memory.store, event, NO_NOTICES),
        rows: memory.rows,
      };
    },
  };
  return projection;
}

/**
 * `events` (in log order) evolved over the tables of every read model of `projections` (those defined once), each
 * model its events of the batch, all together: one round trip per pass loads what any of them missed. Answers
 * their changes as statement steps, for the caller to write with what else its transaction writes
 * (`runInOneStatement`); the notices of the pass written are pushed to `notices`.
 */
export async function evolveTogether(
  tx: Knex.Transaction,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
  notices: Notices,
): Promise<Statement[]> {
  const work: { model: EvolvingModel; events: RecordedEvent[] }[] = [];
  const specs: Record<string, TableSpec> = {};
  for (const p of projections) {
    const handled = p.model ? events.filter((e) => p.handles.includes(e.type)) : [];
    if (handled.length === 0) continue;
    work.push({ model: p.model!, events: handled });
    for (const [name, spec] of Object.entries(p.model!.tables)) {
      if (specs[name]) throw new Error(`table ${name} belongs to two read models`);
      specs[name] = spec;
    }
  }
  if (work.length === 0) return [];
  let pushed: ChangeNotice[] = [];
  const { changes } = await evolveLive(tx, specs, (rows) => {
    // Only the last pass's notices count; a replay's stay NO_NOTICES (a model may skip work for them).
    pushed = [];
    const collect: Notices = notices === NO_NOTICES ? NO_NOTICES : { push: (n) => void pushed.push(n) };
    for (const { model, events: handled } of work)
      for (const event of handled) model.evolve(rows as RowStore<Record<string, Row>>, event, collect);
  });
  for (const notice of pushed) notices.push(notice);
  return changes;
}
