/**
 * How the event store port's terms map onto KurrentDB's (pure functions, unit-tested without a server):
 *
 * - A log position is KurrentDB's `$all` position: `transactionId` is its commit position and `position` its prepare
 *   position. `$all` is ordered by (commit, prepare), the same order `comparePositions` gives, and the prepare
 *   position alone grows along `$all`, so it serves read-your-writes as our `position` does on PostgreSQL.
 * - Expected revisions map 1:1: 'no_stream' → NO_STREAM, 'any' → ANY, a revision → that revision.
 * - Our events are those of streams whose names do not start with `$`, and of types that do not either: KurrentDB's
 *   own (`$metadata`, `$>` links of its projections, statistics) are never ours.
 */
import {
  ANY,
  ErrorType,
  NO_STREAM,
  type AllStreamResolvedEvent,
  type AppendStreamState,
  type Position,
  type ReadPosition,
  type ResolvedEvent,
  START as KURRENT_START,
} from '@kurrent/kurrentdb-client';
import {
  comparePositions,
  START,
  type EventMetadata,
  type ExpectedRevision,
  type LogPosition,
  type RecordedEvent,
} from '../event-store';

export const toStreamState = (expected: ExpectedRevision): AppendStreamState =>
  expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : expected;

export const toLogPosition = (p: Position): LogPosition => ({ transactionId: p.commit, position: p.prepare });

/** Where a read of `$all` starts for "everything after `from`": the start, or `from` itself (skipped by the reader). */
export const readPositionAfter = (from: LogPosition): ReadPosition =>
  comparePositions(from, START) === 0
    ? KURRENT_START
    : { commit: from.transactionId, prepare: from.position };

/** Whether KurrentDB's event is one of ours (not one of its own system events or links). */
export const isOurs = (streamId: string, type: string): boolean =>
  !streamId.startsWith('$') && !type.startsWith('$');

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server-side event-type filter: exactly these types, or every type of ours when none is given. */
export const eventTypeRegex = (types?: readonly string[]): string =>
  types && types.length > 0 ? `^(?:${types.map(escapeRegex).join('|')})$` : '^[^$]';

/**
 * Our metadata travels as KurrentDB's JSON metadata; the fields KurrentDB reads itself ($correlationId,
 * $causationId) are set from ours, so its projections and UI link the events as we do.
 */
export function toKurrentMetadata(metadata: EventMetadata | undefined): Record<string, unknown> {
  const m: Record<string, unknown> = { ...(metadata ?? {}) };
  if (metadata?.correlationId) m.$correlationId = metadata.correlationId;
  if (metadata?.causationId) m.$causationId = metadata.causationId;
  return m;
}

export function fromKurrentMetadata(raw: unknown): EventMetadata {
  if (!raw || typeof raw !== 'object' || raw instanceof Uint8Array) return {};
  const { $correlationId: _c, $causationId: _d, ...ours } = raw as Record<string, unknown>;
  return ours as EventMetadata;
}

/**
 * A stored event as the port records it, or null for an event that is not ours or carries no position (a stream
 * read on a server older than 22.6, which this adapter does not support: it says so when it meets one).
 */
export function fromResolved(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const e = resolved.event;
  if (!e || !isOurs(e.streamId, e.type)) return null;
  if (!e.position) {
    throw new Error(
      'KurrentDB returned a stream event without its log position: this adapter needs KurrentDB/EventStoreDB 22.6 or later',
    );
  }
  const data = e.isJson ? e.data : JSON.parse(Buffer.from(e.data as Uint8Array).toString('utf8'));
  return {
    eventId: e.id,
    streamId: e.streamId,
    streamRevision: e.revision,
    type: e.type,
    data,
    metadata: fromKurrentMetadata(e.metadata),
    position: e.position.prepare,
    transactionId: e.position.commit,
    createdAt: e.created,
  };
}

/**
 * Errors worth trying again on a fresh call: the node is gone or not the leader, the call timed out. Appends are safe
 * to repeat because every event carries its id (see `KurrentDbEventStore.append`).
 */
export const isTransient = (error: unknown): boolean =>
  error instanceof Error &&
  'type' in error &&
  [ErrorType.UNAVAILABLE, ErrorType.NOT_LEADER, ErrorType.DEADLINE_EXCEEDED, ErrorType.TIMEOUT].includes(
    (error as { type: ErrorType }).type,
  );

export const isStreamNotFound = (error: unknown): boolean =>
  error instanceof Error &&
  'type' in error &&
  (error as { type: unknown }).type === ErrorType.STREAM_NOT_FOUND;
