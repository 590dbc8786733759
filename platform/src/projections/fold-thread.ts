import type { Knex } from 'knex';
import { Worker } from 'node:worker_threads';
import type { EventStore, LogPosition, ReadAllOptions, RecordedEvent } from '../event-store/event-store';
import type { OpenerSource } from '../personal-data/encrypting-event-store';
import type { Projection, ProjectionSource } from './projection';
import type { RebuildResult, Replayed } from './rebuild';
import type { WriteProgress } from './write-folds';

/**
 * A rebuild's second thread (the fold path, rebuild-fold-pass.ts). One thread cannot go faster than reading the log, opening
 * its personal fields and feeding every fold, one event after another; with two, the thread that reads also feeds
 * the lighter folds and hands the heavier ones' events (cloned in batches, cheaper than reading them twice) to this
 * one, which folds them and then writes their projections while the reading thread writes its own.
 *
 * The projections are imported in the thread from their `source` (`importableFrom`); the thread has its own
 * connections for writing, and reads the events its catch-up needs (committed since the pass) through the reading
 * thread's store, so it works with any `EventStore`.
 */

/** Sent to the thread. */
export type ToFoldThread =
  | { kind: 'events'; events: RecordedEvent[] }
  | { kind: 'write'; replayed: Replayed; elapsedMs: number }
  | { kind: 'read-batch'; id: number; events: RecordedEvent[] }
  | { kind: 'read-end'; id: number; error?: string }
  | { kind: 'abort' };

/** Sent by the thread. */
export type FromFoldThread =
  | { kind: 'writing'; name: string }
  | { kind: 'written'; results: RebuildResult[] }
  | { kind: 'failed'; message: string; stack?: string }
  | { kind: 'read'; id: number; from: LogPosition; opts: ReadAllOptions };

/** How the thread opens personal fields (`EncryptingEventStore.openerSource`), and of which types' events. */
export type FoldThreadOpening = {
  opener: OpenerSource | null;
  /** The types whose events it is sent sealed and opens (those only its folds read the personal fields of). */
  opens: string[];
};

export type FoldThreadData = FoldThreadOpening & {
  /** The thread's module, started by `fold-thread.boot.mjs`. */
  entry: string;
  connection: string | Record<string, unknown>;
  projections: { name: string; source: ProjectionSource }[];
};

/** Events per message: large enough that cloning costs little per event, small enough to keep both threads busy. */
const EVENTS_PER_MESSAGE = 2000;
/** Share of the folds' weight the second thread takes (the reading thread also reads and opens every event). */
const THREAD_SHARE = 0.5;

const BOOT = new URL('./fold-thread.boot.mjs', import.meta.url);
// The same extension as this module's: .ts from the sources (tsx), .js once compiled.
const ENTRY = new URL(
  `./fold-thread.worker${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`,
  import.meta.url,
);

/** How the thread connects: the caller's knex connection settings, if they can be sent to a thread. */
const connectionOf = (knex: Knex): FoldThreadData['connection'] | null => {
  const connection = (knex.client as { config?: { connection?: unknown } }).config?.connection;
  if (typeof connection !== 'string' && (typeof connection !== 'object' || connection === null)) return null;
  try {
    if (typeof connection === 'string') return connection;
    // knex keeps the password out of logs as a hidden property, which cloning would drop.
    const { password } = connection as { password?: unknown };
    return structuredClone({ ...connection, password }) as FoldThreadData['connection'];
  } catch {
    return null; // functions (a password callback, …)
  }
};

/**
 * The projections the second thread folds: the heaviest importable ones, until they weigh about THREAD_SHARE of
 * them all. A projection weighs the rows its live tables hold (PostgreSQL's estimate: its model's size, which both
 * its fold and its write grow with) or, while no table has any, the events it handles. None when there is no
 * second projection or knex's connection settings cannot be sent to a thread.
 */
export async function chooseForFoldThread(
  knex: Knex,
  projections: readonly Projection[],
): Promise<Projection[]> {
  if (projections.length < 2 || !connectionOf(knex) || !projections.some((p) => p.source)) return [];
  const tables = projections.flatMap((p) => p.tables);
  const { rows: sizes } = await knex.raw<{ rows: { name: string; rows: number }[] }>(
    `SELECT t.name, greatest(coalesce(c.reltuples, 0), 0)::float8 AS rows
     FROM jsonb_array_elements_text(?::jsonb) AS t(name) LEFT JOIN pg_class c ON c.oid = to_regclass(t.name)`,
    [JSON.stringify(tables)],
  );
  const rowsOf = new Map(sizes.map((s) => [s.name, s.rows]));
  let weigh = (p: Projection) => p.tables.reduce((sum, t) => sum + (rowsOf.get(t) ?? 0), 0);
  if (!projections.some((p) => weigh(p) > 0)) {
    const { rows: counts } = await knex.raw<{ rows: { type: string; n: number }[] }>(
      `SELECT type, count(*)::float8 AS n FROM events GROUP BY type`,
    );
    const eventsOf = new Map(counts.map((c) => [c.type, c.n]));
    weigh = (p) => p.handles.reduce((sum, t) => sum + (eventsOf.get(t) ?? 0), 0);
  }
  const weights = new Map(projections.map((p) => [p, weigh(p)]));
  const all = [...weights.values()].reduce((a, b) => a + b, 0);
  const chosen: Projection[] = [];
  let taken = 0;
  for (const p of [...projections].sort((a, b) => weights.get(b)! - weights.get(a)!)) {
    if (taken >= all * THREAD_SHARE || chosen.length === projections.length - 1) break;
    if (!p.source) continue;
    chosen.push(p);
    taken += weights.get(p)!;
  }
  return chosen;
}

/** A failure on the fold thread: it concerns the projections folded there. */
export class FoldThreadFailed extends Error {
  constructor(
    message: string,
    readonly projections: readonly string[],
  ) {
    super(message);
  }
}

/** The reading thread's side of a fold thread. */
export class FoldThread {
  private readonly worker: Worker;
  private readonly names: string[];
  private readonly stopListening: () => void;
  private batch: RecordedEvent[] = [];
  private failure: FoldThreadFailed | null = null;
  private closing = false;
  private progress: WriteProgress | null = null;
  private written: { resolve(r: RebuildResult[]): void; reject(e: Error): void } | null = null;

  private constructor(
    knex: Knex,
    private readonly store: Pick<EventStore, 'readAll'>,
    projections: readonly Projection[],
    opening: FoldThreadOpening,
    signal: AbortSignal | undefined,
  ) {
    const data: FoldThreadData = {
      entry: ENTRY.href,
      connection: connectionOf(knex)!,
      projections: projections.map((p) => ({ name: p.name, source: p.source! })),
      ...opening,
    };
    this.names = projections.map((p) => p.name);
    this.worker = new Worker(BOOT, { workerData: data });
    this.worker.on('message', (m: FromFoldThread) => this.receive(m));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`The rebuild's fold thread stopped (exit code ${code})`));
    });
    const onAbort = () => this.send({ kind: 'abort' });
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.stopListening = () => signal?.removeEventListener('abort', onAbort);
  }

  static start(
    knex: Knex,
    store: Pick<EventStore, 'readAll'>,
    projections: readonly Projection[],
    opening: FoldThreadOpening,
    signal?: AbortSignal,
  ): FoldThread {
    return new FoldThread(knex, store, projections, opening, signal);
  }

  /** One event for the thread's folds, in log order. Throws once the thread has failed. */
  feed(event: RecordedEvent): void {
    if (this.failure) throw this.failure;
    this.batch.push(event);
    if (this.batch.length >= EVENTS_PER_MESSAGE) this.flush();
  }

  /** After the pass (its folds hold the log up to `replayed.at`): the thread writes its projections. */
  write(replayed: Replayed, elapsedMs: number, progress: WriteProgress): Promise<RebuildResult[]> {
    if (this.failure) return Promise.reject(this.failure);
    this.flush();
    this.progress = progress;
    return new Promise((resolve, reject) => {
      this.written = { resolve, reject };
      this.send({ kind: 'write', replayed, elapsedMs });
    });
  }

  /** Ends the thread (a write it was doing rolls back with its connection). */
  async close(): Promise<void> {
    this.closing = true;
    this.stopListening();
    await this.worker.terminate();
  }

  private flush() {
    if (this.batch.length === 0) return;
    this.send({ kind: 'events', events: this.batch });
    this.batch = [];
  }

  private send(message: ToFoldThread) {
    if (!this.closing) this.worker.postMessage(message);
  }

  private fail(error: Error) {
    if (!this.failure) {
      this.failure = new FoldThreadFailed(error.message, this.names);
      this.failure.stack = error.stack;
    }
    this.written?.reject(this.failure);
    this.written = null;
  }

  private receive(m: FromFoldThread) {
    switch (m.kind) {
      case 'writing':
        this.progress?.writing(m.name);
        return;
      case 'written':
        this.written?.resolve(m.results);
        this.written = null;
        return;
      case 'failed': {
        const error = new Error(m.message);
        if (m.stack) error.stack = m.stack;
        this.fail(error);
        return;
      }
      case 'read':
        void this.serveRead(m.id, m.from, m.opts);
        return;
      default: {
        const unknown: never = m;
        throw new Error(`unknown message from the fold thread: ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The thread's catch-up reads events committed since the pass: they are read here and sent in batches. */
  private async serveRead(id: number, from: LogPosition, opts: ReadAllOptions) {
    try {
      let events: RecordedEvent[] = [];
      for await (const event of this.store.readAll(from, opts)) {
        events.push(event);
        if (events.length >= EVENTS_PER_MESSAGE) {
          this.send({ kind: 'read-batch', id, events });
          events = [];
        }
      }
      if (events.length > 0) this.send({ kind: 'read-batch', id, events });
      this.send({ kind: 'read-end', id });
    } catch (error) {
      if (!this.closing) this.send({ kind: 'read-end', id, error: (error as Error).message });
    }
  }
}
