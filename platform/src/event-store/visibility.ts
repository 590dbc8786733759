import type { Knex } from 'knex';

/**
 * The visibility horizon of the event log, as SQL to embed in one statement.
 *
 * The plain rule (a reader never skips an event that commits late) lets readers see rows whose `transaction_id` is
 * below `pg_snapshot_xmin(pg_current_snapshot())`: the oldest transaction still running anywhere on the SERVER.
 * Transaction ids are server-wide, so a transaction left open in any other database of the same server holds every
 * projection back, although it cannot write a single row into our `events` table.
 *
 * The narrowed horizon below skips such transactions, and only those it can prove foreign:
 *
 * - The statement's snapshot S (which `pg_current_snapshot()` returns and which decides which rows the statement
 *   sees) is taken before the statement runs; `pg_stat_activity` and `pg_prepared_xacts` are read while it runs,
 *   so after S.
 * - An xid in S's running list (`xip`) that a backend connected to ANOTHER database reports as its own top-level
 *   `backend_xid`, or that a transaction prepared in another database holds, belongs to a transaction that cannot
 *   write rows into this database: a session never changes database, and `pg_current_xact_id()` (our column's
 *   default) is the top-level xid. (A backend slot reused after S shows only xids assigned after S, which are never
 *   in S's list.)
 * - Every other running xid counts as ours, also when we cannot tell (it ended between S and the read, the role
 *   may not see other users' sessions, a background process without a database): conservative, never unsafe.
 *
 * The horizon is the lowest running xid that may be ours, or S's xmax when there is none. Every row below it is
 * committed and visible to S, or belongs to a transaction that ended before S, or can never exist: no event below
 * it can appear later, which is all the ordering needs. When nothing runs, `xip` is empty and the activity views are
 * never read (the planner evaluates the hashed sub-plan lazily).
 */
export const FOREIGN_XIDS_SQL = `
  SELECT a.backend_xid::text::bigint AS xid FROM pg_stat_activity a
  WHERE a.backend_xid IS NOT NULL AND a.datid IS NOT NULL
    AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
  UNION ALL
  SELECT p.transaction::text::bigint FROM pg_prepared_xacts p WHERE p.database <> current_database()`;

/**
 * The foreign transactions seen both just BEFORE a statement (its parameter, from `foreignXidsNow`) and while it runs.
 * Seen only while it runs, a transaction of another database that ends between the statement's snapshot and the read
 * of the activity views would count as ours (an ended one cannot be proven foreign): under busy neighbours, every few
 * dozen statements. Seen before as well, its xid still running in the snapshot is the same transaction, so foreign.
 * A reader can afford the conservative error (it reads a little less); a status shown to people cannot.
 */
export const FOREIGN_XIDS_SEEN_SQL = `SELECT unnest(?::bigint[]) AS xid UNION ALL ${FOREIGN_XIDS_SQL}`;

/** The xids of other databases' transactions running now: the parameter of `FOREIGN_XIDS_SEEN_SQL`. */
export async function foreignXidsNow(knex: Knex): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { xid: string }[] }>(
    `SELECT xid::text FROM (${FOREIGN_XIDS_SQL}) f`,
  );
  return rows.map((r) => r.xid);
}

/**
 * The horizon with `foreignXidsSql` (a query of one non-NULL bigint column) as the transactions proven foreign; any
 * proof holds, e.g. a backend of another database seen BEFORE the statement with an xid still running in its snapshot.
 */
export const visibleHorizonSql = (foreignXidsSql: string = FOREIGN_XIDS_SQL) => `(
  SELECT COALESCE(min(x), pg_snapshot_xmax(pg_current_snapshot()))
  FROM pg_snapshot_xip(pg_current_snapshot()) AS x
  WHERE x::xid::text::bigint NOT IN (${foreignXidsSql}))`;

/**
 * The horizon as a status reports it: like `visibleHorizonSql`, but a transaction that has ended since the snapshot
 * no longer counts (it holds nothing back any more; a reader's next snapshot sees past it). Only for counting what
 * is held back: a reader must not skip an ended transaction of its own snapshot, whose events it cannot see. Whether
 * it is foreign is asked first (CASE keeps the order): one that ends after its session was read cannot pass as ours.
 */
export const runningHorizonSql = (foreignXidsSql: string) => `(
  SELECT COALESCE(min(x), pg_snapshot_xmax(pg_current_snapshot()))
  FROM pg_snapshot_xip(pg_current_snapshot()) AS x
  WHERE CASE WHEN x::xid::text::bigint IN (${foreignXidsSql}) THEN false
    ELSE pg_xact_status(x) = 'in progress' END)`;

/** A scalar sub-query: the xid8 below which every event row is final. Parenthesised, ready to compare with. */
export const VISIBLE_HORIZON_SQL = visibleHorizonSql();
