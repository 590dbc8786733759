import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import {
  ConcurrencyError,
  type AppendResult,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from './event-store';
import { UnitOfWork } from './unit-of-work';
import { VISIBLE_HORIZON_SQL } from './visibility';

const CHANNEL = 'pawhaven_events';
const UNIQUE_VIOLATION = '23505';
const DEADLOCK = '40P01';

type Row = {
  position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  /** Milliseconds since the epoch (see COLUMNS). */
  created_ms: number;
};

/**
 * An event's columns as read. The time comes as whole milliseconds (what a Date holds): parsing PostgreSQL's text
 * form of a timestamp cost a twentieth of reading the log.
 */
const COLUMNS = `position, transaction_id, stream_id, stream_revision, event_id, type, data, metadata,
    floor(extract(epoch FROM created_at) * 1000)::float8 AS created_ms`;

const toRecorded = (r: Row): RecordedEvent => ({
  eventId: r.event_id,
  streamId: r.stream_id,
  streamRevision: BigInt(r.stream_revision),
  type: r.type,
  data: r.data,
  metadata: r.metadata,
  position: BigInt(r.position),
  transactionId: BigInt(r.transaction_id),
  createdAt: new Date(r.created_ms),
});

/**
 * One statement appends a batch: it checks the expected revision and inserts in a single round trip.
 * The unique (stream_id, stream_revision) catches a racing writer; unique event_id makes retries idempotent.
 */
const APPEND_SQL = `
  WITH current AS (
    SELECT COALESCE(MAX(stream_revision), -1) AS revision FROM events WHERE stream_id = $1
  )
  INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT $1, current.revision + e.ordinality, e.event_id, e.type, e.data, e.metadata
  FROM current,
       unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(event_id, type, data, metadata, ordinality)
  WHERE $6::bigint IS NULL OR current.revision = $6::bigint
  RETURNING position, transaction_id, stream_revision`;

/**
 * The same for one event (nearly every command appends one), with scalar parameters: no arrays to build, send and
 * unnest. Measured by `npm run bench -- append-throughput`.
 */
const APPEND_ONE_SQL = `
  WITH current AS (
    SELECT COALESCE(MAX(stream_revision), -1) AS revision FROM events WHERE stream_id = $1
  )
  INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
  SELECT $1, current.revision + 1, $2::uuid, $3, $4::jsonb, $5::jsonb
  FROM current
  WHERE $6::bigint IS NULL OR current.revision = $6::bigint
  RETURNING position, transaction_id, stream_revision`;

/**
 * Readers see only rows of transactions older than the oldest one still running, so a transaction that took a
 * lower position but commits late is never skipped. Order, page and checkpoint use the same key.
 */
const READ_ALL_SQL = `
  SELECT ${COLUMNS}
  FROM events
  WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    AND ($4::text[] IS NULL OR type = ANY ($4::text[]))
  ORDER BY transaction_id, position
  LIMIT $3`;

/**
 * The same read with the horizon narrowed to transactions that may be ours (`visibility.ts`): a transaction open in
 * another database of the server no longer holds us back. Costs a read of pg_stat_activity when anything runs, so
 * a subscriber uses it only while held back.
 */
const READ_ALL_NARROWED_SQL = `
  SELECT ${COLUMNS}
  FROM events
  WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
    AND transaction_id < ${VISIBLE_HORIZON_SQL}
  ORDER BY transaction_id, position
  LIMIT $3`;

/**
 * The events in (from, upTo] where `upTo` is already final (a checkpoint or the head a reader saw): every one of
 * them committed, so no horizon is needed, and none is wanted (a projector may have read up to `upTo` under the
 * narrowed horizon while the plain one is lower).
 */
const READ_RANGE_SQL = `
  SELECT ${COLUMNS}
  FROM events
  WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)
    AND (transaction_id, position) <= ($3::text::xid8, $4::bigint)
    AND ($6::text[] IS NULL OR type = ANY ($6::text[]))
  ORDER BY transaction_id, position
  LIMIT $5`;

/** Rows past the checkpoint that committed but are held back behind an older running transaction. */
const HELD_BACK_SQL = `
  SELECT EXISTS (SELECT 1 FROM events WHERE (transaction_id, position) > ($1::text::xid8, $2::bigint)) AS pending`;

/** The hot statements run as named prepared statements: parsed and planned once per pooled connection. */
const APPEND = 'pawhaven_events_append';
const APPEND_ONE = 'pawhaven_events_append_one';

/**
 * Other processes' subscribers are woken by NOTIFY at most once per this many milliseconds per store: a NOTIFY is a
 * transaction of its own that serialises commits on the server, and one per append halved the appends a writer could
 * make. This process's subscribers are woken at once, without it.
 */
const NOTIFY_EVERY_MS = 2;
const READ_ALL = 'pawhaven_events_read_all';
const READ_ALL_NARROWED = 'pawhaven_events_read_all_narrowed';
const READ_RANGE = 'pawhaven_events_read_range';
const HELD_BACK = 'pawhaven_events_held_back';

export class PostgresEventStore implements EventStore {
  private readonly wake = new EventEmitter();
  private listener?: pg.Client;
  private listenerReady?: Promise<void>;
  private notifyInFlight = false;
  private notifyPending = false;
  private notifyTimer?: NodeJS.Timeout;
  private lastNotifyAt = 0;
  private reconnectTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly pool: pg.Pool) {
    this.wake.setMaxListeners(0);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const ids = events.map((e) => e.eventId ?? randomUUID());
    const revision = expected === 'any' ? null : expected === 'no_stream' ? '-1' : expected.toString();
    const one = events.length === 1 ? events[0]! : null;
    // A named statement is parsed and planned once per connection: parsing and planning this CTE on every
    // call cost about half of the append's time (measured by `npm run bench`).
    const statement = one
      ? {
          name: APPEND_ONE,
          text: APPEND_ONE_SQL,
          values: [
            streamId,
            ids[0],
            one.type,
            JSON.stringify(one.data ?? {}),
            JSON.stringify(one.metadata ?? {}),
            revision,
          ],
        }
      : {
          name: APPEND,
          text: APPEND_SQL,
          values: [
            streamId,
            ids,
            events.map((e) => e.type),
            events.map((e) => JSON.stringify(e.data ?? {})),
            events.map((e) => JSON.stringify(e.metadata ?? {})),
            revision,
          ],
        };
    type Appended = { position: string; transaction_id: string; stream_revision: string };
    // In a request's unit of work the append joins its transaction, in a savepoint: a lost race undoes only it.
    const uow = this.unitOfWork();
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = uow
          ? await uow.savepoint((c) => c.query<Appended>(statement))
          : await this.pool.query<Appended>(statement);
        if (rows.length === 0) {
          const earlier = await this.findEarlierAppend(streamId, ids, uow);
          if (earlier) return earlier;
          throw new ConcurrencyError(streamId, expected, await this.currentRevision(streamId, uow));
        }
        const last = rows[rows.length - 1]!;
        // Subscribers are woken once the events can be read: at once, or when the unit of work commits.
        if (uow) uow.afterCommit(this.announceAfterCommit);
        else this.announce();
        return {
          nextRevision: BigInt(last.stream_revision),
          position: BigInt(last.position),
          transactionId: BigInt(last.transaction_id),
        };
      } catch (error) {
        // Two units of work appending to the same streams in opposite orders: PostgreSQL ends one of them.
        if (!isUniqueViolation(error) && !(uow && isDeadlock(error))) throw error;
        const earlier = await this.findEarlierAppend(streamId, ids, uow);
        if (earlier) return earlier;
        // 'any' never conflicts by intent: a racing writer took our revision, so take the next one.
        if (expected === 'any' && attempt < 10) continue;
        throw new ConcurrencyError(streamId, expected, await this.currentRevision(streamId, uow));
      }
    }
  }

  async *readStream(streamId: string, opts: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    const query = {
      text: `SELECT ${COLUMNS}
       FROM events WHERE stream_id = $1 AND stream_revision >= $2 ORDER BY stream_revision LIMIT $3`,
      values: [streamId, (opts.fromRevision ?? 0n).toString(), opts.maxCount ?? null],
    };
    // A request in a unit of work reads its own appends too (they are not committed yet).
    const uow = this.unitOfWork();
    const { rows } = uow ? await uow.query<Row>(query) : await this.pool.query<Row>(query);
    for (const r of rows) yield toRecorded(r);
  }

  async *readAll(from: LogPosition, opts: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    const batchSize = opts.batchSize ?? 1000;
    let remaining = opts.maxCount ?? Number.POSITIVE_INFINITY;
    const read = (cursor: LogPosition) => {
      const limit = Math.min(batchSize, remaining);
      const types = opts.types ? [...opts.types] : null;
      return (
        opts.upTo
          ? this.readRange(cursor, opts.upTo, limit, types)
          : this.readPage(cursor, limit, false, types)
      ).then((page) => ({ page, limit }));
    };
    let next: Promise<{ page: RecordedEvent[]; limit: number }> | null = remaining > 0 ? read(from) : null;
    while (next) {
      const { page, limit } = await next;
      remaining -= page.length;
      const last = page[page.length - 1];
      // The next page is read while the caller works through this one: a long read (a rebuild, a catch-up) then
      // waits on PostgreSQL or on its caller, not on both in turn. A caller that stops early leaves one page unread.
      next = last && page.length === limit && remaining > 0 ? read(last) : null;
      next?.catch(() => {});
      for (const e of page) yield e;
    }
  }

  async subscribeAll(
    from: LogPosition,
    handler: BatchHandler,
    signal: AbortSignal,
    opts: { batchSize?: number } = {},
  ): Promise<void> {
    const batchSize = opts.batchSize ?? 500;
    await this.ensureListening();
    let cursor = from;
    let signalled = true;
    let heldBackDelay = 0;
    const onWake = () => {
      signalled = true;
      resume?.();
    };
    let resume: (() => void) | undefined;
    this.wake.on('wake', onWake);
    const onAbort = () => resume?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (!signalled) {
          // Sleep until an append anywhere wakes us (or, when held back, until a short retry timer fires).
          await new Promise<void>((resolve) => {
            resume = resolve;
            if (heldBackDelay > 0) setTimeout(resolve, heldBackDelay).unref();
          });
          resume = undefined;
          if (signal.aborted) break;
        }
        signalled = false;
        for (;;) {
          // While held back, read up to the narrowed horizon: it is never below the plain one.
          const page = await this.readPage(cursor, batchSize, heldBackDelay > 0);
          if (page.length === 0) break;
          await handler(page);
          const last = page[page.length - 1]!;
          cursor = { transactionId: last.transactionId, position: last.position };
          if (page.length < batchSize || signal.aborted) break;
        }
        // A non-append transaction may be holding the horizon back; it will not notify when it ends.
        const { rows } = await this.pool.query<{ pending: boolean }>({
          name: HELD_BACK,
          text: HELD_BACK_SQL,
          values: [cursor.transactionId.toString(), cursor.position.toString()],
        });
        heldBackDelay = rows[0]?.pending ? Math.min(Math.max(heldBackDelay * 2, 2), 100) : 0;
        if (heldBackDelay > 0 && !signal.aborted) {
          const stillPending = await this.readPage(cursor, 1, true);
          if (stillPending.length > 0) signalled = true;
        }
      }
    } finally {
      this.wake.off('wake', onWake);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async headPosition(): Promise<LogPosition> {
    const { rows } = await this.pool.query<{ transaction_id: string; position: string }>(
      `SELECT transaction_id, position FROM events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id DESC, position DESC LIMIT 1`,
    );
    const r = rows[0];
    return r
      ? { transactionId: BigInt(r.transaction_id), position: BigInt(r.position) }
      : { transactionId: 0n, position: 0n };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    // A wake still waiting for its turn goes now: other processes must not miss the last appends.
    if (this.notifyTimer) {
      clearTimeout(this.notifyTimer);
      this.notifyTimer = undefined;
      this.notifyNow();
    }
    this.wake.emit('wake');
    if (this.listener) await this.listener.end().catch(() => {});
  }

  private async readPage(
    from: LogPosition,
    limit: number,
    narrowed = false,
    types: string[] | null = null,
  ): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<Row>({
      name: narrowed ? READ_ALL_NARROWED : READ_ALL,
      text: narrowed ? READ_ALL_NARROWED_SQL : READ_ALL_SQL,
      values: narrowed
        ? [from.transactionId.toString(), from.position.toString(), limit]
        : [from.transactionId.toString(), from.position.toString(), limit, types],
    });
    return rows.map(toRecorded);
  }

  private async readRange(
    from: LogPosition,
    upTo: LogPosition,
    limit: number,
    types: string[] | null,
  ): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<Row>({
      name: READ_RANGE,
      text: READ_RANGE_SQL,
      values: [
        from.transactionId.toString(),
        from.position.toString(),
        upTo.transactionId.toString(),
        upTo.position.toString(),
        limit,
        types,
      ],
    });
    return rows.map(toRecorded);
  }

  private async currentRevision(streamId: string, uow?: UnitOfWork): Promise<bigint | undefined> {
    const query = {
      text: 'SELECT MAX(stream_revision) AS revision FROM events WHERE stream_id = $1',
      values: [streamId],
    };
    const { rows } = uow
      ? await uow.query<{ revision: string | null }>(query)
      : await this.pool.query<{ revision: string | null }>(query);
    return rows[0]?.revision == null ? undefined : BigInt(rows[0].revision);
  }

  /** A retried append whose events are all stored already answers as the first attempt did. */
  private async findEarlierAppend(
    streamId: string,
    ids: string[],
    uow?: UnitOfWork,
  ): Promise<AppendResult | undefined> {
    type Earlier = { stream_id: string; stream_revision: string; position: string; transaction_id: string };
    const query = {
      text: 'SELECT stream_id, stream_revision, position, transaction_id FROM events WHERE event_id = ANY($1::uuid[]) ORDER BY position',
      values: [ids],
    };
    const { rows } = uow ? await uow.query<Earlier>(query) : await this.pool.query<Earlier>(query);
    if (rows.length !== ids.length || rows.some((r) => r.stream_id !== streamId)) return undefined;
    const last = rows[rows.length - 1]!;
    return {
      nextRevision: BigInt(last.stream_revision),
      position: BigInt(last.position),
      transactionId: BigInt(last.transaction_id),
    };
  }

  /** The running request's unit of work, when it writes to this store's database. */
  private unitOfWork(): UnitOfWork | undefined {
    const uow = UnitOfWork.current();
    const database = (this.pool.options as { connectionString?: string }).connectionString;
    return uow && database !== undefined && uow.database === database ? uow : undefined;
  }

  private readonly announceAfterCommit = () => this.announce();

  /** Wake local subscribers now, and other processes by NOTIFY (`notifyOthers`). */
  private announce(): void {
    this.wake.emit('wake');
    this.notifyOthers();
  }

  /**
   * One NOTIFY at a time, and at most one per NOTIFY_EVERY_MS: appends meanwhile are told by the next one (a wake
   * means "read the log", never "this event").
   */
  private notifyOthers(): void {
    if (this.notifyInFlight || this.notifyTimer) {
      this.notifyPending = true;
      return;
    }
    const wait = this.lastNotifyAt + NOTIFY_EVERY_MS - performance.now();
    if (wait > 0 && !this.closed) {
      this.notifyTimer = setTimeout(() => {
        this.notifyTimer = undefined;
        this.notifyNow();
      }, wait);
      return;
    }
    this.notifyNow();
  }

  private notifyNow(): void {
    this.notifyInFlight = true;
    this.notifyPending = false;
    this.lastNotifyAt = performance.now();
    this.pool
      .query(`SELECT pg_notify('${CHANNEL}', '')`)
      .catch(() => {})
      .finally(() => {
        this.notifyInFlight = false;
        if (this.notifyPending && !this.closed) this.notifyOthers();
      });
  }

  /**
   * One LISTEN connection per store. If it drops (server restart, idle kill, network), appends made elsewhere
   * would never wake our subscribers again: reconnect while anyone subscribes, and wake them once reconnected
   * so they read whatever was announced while nobody listened.
   */
  private ensureListening(): Promise<void> {
    this.listenerReady ??= this.connectListener().catch((error: unknown) => {
      this.listenerReady = undefined;
      throw error;
    });
    return this.listenerReady;
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: connectionStringOf(this.pool) });
    let connected = false;
    let lost = false;
    const onLost = () => {
      if (!connected || lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      this.listenerReady = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.wake.emit('wake');
      this.scheduleReconnect(50);
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', () => this.wake.emit('wake'));
    await client.connect();
    try {
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    connected = true;
    this.listener = client;
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.wake.listenerCount('wake') === 0) return; // the next subscribeAll connects
      this.ensureListening().then(
        () => this.wake.emit('wake'),
        () => this.scheduleReconnect(Math.min(delayMs * 2, 5000)),
      );
    }, delayMs);
    this.reconnectTimer.unref();
  }
}

const isUniqueViolation = (e: unknown): boolean => (e as { code?: string })?.code === UNIQUE_VIOLATION;
const isDeadlock = (e: unknown): boolean => (e as { code?: string })?.code === DEADLOCK;

function connectionStringOf(pool: pg.Pool): string {
  const cs = (pool.options as { connectionString?: string }).connectionString;
  if (!cs) throw new Error('PostgresEventStore needs a pool created from a connection string');
  return cs;
}
