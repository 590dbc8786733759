import type { Kafka } from 'kafkajs';
import type { Knex } from 'knex';
import type { EventStore } from '../event-store/event-store';
import { readCheckpoint } from '../projections/checkpoints';
import { ensureTopic } from './kafka-client';
import { eventMessage, watermarkMessage } from './kafka-messages';

/** The relay's checkpoint, a row of projection_checkpoints (so the log-order repair moves it like the others). */
export const relayCheckpointName = (topic: string) => `relay:kafka:${topic}`;

/**
 * Follows the event store from the relay's checkpoint and publishes every event to `topic` (kafka-messages.ts),
 * with the idempotent producer and `acks: -1` (every in-sync replica has it); the checkpoint moves only once the
 * broker has acknowledged the batch. A crash between the two publishes the batch again on restart: consumers
 * skip what they already applied by log position. Give it the store as stored (personal fields sealed). Resolves
 * when `signal` aborts; rejects when the store or the broker fails past their retries.
 */
export async function runKafkaRelay(opts: {
  knex: Knex;
  store: EventStore;
  kafka: Kafka;
  topic: string;
  partitions: number;
  signal: AbortSignal;
  batchSize?: number;
}): Promise<void> {
  const { knex, kafka, topic, signal } = opts;
  const partitions = await ensureTopic(kafka, topic, opts.partitions);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const name = relayCheckpointName(topic);
  try {
    await opts.store.subscribeAll(
      await readCheckpoint(knex, name),
      async (batch) => {
        const last = batch[batch.length - 1]!;
        await producer.send({
          topic,
          acks: -1,
          messages: [
            ...batch.map(eventMessage),
            ...Array.from({ length: partitions }, (_, p) => watermarkMessage(p, last)),
          ],
        });
        await knex.raw(
          `INSERT INTO projection_checkpoints (name, transaction_id, position, events_processed, updated_at)
           VALUES (?, ?::text::xid8, ?::bigint, ?, now())
           ON CONFLICT (name) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position,
             events_processed = projection_checkpoints.events_processed + EXCLUDED.events_processed, updated_at = now()`,
          [name, last.transactionId.toString(), last.position.toString(), batch.length],
        );
      },
      signal,
      { batchSize: opts.batchSize ?? 500 },
    );
  } finally {
    await producer.disconnect().catch(() => {});
  }
}
