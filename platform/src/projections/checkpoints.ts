import type { Knex } from 'knex';
import { START, type LogPosition, type RecordedEvent } from '../event-store/event-store';
import type { Projection } from './projection';

export const PROJECTIONS_CHANNEL = 'pawhaven_projections';

type CheckpointRow = { transaction_id: string; position: string; events_processed: string };

const toPosition = (r: CheckpointRow | undefined): LogPosition =>
  r ? { transactionId: BigInt(r.transaction_id), position: BigInt(r.position) } : START;

export async function readCheckpoint(knex: Knex, name: string): Promise<LogPosition> {
  const row = await knex('projection_checkpoints').where({ name }).first<CheckpointRow | undefined>();
  return toPosition(row);
}

/** Thrown when another process (a rebuild, a second worker) moved the checkpoint under us. */
export class CheckpointMoved extends Error {}

/**
 * Applies a batch and advances the checkpoint in ONE transaction, guarded by the checkpoint it started from:
 * a crash never loses or doubles an effect, and two workers never both apply the same events.
 */
export async function applyBatch(
  knex: Knex,
  projection: Projection,
  batch: RecordedEvent[],
  expected: LogPosition,
): Promise<LogPosition> {
  const last = batch[batch.length - 1];
  if (!last) return expected;
  const handled = new Set(projection.handles);
  await knex.transaction(async (tx) => {
    const row = await tx('projection_checkpoints')
      .where({ name: projection.name })
      .forUpdate()
      .first<CheckpointRow | undefined>();
    const current = toPosition(row);
    if (current.transactionId !== expected.transactionId || current.position !== expected.position) {
      throw new CheckpointMoved(`${projection.name} checkpoint moved`);
    }
    for (const event of batch) if (handled.has(event.type)) await projection.apply(tx, event);
    await tx.raw(
      `INSERT INTO projection_checkpoints (name, transaction_id, position, events_processed, updated_at)
       VALUES (?, ?::text::xid8, ?, ?, now())
       ON CONFLICT (name) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position,
         events_processed = projection_checkpoints.events_processed + EXCLUDED.events_processed, updated_at = now()`,
      [projection.name, last.transactionId.toString(), last.position.toString(), batch.length],
    );
    await tx.raw('SELECT pg_notify(?, ?)', [
      PROJECTIONS_CHANNEL,
      JSON.stringify({
        names: [projection.name],
        transactionId: last.transactionId.toString(),
        position: last.position.toString(),
      }),
    ]);
  });
  return { transactionId: last.transactionId, position: last.position };
}

/** Empties the projection's tables and puts its checkpoint back to the start, atomically. */
export async function resetProjection(knex: Knex, projection: Projection): Promise<void> {
  await knex.transaction(async (tx) => {
    await tx.raw(`INSERT INTO projection_checkpoints (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, [
      projection.name,
    ]);
    await tx('projection_checkpoints').where({ name: projection.name }).forUpdate();
    if (projection.tables.length > 0)
      await tx.raw(`TRUNCATE ${projection.tables.map((t) => `"${t}"`).join(', ')}`);
    await tx('projection_checkpoints')
      .where({ name: projection.name })
      .update({
        transaction_id: knex.raw(`'0'::xid8`),
        position: 0,
        events_processed: 0,
        updated_at: knex.fn.now(),
      });
  });
}

export type ProjectionStatus = {
  name: string;
  position: string;
  transactionId: string;
  eventsProcessed: number;
  updatedAt: Date | null;
  /** Events visible in the log that this projection has not processed yet. */
  lag: number;
};

export async function projectionStatus(
  knex: Knex,
  projections: readonly Projection[],
): Promise<ProjectionStatus[]> {
  const result: ProjectionStatus[] = [];
  for (const p of projections) {
    const row = await knex('projection_checkpoints')
      .where({ name: p.name })
      .first<(CheckpointRow & { updated_at: Date }) | undefined>();
    const at = toPosition(row);
    const lagRow = await knex.raw<{ rows: { lag: string }[] }>(
      `SELECT count(*) AS lag FROM events WHERE (transaction_id, position) > (?::text::xid8, ?::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())`,
      [at.transactionId.toString(), at.position.toString()],
    );
    result.push({
      name: p.name,
      position: at.position.toString(),
      transactionId: at.transactionId.toString(),
      eventsProcessed: Number(row?.events_processed ?? 0),
      updatedAt: row?.updated_at ?? null,
      lag: Number(lagRow.rows[0]?.lag ?? 0),
    });
  }
  return result;
}
