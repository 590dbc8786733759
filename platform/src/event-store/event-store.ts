/**
 * The event store port (docs/architecture.md, "The event store"). Every adapter passes `event-store.contract.ts`.
 *
 * The global order is a pair: a log position is only comparable as (transactionId, position),
 * because a transaction that took a lower position may commit after one that took a higher one.
 * `position` alone is what commands hand to clients for read-your-writes.
 */
export type LogPosition = { readonly transactionId: bigint; readonly position: bigint };
export const START: LogPosition = Object.freeze({ transactionId: 0n, position: 0n });

export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export type EventMetadata = {
  /** Who caused the change: a user id, or 'system'. */
  actorId?: string;
  correlationId?: string;
  causationId?: string;
  [key: string]: unknown;
};

export type NewEvent<Type extends string = string, Data = unknown> = {
  /** Optional: give one to make a retried append idempotent. */
  eventId?: string;
  type: Type;
  data: Data;
  metadata?: EventMetadata;
};

export type RecordedEvent<Type extends string = string, Data = unknown> = {
  eventId: string;
  streamId: string;
  streamRevision: bigint;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  position: bigint;
  transactionId: bigint;
  createdAt: Date;
};

export type AppendResult = { nextRevision: bigint; position: bigint; transactionId: bigint };

export type ReadStreamOptions = { fromRevision?: bigint; maxCount?: number };
export type ReadAllOptions = {
  batchSize?: number;
  maxCount?: number;
  /**
   * Stop after this position. It must be one some reader already saw as final (a projection's checkpoint, or
   * `headPosition()`): every event up to it is then read, even while the visibility horizon is momentarily lower.
   */
  upTo?: LogPosition;
  /** Only events of these types; the others are skipped (like EventStoreDB's event-type filter). */
  types?: readonly string[];
};

/** Receives events in global order, a batch at a time; the subscription resumes after the last one. */
export type BatchHandler = (batch: RecordedEvent[]) => Promise<void>;

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  readStream(streamId: string, opts?: ReadStreamOptions): AsyncIterable<RecordedEvent>;
  readAll(from: LogPosition, opts?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  /** Catches up from `from`, then goes live; resolves when `signal` aborts, rejects if the handler throws. */
  subscribeAll(
    from: LogPosition,
    handler: BatchHandler,
    signal: AbortSignal,
    opts?: { batchSize?: number },
  ): Promise<void>;
  /** The last position in the log that readers can see now. */
  headPosition(): Promise<LogPosition>;
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  readonly status = 409;
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual?: bigint,
  ) {
    super(`Someone else changed this just now. Reload and try again.`);
  }
}

export const comparePositions = (a: LogPosition, b: LogPosition): number =>
  a.transactionId === b.transactionId
    ? Number(a.position - b.position === 0n ? 0 : a.position > b.position ? 1 : -1)
    : a.transactionId > b.transactionId
      ? 1
      : -1;

export const positionOf = (e: RecordedEvent): LogPosition => ({
  transactionId: e.transactionId,
  position: e.position,
});
