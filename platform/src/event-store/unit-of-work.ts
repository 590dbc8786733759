import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { badRequest } from '../errors';
import { CONNECTION_SETTINGS } from '../db/database';
import { logger } from '../logger';
import type { EventMetadata, EventStore } from './event-store';

/** An event a request read or appended (`appended`), as the request saw it (personal fields opened). */
export type TrailEvent = {
  streamId: string;
  type: string;
  data: unknown;
  metadata?: EventMetadata;
  appended: boolean;
};

type Task = () => unknown;

/** A request whose unit of work is begun later (a multipart body is read first): it may not append before. */
const AWAITING = 'awaiting its unit of work';
const ambient = new AsyncLocalStorage<UnitOfWork | typeof AWAITING>();

/**
 * One request's writes as one transaction, on a connection of its own (`UnitsOfWork.begin`), carried to the event
 * store by AsyncLocalStorage: the PostgreSQL event store appends and reads streams through it (`current`), so the
 * request sees its own appends and they all commit together, with whatever else the request records in it (an
 * idempotent answer). Until the first append it holds no transaction id, so it holds no projection back.
 *
 * Statements queue one at a time (a request may run two commands at once); each append runs in a savepoint
 * (`savepoint`), so a losing race (unique violation, deadlock) undoes only that append and the transaction stays
 * usable for the decision made again. Work that must see the commit (waking subscribers, mail, settling staged
 * images) is deferred with `afterCommit` / `afterEnd`.
 */
export class UnitOfWork {
  private queue: Promise<unknown> = Promise.resolve();
  private savepoints = 0;
  private readonly onCommit: Task[] = [];
  private readonly onEnd: Task[] = [];
  private ended = false;
  /** Every event the request read or appended through `recordingTrail`, in order. */
  readonly trail: TrailEvent[] = [];

  constructor(
    private readonly client: pg.PoolClient,
    /** The database it writes to (its connection string): a store of another database does not join it. */
    readonly database: string,
  ) {}

  /** The unit of work of the running request, if it is still open. */
  static current(): UnitOfWork | undefined {
    const uow = ambient.getStore();
    return uow instanceof UnitOfWork && !uow.ended ? uow : undefined;
  }

  get open(): boolean {
    return !this.ended;
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    config: pg.QueryConfig | string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.exclusive((c) => c.query<R>(config, values));
  }

  /** `work` in a savepoint: when it fails, only its statements are undone and the transaction goes on. */
  savepoint<T>(work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    return this.exclusive(async (c) => {
      const name = `pawhaven_${++this.savepoints}`;
      await c.query(`SAVEPOINT ${name}`);
      try {
        const result = await work(c);
        await c.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await c.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    });
  }

  /** Runs `task` after a successful commit (once per task: the same function queued twice runs once). */
  afterCommit(task: Task): void {
    if (!this.onCommit.includes(task)) this.onCommit.push(task);
  }

  /** Runs `task` once the unit of work has ended, committed or rolled back. */
  afterEnd(task: Task): void {
    this.onEnd.push(task);
  }

  /**
   * Commits. Answers false when PostgreSQL rolled back instead (a statement had failed outside a savepoint); throws
   * when the commit could not be asked or confirmed (the connection was lost: the outcome is unknown).
   */
  async commit(): Promise<boolean> {
    let committed = false;
    try {
      committed = await this.finish('COMMIT');
      return committed;
    } finally {
      await this.runTasks(committed ? [...this.onCommit, ...this.onEnd] : this.onEnd);
    }
  }

  async rollback(): Promise<void> {
    await this.finish('ROLLBACK').catch((err: unknown) =>
      logger.warn({ err }, 'could not roll back a unit of work'),
    );
    await this.runTasks(this.onEnd);
  }

  private async finish(statement: 'COMMIT' | 'ROLLBACK'): Promise<boolean> {
    if (this.ended) throw new Error('this unit of work has ended already');
    let ok = false;
    try {
      const result = await this.exclusive((c) => c.query(statement));
      ok = true;
      return result.command === statement;
    } finally {
      this.ended = true;
      // A connection whose last statement failed may be in any state: the pool gets rid of it.
      this.client.release(ok ? undefined : true);
    }
  }

  /** Deferred work runs outside the unit of work (its appends commit on their own) and never fails the request. */
  private async runTasks(tasks: Task[]): Promise<void> {
    for (const task of tasks)
      await ambient.exit(async () => {
        try {
          await task();
        } catch (err) {
          logger.error({ err }, 'work deferred until a request committed failed');
        }
      });
  }

  private exclusive<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(new Error('this unit of work has ended'));
    const run = this.queue.then(() => work(this.client));
    this.queue = run.catch(() => {});
    return run;
  }
}

/** A failed session is ended by the server after this long idle inside its transaction (a hung request). */
const IDLE_IN_TRANSACTION_MS = 60_000;

/**
 * Opens units of work on a pool of their own: a request holding one connection for its whole run then never waits
 * for another connection of the same pool (which could all be held by requests waiting likewise).
 */
export class UnitsOfWork {
  private readonly pool: pg.Pool;
  private readonly listened = new WeakSet<pg.PoolClient>();
  private closing?: Promise<void>;

  constructor(
    readonly connectionString: string,
    opts: { max?: number } = {},
  ) {
    this.pool = new pg.Pool({
      connectionString,
      max: opts.max ?? 10,
      ...CONNECTION_SETTINGS,
      options: `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`,
    });
    this.pool.on('error', () => {});
  }

  /**
   * Begins a unit of work holding the transaction-scoped advisory lock `lock`, or answers null when another
   * transaction holds it. The lock takes no transaction id, and ends with the transaction: at its commit, or at
   * once when its process dies (the server notices the closed connection), so a crash leaves nothing to wait for.
   */
  async begin(lock: bigint): Promise<UnitOfWork | null> {
    const client = await this.pool.connect();
    // A connection lost while a request holds it (a database restart) must not end the process: the request's
    // next statement fails instead, and the connection is not given back to the pool.
    if (!this.listened.has(client)) {
      client.on('error', (err) => logger.warn({ err }, 'a unit of work lost its database connection'));
      this.listened.add(client);
    }
    try {
      const results = (await client.query(
        `BEGIN; SELECT pg_try_advisory_xact_lock(${BigInt.asIntN(64, lock)}) AS locked`,
      )) as unknown as pg.QueryResult<{ locked: boolean }>[];
      if (results[1]?.rows[0]?.locked === true) return new UnitOfWork(client, this.connectionString);
      await client.query('ROLLBACK');
      client.release();
      return null;
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  /** Runs `work` (and everything it starts) inside `uow`. */
  run<T>(uow: UnitOfWork, work: () => T): T {
    return ambient.run(uow, work);
  }

  /** Runs `work` as a request whose unit of work begins later (`run`): until then `recordingTrail` refuses appends. */
  awaitingClaim<T>(work: () => T): T {
    return ambient.run(AWAITING, work);
  }

  /** Ends the pool; again is harmless (an app may be stopped twice). */
  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}

/** Runs `task` after the running request's unit of work commits (never if it does not); at once without one. */
export async function afterCommit(task: () => Promise<unknown>): Promise<void> {
  const uow = UnitOfWork.current();
  if (uow) uow.afterCommit(task);
  else await task();
}

/** Runs `task` once the running request's unit of work has ended, committed or not; at once without one. */
export async function afterUnitOfWork(task: () => Promise<unknown>): Promise<void> {
  const uow = UnitOfWork.current();
  if (uow) uow.afterEnd(task);
  else await task();
}

/**
 * `store`, noting every event a request in a unit of work reads or appends on its trail, as the request sees them
 * (personal fields opened): what its answer can have taken from the log. A request awaiting its unit of work
 * (`UnitsOfWork.awaitingClaim`) may not append.
 */
export function recordingTrail(store: EventStore): EventStore {
  return {
    async append(streamId, events, expected) {
      // A multipart body sent with an Idempotency-Key to a route that takes no upload: nothing claimed the key.
      if (ambient.getStore() === AWAITING)
        throw badRequest('This address takes no multipart body: send the request as JSON');
      UnitOfWork.current()?.trail.push(...events.map((e) => ({ ...e, streamId, appended: true })));
      return store.append(streamId, events, expected);
    },
    async *readStream(streamId, opts) {
      for await (const e of store.readStream(streamId, opts)) {
        UnitOfWork.current()?.trail.push({ ...e, appended: false });
        yield e;
      }
    },
    readAll: (from, opts) => store.readAll(from, opts),
    subscribeAll: (from, handler, signal, opts) => store.subscribeAll(from, handler, signal, opts),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
