/**
 * PawHaven on KurrentDB (EVENT_STORE=kurrentdb): KurrentDB keeps the log and decides every append (expected
 * revisions, idempotency); a copy of it in PostgreSQL's events table, in KurrentDB's order, feeds everything that
 * reads the log: the projectors, the Kafka relay, rebuilds, the admin's history. So there is one position space (the
 * copy's), the one checkpoints, consistency waits and sockets already use.
 *
 * - `runLogMirror` follows KurrentDB from its checkpoint (table log_mirror, in KurrentDB's positions) and copies each
 *   batch in one PostgreSQL transaction with the checkpoint, so a crash copies nothing twice and skips nothing.
 * - `MirroredEventStore` is the store the services use: appends go to KurrentDB and return once the copy has them,
 *   with the copy's position (read-your-writes works as on PostgreSQL); every read is the copy's.
 *
 * KurrentDB's event ids are unique per stream only; the copy's are unique across the log. An id KurrentDB holds in
 * two streams is copied the second time under an id derived from the stream and the id (`copiedEventId`).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { HttpError } from '../../errors';
import { nameUuid } from '../../name-uuid';
import {
  comparePositions,
  positionOf,
  START,
  type AppendResult,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../event-store';
import type { PostgresEventStore } from '../postgres-event-store';
import { UnitOfWork, type UnitsOfWork } from '../unit-of-work';

/** The transaction-scoped lock a batch's copy holds: two copiers never write at once. */
const COPY_LOCK = 0x6c6f_676d_6972n; // "logmir"

export const copiedEventId = (streamId: string, eventId: string): string =>
  nameUuid(`log-mirror:${streamId}:${eventId}`);

/** The copy could not keep up within the wait: the append is stored in KurrentDB, not yet readable here. */
export class LogCopyBehind extends HttpError {
  constructor() {
    super(503, 'Saved, but it takes longer than usual to show. Reload in a moment.');
  }
}

export async function readMirrorCheckpoint(
  db: pg.Pool | UnitOfWork,
  name: string,
  forUpdate = false,
): Promise<LogPosition> {
  const query = (text: string, values: unknown[]) =>
    db instanceof UnitOfWork
      ? db.query<{ c: string; p: string }>(text, values)
      : db.query<{ c: string; p: string }>(text, values);
  const { rows } = await query(
    `SELECT source_commit::text AS c, source_prepare::text AS p FROM log_mirror WHERE name = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [name],
  );
  return rows[0] ? { transactionId: BigInt(rows[0].c), position: BigInt(rows[0].p) } : START;
}

/** Another copier moved the checkpoint under this one: it stops, and starts again from the checkpoint. */
export class MirrorCheckpointMoved extends Error {}

/**
 * Copies `source` into `target` (the events table of `units`' database) from the checkpoint `name`, a batch per
 * transaction, until `signal` aborts. Run it in one process at a time (`oneAtATime`); the lock and the checkpoint
 * check keep two from ever writing the same events.
 */
export async function runLogMirror(opts: {
  source: EventStore;
  target: PostgresEventStore;
  units: UnitsOfWork;
  pool: pg.Pool;
  signal: AbortSignal;
  name?: string;
  batchSize?: number;
}): Promise<void> {
  const { source, target, units, signal } = opts;
  const name = opts.name ?? 'kurrentdb';
  let cursor = await readMirrorCheckpoint(opts.pool, name);
  await source.subscribeAll(
    cursor,
    async (batch) => {
      const last = positionOf(batch[batch.length - 1]!);
      for (;;) {
        const uow = await units.begin(COPY_LOCK);
        if (!uow) {
          await sleep(20);
          continue;
        }
        try {
          await units.run(uow, async () => {
            const at = await readMirrorCheckpoint(uow, name, true);
            if (comparePositions(at, cursor) !== 0) throw new MirrorCheckpointMoved();
            for (const run of runsOfOneStream(batch)) await copyRun(target, uow, run);
            await uow.query(
              `INSERT INTO log_mirror (name, source_commit, source_prepare, events_copied, updated_at)
               VALUES ($1, $2, $3, $4, now())
               ON CONFLICT (name) DO UPDATE SET source_commit = EXCLUDED.source_commit,
                 source_prepare = EXCLUDED.source_prepare,
                 events_copied = log_mirror.events_copied + EXCLUDED.events_copied, updated_at = now()`,
              [name, last.transactionId.toString(), last.position.toString(), batch.length],
            );
          });
        } catch (error) {
          await uow.rollback();
          throw error;
        }
        if (!(await uow.commit())) throw new Error('PostgreSQL rolled back the copy of a batch');
        cursor = last;
        return;
      }
    },
    signal,
    { batchSize: opts.batchSize ?? 500 },
  );
}

/** The batch cut where the stream changes: each run is one append, in the log's order. */
function runsOfOneStream(batch: readonly RecordedEvent[]): RecordedEvent[][] {
  const runs: RecordedEvent[][] = [];
  for (const e of batch) {
    const run = runs[runs.length - 1];
    if (run && run[0]!.streamId === e.streamId) run.push(e);
    else runs.push([e]);
  }
  return runs;
}

async function copyRun(
  target: PostgresEventStore,
  uow: UnitOfWork,
  run: readonly RecordedEvent[],
): Promise<void> {
  const first = run[0]!;
  const expected: ExpectedRevision = first.streamRevision === 0n ? 'no_stream' : first.streamRevision - 1n;
  const events: NewEvent[] = run.map((e) => ({
    eventId: e.eventId,
    type: e.type,
    data: e.data,
    metadata: e.metadata,
  }));
  try {
    await target.append(first.streamId, events, expected);
  } catch (error) {
    const { rows } = await uow.query<{ event_id: string }>(
      'SELECT event_id::text FROM events WHERE event_id = ANY($1::uuid[]) AND stream_id <> $2',
      [events.map((e) => e.eventId), first.streamId],
    );
    if (rows.length === 0) throw error;
    const taken = new Set(rows.map((r) => r.event_id));
    await target.append(
      first.streamId,
      events.map((e) =>
        taken.has(e.eventId!) ? { ...e, eventId: copiedEventId(first.streamId, e.eventId!) } : e,
      ),
      expected,
    );
  }
}

/**
 * The services' store on KurrentDB: `source` decides and keeps every append; reads are the copy's (`mirror`), which
 * an append waits for (at most `waitMs`) so that what a command returns, and what it reads next, is the copy's.
 */
export class MirroredEventStore implements EventStore {
  constructor(
    private readonly source: EventStore,
    private readonly mirror: PostgresEventStore,
    private readonly pool: pg.Pool,
    private readonly opts: { waitMs?: number } = {},
  ) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const withIds = events.map((e) => (e.eventId ? e : { ...e, eventId: randomUUID() }));
    const written = await this.source.append(streamId, withIds, expected);
    const at = await this.copied(streamId, withIds[withIds.length - 1]!.eventId!);
    return { nextRevision: written.nextRevision, ...at };
  }

  /** Where the copy holds this event, once it does. */
  private async copied(streamId: string, eventId: string): Promise<LogPosition> {
    const deadline = Date.now() + (this.opts.waitMs ?? 10_000);
    for (let delay = 1; ; delay = Math.min(delay * 2, 20)) {
      const { rows } = await this.pool.query<{ position: string; transaction_id: string }>(
        'SELECT position, transaction_id::text FROM events WHERE event_id = ANY($1::uuid[]) AND stream_id = $2',
        [[eventId, copiedEventId(streamId, eventId)], streamId],
      );
      if (rows[0])
        return { position: BigInt(rows[0].position), transactionId: BigInt(rows[0].transaction_id) };
      if (Date.now() > deadline) throw new LogCopyBehind();
      await sleep(delay);
    }
  }

  readStream(streamId: string, opts?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    return this.mirror.readStream(streamId, opts);
  }

  readAll(from: LogPosition, opts?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    return this.mirror.readAll(from, opts);
  }

  subscribeAll(
    from: LogPosition,
    handler: BatchHandler,
    signal: AbortSignal,
    opts?: { batchSize?: number },
  ): Promise<void> {
    return this.mirror.subscribeAll(from, handler, signal, opts);
  }

  headPosition(): Promise<LogPosition> {
    return this.mirror.headPosition();
  }

  async close(): Promise<void> {
    await Promise.all([this.source.close(), this.mirror.close()]);
  }
}
