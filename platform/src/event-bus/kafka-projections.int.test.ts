import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import type { EventStore, LogPosition, RecordedEvent } from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { readCheckpoint } from '../projections/checkpoints';
import { defineReadModel } from '../projections/read-model';
import { rebuildProjections } from '../projections/rebuild';
import { applyPartitionBatch, type BusPartition } from './kafka-projections';
import type { BusMessage } from './kafka-messages';

/**
 * A read model fed by the bus, rebuilt while a partition has applied an event past the checkpoint (the lowest
 * watermark): the swapped-in rows must hold it, since that partition will not apply it again. Driven by hand (no
 * broker): the partitions' batches are what the relay would have published.
 */
type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;
let store: EventStore;

const counts = defineReadModel<{ kb_counts: { stream_id: string; events: number } }>({
  name: 'kb_counts',
  order: 'stream',
  tables: { kb_counts: { key: ['stream_id'] } },
  handles: ['Counted'],
  readsPersonalData: false,
  evolve({ kb_counts }, event) {
    const row = kb_counts.get(event.streamId);
    kb_counts.put({ stream_id: event.streamId, events: (row?.events ?? 0) + 1 });
  },
});

beforeAll(async () => {
  db = await createTestDatabase({ max: 4 });
  await db.knex.raw('CREATE TABLE kb_counts (stream_id text PRIMARY KEY, events int NOT NULL)');
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

const at = (partition: number): BusPartition => ({ groupId: 'g', topic: 't', partition });
let offsets = [0n, 0n];
const deliver = (partition: number, messages: BusMessage[]) =>
  applyPartitionBatch(
    db.knex,
    at(partition),
    2,
    [counts],
    messages.map((message) => ({ offset: offsets[partition]!++, message })),
    async (events) => events,
  );
/** Appends one event and answers it as recorded (read from its stream: the log's visible head may lag behind). */
const append = async (stream: string) => {
  const { position } = await store.append(stream, [{ type: 'Counted', data: {} }], 'any');
  for await (const e of store.readStream(stream)) if (e.position === position) return e;
  throw new Error('the appended event is not in its stream');
};
const event = (e: RecordedEvent): BusMessage => ({ kind: 'event', event: e });
const watermark = (p: LogPosition): BusMessage => ({ kind: 'watermark', at: p });
const rows = async () =>
  Object.fromEntries(
    ((await db.knex('kb_counts').select()) as { stream_id: string; events: number }[]).map((r) => [
      r.stream_id,
      r.events,
    ]),
  );

it('a rebuild keeps what a partition applied past the checkpoint; repeats and redeliveries change nothing', async () => {
  offsets = [0n, 0n];
  // Streams a (partition 0) and b (partition 1).
  const a1 = await append('a');
  const b1 = await append('b');
  await deliver(0, [event(a1), watermark(b1)]);
  await deliver(1, [event(b1), watermark(b1)]);
  expect(await readCheckpoint(db.knex, 'kb_counts')).toEqual({
    transactionId: b1.transactionId,
    position: b1.position,
  });

  // The rebuild reads the log; as its pass ends, a2 is appended and partition 0 applies it (partition 1 has not yet
  // had the watermark past it, so the checkpoint stays at b1).
  let a2: RecordedEvent | undefined;
  const racing: EventStore = {
    ...store,
    append: store.append.bind(store),
    readStream: store.readStream.bind(store),
    subscribeAll: store.subscribeAll.bind(store),
    headPosition: store.headPosition.bind(store),
    close: store.close.bind(store),
    async *readAll(from, opts) {
      yield* store.readAll(from, opts);
      if (!a2) {
        a2 = await append('a');
        await deliver(0, [event(a2), watermark(a2)]);
      }
    },
  };
  await db.knex('kb_counts').update({ events: 0 }); // damaged: the rebuild must put it right
  await rebuildProjections(db.knex, racing, [counts]);
  expect(await rows()).toEqual({ a: 2, b: 1 });

  // Partition 1 catches up; the relay then publishes a batch again (after a crash before its checkpoint), and
  // partition 0 gets a redelivery of offsets it had: nothing counts twice.
  await deliver(1, [watermark(a2!)]);
  expect((await readCheckpoint(db.knex, 'kb_counts')).position).toBe(a2!.position);
  await deliver(0, [event(a1), event(a2!), watermark(a2!)]);
  offsets[0] = 0n;
  await deliver(0, [event(a1), watermark(b1)]);
  expect(await rows()).toEqual({ a: 2, b: 1 });
});
