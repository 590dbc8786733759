import type { Knex } from 'knex';
import type { EventStore, LogPosition, RecordedEvent } from '../event-store/event-store';
import { START } from '../event-store/event-store';
import { recordProjectionError } from './checkpoints';
import type { Projection, ProjectionFold } from './projection';
import { chunks, EncryptingEventStore } from '../personal-data/encrypting-event-store';
import { chooseForFoldThread, FoldThread, FoldThreadFailed } from './fold-thread';
import { catchUpAndSwap, checkStillWanted, rebuildInPlace, replayThroughApply } from './rebuild-swap';
import { ShadowTables } from './shadow-tables';
import type { LiveSnapshot } from './write-in-place';

// Among the platform's exports (index.ts), as the rest of this module.
export { checkStillWanted };

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

/** Below this many events, starting a thread (and loading the projections' code in it) costs more than it saves. */
const FOLD_THREAD_FROM = 100_000;

/**
 * Rebuilds a projection blue/green (see 'Projections' in docs/architecture.md): the whole log is replayed into shadow
 * copies of its tables (temporary tables on a connection of the rebuild's own, see `ShadowTables`) while the live
 * tables keep serving reads and the live projector keeps them current; then ONE transaction locks the live checkpoint
 * row (the live projector's batch waits on it), replays into the shadow whatever the live model has seen beyond it,
 * makes the live tables equal to the shadow (only rows that differ are written) and stores the checkpoint. Readers
 * see the old model or the rebuilt one, never an empty or partial one, and the checkpoint never goes back.
 *
 * A projection with a `fold` is replayed in memory and, usually, compared with the live tables and written in place
 * (`write-in-place.ts`: the same one transaction, only differing rows written, no shadow copies); one without replays
 * `apply` as above.
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

/**
 * The fold path, for any number of projections with a `fold`: reads the log once up to its head, feeding every fold,
 * then writes each projection (`writeFolds`). On a long log the heavier folds run on a second thread
 * (`fold-thread.ts`): this one reads the log, opens personal fields and feeds its own folds, and hands the other
 * thread the events its folds handle; each thread then writes its own projections, both at once. `onProgress`
 * counts events read.
 */
async function rebuildFolded(
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

/** Thrown by `rebuildProjections` while another rebuild runs anywhere (any process, CLI or dashboard). */
export class RebuildAlreadyRunning extends Error {
  constructor() {
    super('A rebuild is already running. Wait for it to finish.');
  }
}

/** The advisory lock every rebuild holds (two int4 keys: 'pawh', 1), visible in pg_locks. */
const REBUILD_LOCK = [0x70617768, 1] as const;

/** Whether a rebuild holds the lock now, in any process. */
export async function rebuildIsRunning(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw<{ rows: { held: boolean }[] }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
       AND classid = ? AND objid = ? AND objsubid = 2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
    [REBUILD_LOCK[0], REBUILD_LOCK[1]],
  );
  return rows[0]?.held === true;
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
 * rebuilds through this, so two can never overlap, wherever they were started. The lock is a session advisory lock on
 * a connection held for the run: a process that dies releases it with its connection.
 */
export async function rebuildProjections(
  knex: Knex,
  store: EventStore,
  projections: readonly Projection[],
  onProgress: (p: RebuildRunProgress) => void = () => {},
  opts: RebuildOptions & { onLocked?: () => void } = {},
): Promise<RebuildResult[]> {
  const connection = (await knex.client.acquireConnection()) as {
    query(sql: string, values?: unknown[]): Promise<{ rows: { locked: boolean }[] }>;
  };
  try {
    const { rows } = await connection.query('SELECT pg_try_advisory_lock($1, $2) AS locked', [
      ...REBUILD_LOCK,
    ]);
    if (!rows[0]?.locked) throw new RebuildAlreadyRunning();
    try {
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
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1, $2)', [...REBUILD_LOCK]).catch(() => {});
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
