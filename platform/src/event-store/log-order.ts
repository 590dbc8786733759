import type { Knex } from 'knex';
import { logger as defaultLogger } from '../logger';
import { resetProjection } from '../projections/checkpoints';
import type { Projection } from '../projections/projection';

/**
 * The global order is (transaction_id, position), and transaction_id comes from the server's transaction counter.
 * A dump restored into another server keeps the stored ids but not the counter: when the counter is behind them,
 * every new event sorts BEFORE the restored ones, and every projection, whose checkpoint is past them, skips it.
 *
 * At start we compare the highest stored id (events and checkpoints) with the server's counter
 * (`pg_snapshot_xmax`: one past the latest completed transaction; a committed row from this server is always below
 * it, so a stored id at or above it was written by another server). When that happens we repair, in one
 * transaction that locks the log and the checkpoints against writers:
 *
 * - T = the snapshot's xmin - 1 (below every running and future transaction of this server, and visible);
 *   P = the lowest position of an event whose id is above T. Every event from position P on gets transaction id T.
 *   Events below P keep their ids (all are ≤ T), so they still come first, in their old order; the renumbered ones
 *   follow in position order, which keeps each stream's order (appends to one stream are serialised, so its
 *   positions grow with its revisions). New appends get ids above T and come after all of them.
 * - A checkpoint stands for the set of events it has applied: those whose old key is ≤ it. If that set is a prefix
 *   of the new order, the checkpoint moves to the new key of its last event, which keeps the set exactly (always so
 *   for a checkpoint at the head; in the middle, unless two appends that ran concurrently straddle it). Otherwise
 *   the projection is reset and rebuilt by the projector: a rebuild is always correct.
 * - Events appended on this server before the repair (row xmin = their transaction id) may already have been
 *   skipped by a projection whose checkpoint was past them: a checkpoint at or past one of them is reset too.
 *
 * Idempotent: after the repair every stored id is ≤ T, below the counter, so the next start finds nothing to do.
 * A process that was already following the log with a cursor from before the repair must restart.
 */

export type LogOrderReport = {
  status: 'ok' | 'repaired';
  /** The highest transaction id stored in the log or the checkpoints (before any repair). */
  highestStored: string;
  /** The server's next transaction id (pg_snapshot_xmax). */
  serverNext: string;
  /** Events given a new transaction id, the id they got and the first position renumbered. */
  renumbered: number;
  renumberedTo: string | null;
  fromPosition: string | null;
  /** Checkpoints moved to the new key of the same last event. */
  moved: { names: string[]; from: string; to: string }[];
  /** Projections reset to be rebuilt, and why. */
  reset: { names: string[]; at: string; reason: string }[];
};

type Inspection = { highest: bigint; next: bigint; xmin: bigint };

const INSPECT_SQL = `
  SELECT (SELECT transaction_id::text FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1) AS max_event,
         (SELECT max(transaction_id)::text FROM projection_checkpoints) AS max_checkpoint,
         pg_snapshot_xmax(pg_current_snapshot())::text AS next,
         pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`;

async function inspect(knex: Knex): Promise<Inspection> {
  const { rows } = await knex.raw<{
    rows: { max_event: string | null; max_checkpoint: string | null; next: string; xmin: string }[];
  }>(INSPECT_SQL);
  const r = rows[0]!;
  const event = BigInt(r.max_event ?? '0');
  const checkpoint = BigInt(r.max_checkpoint ?? '0');
  return { highest: event > checkpoint ? event : checkpoint, next: BigInt(r.next), xmin: BigInt(r.xmin) };
}

const key = (tx: string | bigint, pos: string | bigint) => `(${tx}, ${pos})`;
const NO_POSITION = '9223372036854775807';

/** Where the repair is reported: the platform logger by default. */
export type LogOrderLog = { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };

/**
 * Checks that the log's transaction ids are behind this server's counter, and repairs the order when they are not
 * (see above). Call it after the migrations and before anything appends or projects.
 */
export async function ensureLogOrder(
  knex: Knex,
  projections: readonly Projection[],
  opts: { log?: LogOrderLog } = {},
): Promise<LogOrderReport> {
  const log: LogOrderLog = opts.log ?? defaultLogger;
  const first = await inspect(knex);
  const ok = (i: Inspection): LogOrderReport => ({
    status: 'ok',
    highestStored: i.highest.toString(),
    serverNext: i.next.toString(),
    renumbered: 0,
    renumberedTo: null,
    fromPosition: null,
    moved: [],
    reset: [],
  });
  if (first.highest < first.next) return ok(first);

  const report = await knex.transaction(async (tx) => {
    // Writers (appends, projectors moving checkpoints) wait; readers go on.
    await tx.raw('LOCK TABLE events, projection_checkpoints IN EXCLUSIVE MODE');
    const found = await inspect(tx); // someone may have repaired while we waited
    if (found.highest < found.next) return ok(found);

    const t = (found.xmin - 1n).toString();
    const { rows: pRows } = await tx.raw<{ rows: { p: string | null }[] }>(
      'SELECT min(position)::text AS p FROM events WHERE transaction_id > ?::text::xid8',
      [t],
    );
    const p = pRows[0]?.p ?? null;
    const newTx = `CASE WHEN position >= ${p ? '?::bigint' : `${NO_POSITION}::bigint`} THEN ?::text::xid8 ELSE transaction_id END`;
    const newTxBindings = p ? [p, t] : [t];

    // The lowest event appended on this server (its row was inserted by the transaction whose id it stores).
    const { rows: local } = await tx.raw<{ rows: { tx: string; pos: string }[] }>(
      `SELECT transaction_id::text AS tx, position::text AS pos FROM events
       WHERE xmin::text = (transaction_id::xid)::text ORDER BY transaction_id, position LIMIT 1`,
    );
    const firstLocal = local[0];

    const { rows: groups } = await tx.raw<{ rows: { tx: string; pos: string; names: string[] }[] }>(
      `SELECT transaction_id::text AS tx, position::text AS pos, array_agg(name ORDER BY name) AS names
       FROM projection_checkpoints GROUP BY transaction_id, position ORDER BY transaction_id, position`,
    );
    const moved: LogOrderReport['moved'] = [];
    const reset: LogOrderReport['reset'] = [];
    for (const g of groups) {
      if (g.tx === '0' && g.pos === '0') continue; // at the start: nothing applied, nothing to move
      const at = key(g.tx, g.pos);
      if (
        firstLocal &&
        (BigInt(firstLocal.tx) < BigInt(g.tx) ||
          (firstLocal.tx === g.tx && BigInt(firstLocal.pos) <= BigInt(g.pos)))
      ) {
        reset.push({
          names: g.names,
          at,
          reason: `events appended on this server before the repair (from ${key(firstLocal.tx, firstLocal.pos)}) sort before its checkpoint and may have been skipped`,
        });
        continue;
      }
      const { rows: heads } = await tx.raw<{ rows: { tx: string; pos: string }[] }>(
        `SELECT (${newTx})::text AS tx, position::text AS pos FROM events
         WHERE (transaction_id, position) <= (?::text::xid8, ?::bigint)
         ORDER BY ${newTx} DESC, position DESC LIMIT 1`,
        [...newTxBindings, g.tx, g.pos, ...newTxBindings],
      );
      const head = heads[0] ?? { tx: '0', pos: '0' };
      const { rows: gaps } = await tx.raw<{ rows: { gap: boolean }[] }>(
        `SELECT EXISTS (SELECT 1 FROM events
           WHERE (transaction_id, position) > (?::text::xid8, ?::bigint)
             AND (${newTx}, position) < (?::text::xid8, ?::bigint)) AS gap`,
        [g.tx, g.pos, ...newTxBindings, head.tx, head.pos],
      );
      if (gaps[0]?.gap) {
        reset.push({
          names: g.names,
          at,
          reason:
            'the events it applied are not a prefix of the renumbered order (concurrent appends straddle it)',
        });
        continue;
      }
      if (head.tx !== g.tx || head.pos !== g.pos) {
        await tx.raw(
          `UPDATE projection_checkpoints SET transaction_id = ?::text::xid8, position = ?::bigint, updated_at = now()
           WHERE name = ANY(?::text[])`,
          [head.tx, head.pos, g.names],
        );
        moved.push({ names: g.names, from: at, to: key(head.tx, head.pos) });
      }
    }

    const byName = new Map(projections.map((pr) => [pr.name, pr]));
    for (const r of reset) {
      for (const name of r.names) {
        const projection = byName.get(name);
        if (projection)
          await resetProjection(tx, projection); // empties its tables; the projector rebuilds it from the start
        else
          await tx('projection_checkpoints')
            .where({ name })
            .update({
              transaction_id: tx.raw(`'0'::xid8`),
              position: 0,
              events_processed: 0,
              updated_at: tx.fn.now(),
            });
      }
    }

    let renumbered = 0;
    if (p) {
      const result = await tx.raw<{ rowCount: number }>(
        'UPDATE events SET transaction_id = ?::text::xid8 WHERE position >= ?::bigint',
        [t, p],
      );
      renumbered = result.rowCount;
    }
    const after = await inspect(tx);
    if (after.highest >= after.next)
      throw new Error(
        `Could not repair the event log's order: transaction id ${after.highest} is still at or past this server's counter (${after.next}).`,
      );
    return {
      status: 'repaired',
      highestStored: found.highest.toString(),
      serverNext: found.next.toString(),
      renumbered,
      renumberedTo: t,
      fromPosition: p,
      moved,
      reset,
    } satisfies LogOrderReport;
  });

  if (report.status === 'repaired')
    log.warn(
      report,
      `The event log was restored from another PostgreSQL server: its transaction ids (up to ${report.highestStored}) were ahead of this server's counter (${report.serverNext}), so new events would have sorted before the restored ones and every projection would have skipped them. ` +
        `Repaired: ${report.renumbered} event(s) from position ${report.fromPosition ?? '-'} on now carry transaction id ${report.renumberedTo} (in position order); ` +
        `checkpoints moved: ${report.moved.map((m) => `${m.names.join(', ')} ${m.from} -> ${m.to}`).join('; ') || 'none'}; ` +
        `projections reset for a rebuild: ${report.reset.map((r) => `${r.names.join(', ')} (${r.reason})`).join('; ') || 'none'}.`,
    );
  return report;
}
