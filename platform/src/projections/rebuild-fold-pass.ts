import type { Knex } from 'knex';
import type { EventStore, LogPosition, RecordedEvent } from '../event-store/event-store';
import { START } from '../event-store/event-store';
import { chunks, EncryptingEventStore } from '../personal-data/encrypting-event-store';
import { chooseForFoldThread, FoldThread } from './fold-thread';
import type { Projection, ProjectionFold } from './projection';
import type { RebuildOptions, RebuildResult, Replayed } from './rebuild';
import { checkStillWanted } from './rebuild-swap';
import { writeFolds, type WriteProgress } from './write-folds';

/** Below this many events, starting a thread (and loading the projections' code in it) costs more than it saves. */
const FOLD_THREAD_FROM = 100_000;

/**
 * The fold path, for any number of projections with a `fold`: reads the log once up to its head, feeding every fold,
 * then writes each projection (`writeFolds`). On a long log the heavier folds run on a second thread
 * (`fold-thread.ts`): this one reads the log, opens personal fields and feeds its own folds, and hands the other
 * thread the events its folds handle; each thread then writes its own projections, both at once. `onProgress`
 * counts events read.
 */
export async function rebuildFolded(
  knex: Knex,
  store: EventStore,
  projections: readonly Projection[],
  /** `writing` is the projection being written and `started` how many have been (0 while the log is read). */
  onProgress: (p: { processed: number; total: number; writing: string | null; started: number }) => void,
  opts: RebuildOptions,
): Promise<RebuildResult[]> {
  const started = performance.now();
  const head = await store.headPosition();
  const total = await countUpTo(knex, head);
  const elsewhere =
    total >= (opts.foldThreadFrom ?? FOLD_THREAD_FROM) ? await chooseForFoldThread(knex, projections) : [];
  const { folds, byType, feed } = foldsOf(projections.filter((p) => !elsewhere.includes(p)));
  // Personal fields are opened only for the folds that read them (`readsPersonalData`): here, those this thread's
  // folds read; on the fold thread, those only its folds read (it opens them with keys of its own).
  const sealed = store instanceof EncryptingEventStore ? store : null;
  const opener = sealed && elsewhere.length > 0 ? sealed.openerSource() : null;
  const readers = (ps: readonly Projection[]) =>
    new Set(ps.flatMap((p) => (p.readsPersonalData === undefined ? p.handles : p.readsPersonalData || [])));
  const openHere = readers(opener ? folds.map((f) => f.projection) : projections);
  const openThere = opener ? [...readers(elsewhere)].filter((type) => !openHere.has(type)) : [];
  const thread =
    elsewhere.length > 0
      ? FoldThread.start(knex, store, elsewhere, { opener, opens: openThere }, opts.signal)
      : null;
  try {
    const forwarded = new Set(elsewhere.flatMap((p) => p.handles));
    const replayed: Replayed = { at: START, processed: 0 };
    let writing: string | null = null;
    let begun = 0;
    // The pass's count, then that of the projection being written (its catch-up adds to the pass's).
    let counted = replayed;
    const report = () =>
      onProgress({
        processed: counted.processed,
        total: Math.max(total, counted.processed),
        writing,
        started: begun,
      });
    report();
    let reported = performance.now();
    // Only the types some fold handles are read (every other event only moves the checkpoints): the pass's count
    // is scaled to the whole log's for progress, and the whole log up to the head counts as replayed at the end.
    const types = [...new Set([...byType.keys(), ...forwarded])];
    const wanted = await countUpTo(knex, head, types);
    let read = 0;
    const reading = { batchSize: opts.batchSize ?? 5000, upTo: head, types };
    for await (const page of chunks(
      sealed ? sealed.readAllSealed(START, reading) : store.readAll(START, reading),
      reading.batchSize,
    ))
      for (const event of sealed ? await openSome(sealed, page, openHere) : page) {
        feed(event);
        if (thread && forwarded.has(event.type)) thread.feed(event);
        read++;
        if ((read & 1023) === 0) {
          checkStillWanted(opts.signal);
          if (performance.now() - reported > 100) {
            replayed.processed = Math.floor((total * read) / Math.max(wanted, 1));
            report();
            reported = performance.now();
          }
        }
      }
    replayed.at = head;
    replayed.processed = total;
    report();

    const progress: WriteProgress = {
      writing(name, own) {
        writing = name;
        begun++;
        counted = own ?? replayed;
        report();
      },
      report,
    };
    const results = (
      await Promise.all([
        writeFolds(knex, store, folds, replayed, started, opts, progress),
        thread ? thread.write(replayed, performance.now() - started, progress) : [],
      ])
    ).flat();
    return projections.map((p) => results.find((r) => r.name === p.name)!);
  } finally {
    await thread?.close();
  }
}

/** `page` with the personal fields of the events of `types` opened (the others as they are). */
export async function openSome(
  opener: { openBatch(batch: RecordedEvent[]): Promise<RecordedEvent[]> },
  page: RecordedEvent[],
  types: ReadonlySet<string>,
): Promise<RecordedEvent[]> {
  const at: number[] = [];
  for (let i = 0; i < page.length; i++) if (types.has(page[i]!.type)) at.push(i);
  if (at.length === 0) return page;
  const opened = await opener.openBatch(at.map((i) => page[i]!));
  const out = page.slice();
  at.forEach((i, k) => (out[i] = opened[k]!));
  return out;
}

/** A projection's fold during a rebuild, with how many events it was fed. */
export type FoldFeed = { projection: Projection; fold: ProjectionFold; fed: number };

/** Fresh folds of `projections`, and `feed`, which hands an event to those that handle its type (either thread). */
export function foldsOf(projections: readonly Projection[]) {
  const folds: FoldFeed[] = projections.map((projection) => ({
    projection,
    fold: projection.fold!(),
    fed: 0,
  }));
  const byType = new Map<string, FoldFeed[]>();
  for (const f of folds)
    for (const type of f.projection.handles) byType.set(type, [...(byType.get(type) ?? []), f]);
  const feed = (event: RecordedEvent) => {
    const feeds = byType.get(event.type);
    if (feeds)
      for (const f of feeds) {
        f.fold.apply(event);
        f.fed++;
      }
  };
  return { folds, byType, feed };
}

/** Events up to `at`, or only those of `types`. */
const countUpTo = async (knex: Knex, at: LogPosition, types?: readonly string[]) =>
  Number(
    (
      await knex.raw<{ rows: { n: string }[] }>(
        `SELECT count(*) AS n FROM events WHERE (transaction_id, position) <= (?::text::xid8, ?::bigint)
           AND (?::jsonb IS NULL OR type IN (SELECT jsonb_array_elements_text(?::jsonb)))`,
        [
          at.transactionId.toString(),
          at.position.toString(),
          ...Array(2).fill(types ? JSON.stringify(types) : null),
        ],
      )
    ).rows[0]?.n ?? 0,
  );
