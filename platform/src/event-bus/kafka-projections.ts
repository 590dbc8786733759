import type { Consumer, Kafka } from 'kafkajs';
import type { Knex } from 'knex';
import { comparePositions, START, type LogPosition, type RecordedEvent } from '../event-store/event-store';
import { PROJECTIONS_CHANNEL } from '../projections/checkpoints';
import { runInOneStatement, unionAll, type Statement } from '../projections/live-batch';
import { collectNotices } from '../projections/notices';
import type { Projection } from '../projections/projection';
import { evolveTogether } from '../projections/read-model';
import { ensureTopic } from './kafka-client';
import { readBusMessage, type BusMessage } from './kafka-messages';

export type BusPartition = { groupId: string; topic: string; partition: number };

type PartitionRow = {
  next_offset: string;
  applied_tx: string;
  applied_pos: string;
  watermark_tx: string;
  watermark_pos: string;
};
const position = (tx: string, pos: string): LogPosition => ({
  transactionId: BigInt(tx),
  position: BigInt(pos),
});
const later = (a: LogPosition, b: LogPosition) => (comparePositions(a, b) >= 0 ? a : b);

/**
 * Applies what one partition delivered (messages from `offset` on, in order) to `projections` — read models that
 * declared `order: 'stream'` — in ONE transaction with where the group stands in that partition, so a crash, a
 * redelivery after a rebalance, or the relay publishing a batch twice never loses or doubles an effect:
 * - a message before the partition's stored next offset was applied already (redelivered);
 * - an event at or before the partition's last applied position was published twice by the relay;
 * - an event at or before a projection's checkpoint is in its rows already (a rebuild put it there, or every
 *   partition's watermark has passed it).
 * The projections' checkpoint is the lowest watermark of all `partitions` (every event up to it is applied, in every
 * partition), never moved back; the checkpoint rows are locked first, so the partitions' transactions take turns
 * moving it and each sees the others' watermarks as committed. Answers the partition's next offset.
 */
export async function applyPartitionBatch(
  knex: Knex,
  at: BusPartition,
  partitions: number,
  projections: readonly Projection[],
  messages: readonly { offset: bigint; message: BusMessage | null }[],
  open: (events: RecordedEvent[]) => Promise<RecordedEvent[]>,
): Promise<bigint> {
  const names = projections.map((p) => p.name);
  return knex.transaction(async (tx) => {
    await tx.raw(
      `INSERT INTO bus_partitions (group_id, topic, partition) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
      [at.groupId, at.topic, at.partition],
    );
    const { rows: mine } = await tx.raw<{ rows: PartitionRow[] }>(
      `SELECT next_offset, applied_tx::text, applied_pos, watermark_tx::text, watermark_pos FROM bus_partitions
       WHERE group_id = ? AND topic = ? AND partition = ? FOR UPDATE`,
      [at.groupId, at.topic, at.partition],
    );
    await tx.raw(
      `INSERT INTO projection_checkpoints (name) SELECT unnest(?::text[]) ON CONFLICT DO NOTHING`,
      [names],
    );
    const { rows: checkpoints } = await tx.raw<{ rows: { name: string; tx: string; pos: string }[] }>(
      `SELECT name, transaction_id::text AS tx, position AS pos FROM projection_checkpoints
       WHERE name = ANY(?::text[]) ORDER BY name FOR UPDATE`,
      [names],
    );
    const row = mine[0]!;
    const nextOffset = BigInt(row.next_offset);
    let applied = position(row.applied_tx, row.applied_pos);
    let watermark = position(row.watermark_tx, row.watermark_pos);
    const fresh = messages.filter((m) => m.offset >= nextOffset);
    if (fresh.length === 0) return nextOffset;

    const events: RecordedEvent[] = [];
    for (const { message } of fresh) {
      if (message?.kind === 'watermark') watermark = later(message.at, watermark);
      if (message?.kind !== 'event' || comparePositions(message.event, applied) <= 0) continue;
      events.push(message.event);
      applied = message.event;
    }
    // Each projection its events past its own checkpoint (a rebuilt one may be ahead of the others).
    const checkpointOf = (name: string) => {
      const c = checkpoints.find((r) => r.name === name);
      return c ? position(c.tx, c.pos) : START;
    };
    const notices = collectNotices();
    const changes: Statement[] = [];
    const opened = events.length > 0 ? await open(events) : [];
    for (const p of projections) {
      const since = checkpointOf(p.name);
      const mineToApply = opened.filter((e) => comparePositions(e, since) > 0);
      if (mineToApply.length > 0) changes.push(...(await evolveTogether(tx, [p], mineToApply, notices)));
    }

    const { rows: others } = await tx.raw<{ rows: { partition: number; tx: string; pos: string }[] }>(
      `SELECT partition, watermark_tx::text AS tx, watermark_pos AS pos FROM bus_partitions
       WHERE group_id = ? AND topic = ? AND partition <> ?`,
      [at.groupId, at.topic, at.partition],
    );
    let lowest = others.length + 1 >= partitions ? watermark : START;
    for (const o of others) {
      const w = position(o.tx, o.pos);
      if (comparePositions(w, lowest) < 0) lowest = w;
    }
    const moved = names.filter((n) => comparePositions(lowest, checkpointOf(n)) > 0);
    const sending = notices.sending();
    const steps: Statement[] = [
      ...changes,
      ...sending.steps,
      {
        sql: `UPDATE bus_partitions SET next_offset = ?::bigint, applied_tx = ?::text::xid8, applied_pos = ?::bigint,
                watermark_tx = ?::text::xid8, watermark_pos = ?::bigint, updated_at = now()
              WHERE group_id = ? AND topic = ? AND partition = ? RETURNING 1`,
        bindings: [
          (fresh[fresh.length - 1]!.offset + 1n).toString(),
          applied.transactionId.toString(),
          applied.position.toString(),
          watermark.transactionId.toString(),
          watermark.position.toString(),
          at.groupId,
          at.topic,
          at.partition,
        ],
      },
    ];
    if (moved.length > 0)
      steps.push({
        sql: `UPDATE projection_checkpoints SET transaction_id = ?::text::xid8, position = ?::bigint,
                events_processed = events_processed + ?, updated_at = now()
              WHERE name = ANY(?::text[]) RETURNING 1`,
        bindings: [lowest.transactionId.toString(), lowest.position.toString(), events.length, moved],
      });
    const notifies = [...sending.notifies];
    if (moved.length > 0)
      notifies.push({
        sql: 'SELECT pg_notify(?, ?)::text',
        bindings: [
          PROJECTIONS_CHANNEL,
          JSON.stringify({
            names: moved,
            transactionId: lowest.transactionId.toString(),
            position: lowest.position.toString(),
          }),
        ],
      });
    await runInOneStatement(tx, steps, notifies.length > 0 ? unionAll(notifies) : undefined);
    return fresh[fresh.length - 1]!.offset + 1n;
  });
}

/**
 * Consumes `topic` in the consumer group `groupId` and keeps `projections` (each `order: 'stream'`) up to date from
 * it, partition by partition (`applyPartitionBatch`). On joining the group, each assigned partition is read from the
 * offset stored beside the read models; the offsets committed to Kafka afterwards are only a hint for tools. Resolves
 * once `signal` aborts and the consumer has left the group.
 */
export async function runKafkaProjections(opts: {
  knex: Knex;
  kafka: Kafka;
  topic: string;
  groupId: string;
  partitions: number;
  projections: readonly Projection[];
  open: (events: RecordedEvent[]) => Promise<RecordedEvent[]>;
  signal: AbortSignal;
}): Promise<void> {
  const { knex, topic, groupId } = opts;
  // The relay makes the topic too; whichever starts first.
  await ensureTopic(opts.kafka, topic, opts.partitions);
  const consumer: Consumer = opts.kafka.consumer({
    groupId,
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = payload.memberAssignment[topic] ?? [];
      void knex('bus_partitions')
        .where({ group_id: groupId, topic })
        .whereIn('partition', assigned)
        .select('partition', 'next_offset')
        .then((rows: { partition: number; next_offset: string }[]) => {
          for (const r of rows) consumer.seek({ topic, partition: r.partition, offset: r.next_offset });
        })
        .catch(() => {}); // the stored offsets still skip what was applied
    });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      // A partition's batch is one transaction of its own (as on two workers), so partitions need not wait in turn.
      partitionsConsumedConcurrently: opts.partitions,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        const next = await applyPartitionBatch(
          knex,
          { groupId, topic, partition: batch.partition },
          opts.partitions,
          opts.projections,
          batch.messages.map((m) => ({ offset: BigInt(m.offset), message: readBusMessage(m) })),
          opts.open,
        );
        resolveOffset(batch.lastOffset());
        // Only a hint (the offset that counts is stored with the rows): the next batch does not wait for it.
        void consumer
          .commitOffsets([{ topic, partition: batch.partition, offset: next.toString() }])
          .catch(() => {});
        await heartbeat();
      },
    });
    // kafkajs restarts a crashed consumer by itself, unless the error is one it gives up on: then this run fails and
    // the caller starts a new one.
    const gaveUp = new Promise<void>((_resolve, reject) =>
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (!payload.restart) reject(payload.error);
      }),
    );
    const stopped = new Promise<void>((resolve) => {
      if (opts.signal.aborted) resolve();
      else opts.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([stopped, gaveUp]);
  } finally {
    await consumer.disconnect().catch(() => {});
  }
}
