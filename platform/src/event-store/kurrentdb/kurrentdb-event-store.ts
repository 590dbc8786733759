/**
 * The event store port on KurrentDB (formerly EventStoreDB), through its maintained Node client
 * `@kurrent/kurrentdb-client`. It passes the same contract as the PostgreSQL adapter (`event-store.contract.ts`),
 * except where KurrentDB differs by design (see `KURRENTDB_DIFFERENCES`). Positions and expected revisions map as
 * `kurrentdb-mapping.ts` says.
 *
 * Idempotency: every event goes out with an id (the caller's, or a new one kept across retries). KurrentDB itself
 * answers a repeated write at the same expected revision with the first write's result; for the cases it does not
 * (a retry with 'any', or after the stream moved on), the adapter looks for the ids in the stream before it calls
 * an append a conflict, so a retried append is stored once and answers the first result, as on PostgreSQL.
 *
 * Reconnection: the client reconnects by itself for new calls; an append cut off by a lost connection or a leader
 * change is tried again (the ids make that safe), and a subscription that drops resumes after the last event it
 * handed over.
 */
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  eventTypeFilter,
  jsonEvent,
  KurrentDBClient,
  START as KURRENT_START,
  WrongExpectedVersionError,
  type AllStreamSubscription,
} from '@kurrent/kurrentdb-client';
import { logger } from '../../logger';
import {
  comparePositions,
  ConcurrencyError,
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
import {
  eventTypeRegex,
  fromResolved,
  isStreamNotFound,
  isTransient,
  readPositionAfter,
  toKurrentMetadata,
  toStreamState,
} from './kurrentdb-mapping';

/** What the contract checks that KurrentDB does not do, by design (the contract fixture declares them). */
export const KURRENTDB_DIFFERENCES = {
  /** Event ids are idempotency tokens per stream: KurrentDB does not refuse an id another stream already used. */
  eventIdsUniqueAcrossStreams: false,
  /** Appends commit in position order: there is no transaction that takes a position and commits later. */
  lateCommits: false,
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How often, and how long apart, a call cut off by a lost connection is tried again. */
const RETRY_DELAYS_MS = [50, 200, 500, 1000, 2000, 4000];

export class KurrentDbEventStore implements EventStore {
  private readonly client: KurrentDBClient;

  /** `connectionString`: e.g. `kurrentdb://localhost:2113?tls=false` (the KURRENTDB_URL setting). */
  constructor(connectionString: string) {
    this.client = KurrentDBClient.connectionString(connectionString);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error(`an append to ${streamId} needs at least one event`);
    const ids = events.map((e) => e.eventId ?? randomUUID());
    // Ids the caller chose may be a retry of an append already stored: answer it as the first time.
    if (events.every((e) => e.eventId)) {
      const stored = await this.storedAppend(streamId, ids);
      if (stored) return stored;
    }
    const data = events.map((e, i) =>
      jsonEvent({
        id: ids[i]!,
        type: e.type,
        data: e.data as Record<string, unknown>,
        metadata: toKurrentMetadata(e.metadata),
      }),
    );
    for (let attempt = 0; ; attempt++) {
      try {
        const written = await this.client.appendToStream(streamId, data, {
          streamState: toStreamState(expected),
        });
        return await this.resultAt(streamId, written.nextExpectedRevision);
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          // A retry whose first attempt went through (or a repeat racing it) is not a conflict.
          const stored = await this.storedAppend(streamId, ids);
          if (stored) return stored;
          const actual = typeof error.actualState === 'bigint' ? error.actualState : undefined;
          throw new ConcurrencyError(streamId, expected, actual);
        }
        if (!isTransient(error) || attempt >= RETRY_DELAYS_MS.length) throw error;
        logger.warn({ streamId, attempt, err: error }, 'KurrentDB append cut off; trying again');
        await sleep(RETRY_DELAYS_MS[attempt]!);
      }
    }
  }

  /**
   * The result of an append whose last event has this revision, from the stored event: the append's reply gives
   * the write's position, which for several events is not the last event's, and read-your-writes needs that one.
   */
  private async resultAt(streamId: string, revision: bigint): Promise<AppendResult> {
    for await (const e of this.readStream(streamId, { fromRevision: revision, maxCount: 1 })) {
      return { nextRevision: e.streamRevision, position: e.position, transactionId: e.transactionId };
    }
    throw new Error(`KurrentDB did not return event ${revision} of ${streamId} it just stored`);
  }

  /**
   * The result of an earlier append of exactly these event ids to this stream, or null if none of them is stored
   * there. Ids stored otherwise (another order, only some) are not a retry: that is an error, not a conflict.
   */
  private async storedAppend(streamId: string, ids: readonly string[]): Promise<AppendResult | null> {
    const seen: RecordedEvent[] = []; // newest first
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
      })) {
        const e = fromResolved(resolved);
        if (!e) continue;
        seen.push(e);
        if (e.eventId !== ids[0]) continue;
        const batch = seen.slice(Math.max(0, seen.length - ids.length)).reverse();
        if (batch.length === ids.length && batch.every((b, i) => b.eventId === ids[i])) {
          const last = batch[batch.length - 1]!;
          return {
            nextRevision: last.streamRevision,
            position: last.position,
            transactionId: last.transactionId,
          };
        }
        throw new Error(`events with these ids are already stored in ${streamId} as part of another append`);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return null;
      throw error;
    }
    if (seen.some((e) => ids.includes(e.eventId))) {
      throw new Error(`events with these ids are already stored in ${streamId} as part of another append`);
    }
    return null;
  }

  async *readStream(streamId: string, opts: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: opts.fromRevision ?? KURRENT_START,
        ...(opts.maxCount !== undefined ? { maxCount: opts.maxCount } : {}),
      })) {
        const e = fromResolved(resolved);
        if (e) yield e;
      }
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
    }
  }

  /**
   * One streamed read of `$all` from `from` (the server pages it; `batchSize` is only a hint here), filtered on the
   * server to our event types. A read from a position may return the event at it again: it is skipped.
   */
  async *readAll(from: LogPosition, opts: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    let count = 0;
    for await (const resolved of this.client.readAll({
      fromPosition: readPositionAfter(from),
      filter: eventTypeFilter({ regex: eventTypeRegex(opts.types) }),
      ...(opts.maxCount !== undefined ? { maxCount: opts.maxCount + 1 } : {}),
    })) {
      const e = fromResolved(resolved);
      if (!e || comparePositions(positionOf(e), from) <= 0) continue;
      if (opts.upTo && comparePositions(positionOf(e), opts.upTo) > 0) return;
      yield e;
      if (opts.maxCount !== undefined && ++count >= opts.maxCount) return;
    }
  }

  /**
   * A catch-up subscription to `$all` filtered on the server to our events: it reads what is stored after `from`,
   * then goes live. Events are handed over in batches of what has arrived (at most `batchSize`); the next batch is
   * not taken until the handler is done. A dropped connection resumes after the last handed-over event.
   */
  async subscribeAll(
    from: LogPosition,
    handler: BatchHandler,
    signal: AbortSignal,
    opts: { batchSize?: number } = {},
  ): Promise<void> {
    const batchSize = opts.batchSize ?? 500;
    let cursor = from;
    let drops = 0;
    while (!signal.aborted) {
      const subscription = this.client.subscribeToAll({
        fromPosition: readPositionAfter(cursor),
        filter: eventTypeFilter({ regex: eventTypeRegex() }),
      });
      const stop = () => void subscription.unsubscribe().finally(() => subscription.destroy());
      signal.addEventListener('abort', stop, { once: true });
      try {
        cursor = await this.deliver(subscription, cursor, handler, batchSize, signal, () => (drops = 0));
        // The server ended the subscription without an error: subscribe again, after a pause.
        if (!signal.aborted) await sleep(RETRY_DELAYS_MS[0]!);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof HandlerFailed) throw error.cause;
        const delay = RETRY_DELAYS_MS[Math.min(drops++, RETRY_DELAYS_MS.length - 1)]!;
        logger.warn(
          { err: error, delay },
          'KurrentDB subscription dropped; resuming after the last event handled',
        );
        await sleep(delay);
      } finally {
        signal.removeEventListener('abort', stop);
        if (!subscription.destroyed) stop();
      }
    }
  }

  /** Hands the subscription's events over in batches; returns the position of the last one handed over. */
  private async deliver(
    subscription: AllStreamSubscription,
    from: LogPosition,
    handler: BatchHandler,
    batchSize: number,
    signal: AbortSignal,
    onEvent: () => void,
  ): Promise<LogPosition> {
    let cursor = from;
    let batch: RecordedEvent[] = [];
    for await (const resolved of subscription) {
      if (signal.aborted) break;
      onEvent();
      const e = fromResolved(resolved);
      if (e && comparePositions(positionOf(e), cursor) > 0) batch.push(e);
      // Hand over when the batch is full or nothing else has arrived yet.
      if (batch.length > 0 && (batch.length >= batchSize || subscription.readableLength === 0)) {
        const handing = batch;
        batch = [];
        try {
          await handler(handing);
        } catch (error) {
          throw new HandlerFailed(error);
        }
        cursor = positionOf(handing[handing.length - 1]!);
        if (signal.aborted) break;
      }
    }
    return cursor;
  }

  async headPosition(): Promise<LogPosition> {
    for await (const resolved of this.client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: eventTypeFilter({ regex: eventTypeRegex() }),
    })) {
      const e = fromResolved(resolved);
      if (e) return positionOf(e);
    }
    return START;
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}

/** The handler's own failure: ends the subscription (the caller's to handle), unlike a dropped connection. */
class HandlerFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('the subscription handler failed');
  }
}
