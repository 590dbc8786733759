import type { Knex } from 'knex';
import type { EventStore, LogPosition } from '../event-store/event-store';
import { START } from '../event-store/event-store';
import { applyBatch, resetProjection } from './checkpoints';
import type { Projection } from './projection';

export type RebuildProgress = { name: string; processed: number; total: number };
export type RebuildResult = { name: string; processed: number; seconds: number; eventsPerSecond: number };

/**
 * Replays the whole log into an emptied projection up to the head seen at the start; a live projector
 * running meanwhile continues from wherever the rebuild leaves the checkpoint.
 */
export async function rebuildProjection(
  knex: Knex,
  store: EventStore,
  projection: Projection,
  onProgress: (p: RebuildProgress) => void = () => {},
  opts: { batchSize?: number } = {},
): Promise<RebuildResult> {
  const started = performance.now();
  await resetProjection(knex, projection);
  const head = await store.headPosition();
  const total = Number(
    (await knex.raw<{ rows: { n: string }[] }>(
      `SELECT count(*) AS n FROM events WHERE (transaction_id, position) <= (?::text::xid8, ?::bigint)`,
      [head.transactionId.toString(), head.position.toString()],
    )).rows[0]?.n ?? 0,
  );
  const batchSize = opts.batchSize ?? 1000;
  let at: LogPosition = START;
  let processed = 0;
  let batch = [];
  onProgress({ name: projection.name, processed, total });
  for await (const event of store.readAll(START, { batchSize, upTo: head })) {
    batch.push(event);
    if (batch.length >= batchSize) {
      at = await applyBatch(knex, projection, batch, at);
      processed += batch.length;
      batch = [];
      onProgress({ name: projection.name, processed, total });
    }
  }
  if (batch.length > 0) {
    at = await applyBatch(knex, projection, batch, at);
    processed += batch.length;
    onProgress({ name: projection.name, processed, total });
  }
  const seconds = (performance.now() - started) / 1000;
  return { name: projection.name, processed, seconds, eventsPerSecond: seconds > 0 ? processed / seconds : processed };
}
