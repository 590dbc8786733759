import type { Knex } from 'knex';
import { START, type LogPosition, type RecordedEvent } from '../event-store/event-store';
import { FOREIGN_XIDS_SEEN_SQL, foreignXidsNow, runningHorizonSql } from '../event-store/visibility';
import { collectNotices } from './notices';
import { runInOneStatement, unionAll } from './live-batch';
import type { Projection } from './projection';
import { evolveTogether } from './read-model';

export const PROJECTIONS_CHANNEL = 'pawhaven_projections';

type CheckpointRow = { name?: string; transaction_id: string; position: string; events_processed?: string };

const toPosition = (r: CheckpointRow | undefined): LogPosition =>
  r ? { transactionId: BigInt(r.transaction_id), position: BigInt(r.position) } : START;

export async function readCheckpoint(knex: Knex, name: string): Promise<LogPosition> {
  const row = await knex('projection_checkpoints').where({ name }).first<CheckpointRow | undefined>();
  return toPosition(row);
}

/** Thrown when another process (a rebuild, a second worker) moved `projection`'s checkpoint under us. */
export class CheckpointMoved extends Error {
  constructor(readonly projection: Projection) {
    super(`${projection.name} checkpoint moved`);
  }
}

/**
 * Applies a batch of the log to `members` (projections whose checkpoints are all at `expected`) and moves their
 * checkpoints, in ONE transaction guarded by those checkpoints: a crash never loses or doubles an effect, and two
 * workers never both apply the same events. Round trips besides BEGIN and COMMIT: the checkpoints locked; the loads
 * of the read models' rows (one per depth of their read chain, shared by all of them); and one statement that writes
 * every change, keeps the change notices, moves the checkpoints and sends the NOTIFYs.
 */
export async function applyBatch(
  knex: Knex,
  members: readonly Projection[],
  batch: readonly RecordedEvent[],
  expected: LogPosition,
): Promise<LogPosition> {
  const last = batch[batch.length - 1];
  if (!last) return expected;
  const names = members.map((m) => m.name);
  await knex.transaction(async (tx) => {
    const rows = (await tx('projection_checkpoints')
      .whereIn('name', names)
      .forUpdate()
      .select('name', 'transaction_id', 'position')) as CheckpointRow[];
    for (const m of members) {
      const current = toPosition(rows.find((r) => r.name === m.name));
      if (current.transactionId !== expected.transactionId || current.position !== expected.position)
        throw new CheckpointMoved(m);
    }
    const notices = collectNotices();
    // Projections written by hand (the reactors) apply event by event, in log order.
    for (const event of batch)
      for (const m of members)
        if (!m.model && m.handles.includes(event.type)) await m.apply(tx, event, notices);
    const changes = await evolveTogether(tx, members, batch, notices);
    const sending = notices.sending();
    await runInOneStatement(
      tx,
      [
        ...changes,
        ...sending.steps,
        {
          sql: `INSERT INTO projection_checkpoints (name, transaction_id, position, events_processed, updated_at)
                SELECT n, ?::text::xid8, ?::bigint, ?::bigint, now() FROM unnest(?::text[]) AS n
                ON CONFLICT (name) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position,
                  events_processed = projection_checkpoints.events_processed + EXCLUDED.events_processed,
                  updated_at = now()`,
          bindings: [last.transactionId.toString(), last.position.toString(), batch.length, names],
        },
      ],
      // The notices first, then the checkpoints' NOTIFY, as listeners heard them before.
      unionAll([
        ...sending.notifies,
        {
          sql: 'SELECT pg_notify(?, ?)::text',
          bindings: [
            PROJECTIONS_CHANNEL,
            JSON.stringify({
              names,
              transactionId: last.transactionId.toString(),
              position: last.position.toString(),
            }),
          ],
        },
      ]),
    );
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
  /** Committed events in the log that this projection has not processed yet, visible or held back. */
  lag: number;
  /**
   * Of those, how many it cannot see yet: they are held back behind an older open transaction that may still append
   * events (see `heldBackStatus` for who and since when).
   */
  heldBack: number;
  /** When the oldest held-back event was appended; null when none is held back. */
  heldBackSince: Date | null;
  /** The last failure of its live projector or of a rebuild, until a rebuild succeeds (`recordProjectionError`). */
  lastError: string | null;
  lastErrorAt: Date | null;
};

type StatusRow = {
  name: string;
  transaction_id: string | null;
  position: string | null;
  events_processed: string | null;
  updated_at: Date | null;
  lag: string;
  held_back: string;
  held_back_since: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
};

/**
 * Every projection's checkpoint and lag, from one snapshot. Held back are the events behind a transaction that may be
 * ours and still runs (`runningHorizonSql`, with the foreign transactions seen before the statement too).
 */
export async function projectionStatus(
  knex: Knex,
  projections: readonly Projection[],
): Promise<ProjectionStatus[]> {
  const foreign = await foreignXidsNow(knex);
  const { rows } = await knex.raw<{ rows: StatusRow[] }>(
    `WITH foreign_xids AS MATERIALIZED (${FOREIGN_XIDS_SEEN_SQL}),
     horizon AS MATERIALIZED (SELECT ${runningHorizonSql('SELECT xid FROM foreign_xids')} AS h),
     cp AS (
       SELECT n.name, n.ord, c.transaction_id, c.position, c.events_processed, c.updated_at, c.last_error,
         c.last_error_at,
         COALESCE(c.transaction_id, '0'::xid8) AS at_tx, COALESCE(c.position, 0) AS at_pos
       FROM unnest(?::text[]) WITH ORDINALITY AS n(name, ord)
       LEFT JOIN projection_checkpoints c ON c.name = n.name)
     SELECT cp.name, cp.transaction_id::text AS transaction_id, cp.position, cp.events_processed, cp.updated_at,
       cp.last_error, cp.last_error_at, pending.lag, pending.held_back, pending.held_back_since
     FROM cp, horizon, LATERAL (
       SELECT count(*) AS lag, count(*) FILTER (WHERE e.transaction_id >= horizon.h) AS held_back,
         min(e.created_at) FILTER (WHERE e.transaction_id >= horizon.h) AS held_back_since
       FROM events e WHERE (e.transaction_id, e.position) > (cp.at_tx, cp.at_pos)) AS pending
     ORDER BY cp.ord`,
    [foreign, projections.map((p) => p.name)],
  );
  return rows.map((r) => ({
    name: r.name,
    position: r.position ?? '0',
    transactionId: r.transaction_id ?? '0',
    eventsProcessed: Number(r.events_processed ?? 0),
    updatedAt: r.updated_at,
    lag: Number(r.lag),
    heldBack: Number(r.held_back),
    heldBackSince: r.held_back_since,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
  }));
}

/** Longest error text kept: a screen shows one line of it; the whole error is in the log. */
const ERROR_TEXT_MAX = 500;

/**
 * Records a failure of these projections (their live projector's batch, or their rebuild) for the Projections
 * screen. Best effort: it is called while something already went wrong, maybe the database itself.
 */
export async function recordProjectionError(
  knex: Knex,
  names: readonly string[],
  error: unknown,
): Promise<void> {
  const text = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_TEXT_MAX) || 'failed';
  await knex
    .raw(
      `INSERT INTO projection_checkpoints (name, last_error, last_error_at)
       SELECT name, ?, now() FROM unnest(?::text[]) AS name
       ON CONFLICT (name) DO UPDATE SET last_error = EXCLUDED.last_error, last_error_at = EXCLUDED.last_error_at`,
      [text, [...names]],
    )
    .catch(() => {});
}
