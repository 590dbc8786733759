import type { IHeaders, Message } from 'kafkajs';
import type { EventMetadata, LogPosition, RecordedEvent } from '../event-store/event-store';

/**
 * What the relay puts on the topic. An event goes keyed by its stream id (so one stream's events stay in one
 * partition, in order), its personal fields still sealed as stored: the topic never holds what erasure must be able to
 * destroy (a forgotten person's key makes their fields unreadable there too). After each batch every partition gets a
 * watermark: the log position up to which the relay has published, so a consumer of one partition knows it has
 * seen everything of that partition up to there, even when no event of the batch went to it.
 */
export type BusMessage = { kind: 'event'; event: RecordedEvent } | { kind: 'watermark'; at: LogPosition };

const KIND = 'pawhaven-kind';

export function eventMessage(e: RecordedEvent): Message {
  return {
    key: e.streamId,
    value: JSON.stringify({
      eventId: e.eventId,
      streamId: e.streamId,
      streamRevision: e.streamRevision.toString(),
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      position: e.position.toString(),
      transactionId: e.transactionId.toString(),
      createdAt: e.createdAt.toISOString(),
    }),
    headers: { [KIND]: 'event' },
  };
}

export function watermarkMessage(partition: number, at: LogPosition): Message {
  return {
    partition,
    key: null,
    value: JSON.stringify({ transactionId: at.transactionId.toString(), position: at.position.toString() }),
    headers: { [KIND]: 'watermark' },
  };
}

/** An event or a watermark as JSON (a watermark has only the two positions). */
type WireEvent = {
  eventId: string;
  streamId: string;
  streamRevision: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  position: string;
  transactionId: string;
  createdAt: string;
};

const text = (v: Buffer | string | (Buffer | string)[] | undefined) =>
  v === undefined ? undefined : Array.isArray(v) ? String(v[0]) : String(v);

/** The message as the relay meant it; null for one it did not write (another producer's). */
export function readBusMessage(m: { value: Buffer | null; headers?: IHeaders }): BusMessage | null {
  const kind = text(m.headers?.[KIND]);
  if (!m.value || (kind !== 'event' && kind !== 'watermark')) return null;
  const v = JSON.parse(m.value.toString('utf8')) as WireEvent;
  if (kind === 'watermark')
    return { kind, at: { transactionId: BigInt(v.transactionId), position: BigInt(v.position) } };
  return {
    kind,
    event: {
      eventId: v.eventId,
      streamId: v.streamId,
      streamRevision: BigInt(v.streamRevision),
      type: v.type,
      data: v.data,
      metadata: v.metadata,
      position: BigInt(v.position),
      transactionId: BigInt(v.transactionId),
      createdAt: new Date(v.createdAt),
    },
  };
}
