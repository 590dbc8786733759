import type { Knex } from 'knex';
import type { EventStore, LogPosition } from '../event-store/event-store';
import { comparePositions, START, type RecordedEvent } from '../event-store/event-store';
import { applyBatch, CheckpointMoved, readCheckpoint, resetProjection } from './checkpoints';
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
  const total = await countUpTo(knex, head);
  const batchSize = opts.batchSize ?? 1000;
  let at: LogPosition = START;
  let processed = 0;
  onProgress({ name: projection.name, processed, total });
  for (;;) {
    try {
      let batch: RecordedEvent[] = [];
      const flush = async () => {
        at = await applyBatch(knex, projection, batch, at);
        processed += batch.length;
        batch = [];
        onProgress({ name: projection.name, processed, total });
      };
      for await (const event of store.readAll(at, { batchSize, upTo: head })) {
        batch.push(event);
        if (batch.length >= batchSize) await flush();
      }
      if (batch.length > 0) await flush();
      break;
    } catch (error) {
      // A live projector applied some of these events first: carry on after whatever it reached.
      if (!(error instanceof CheckpointMoved)) throw error;
      at = await readCheckpoint(knex, projection.name);
      processed = await countUpTo(knex, at);
      onProgress({ name: projection.name, processed: Math.min(processed, total), total });
      if (comparePositions(at, head) >= 0) break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    name: projection.name,
    processed,
    seconds,
    eventsPerSecond: seconds > 0 ? processed / seconds : processed,
  };
}

const countUpTo = async (knex: Knex, at: LogPosition) =>
  Number(
    (
      await knex.raw<{ rows: { n: string }[] }>(
        `SELECT count(*) AS n FROM events WHERE (transaction_id, position) <= (?::text::xid8, ?::bigint)`,
        [at.transactionId.toString(), at.position.toString()],
      )
    ).rows[0]?.n ?? 0,
  );
