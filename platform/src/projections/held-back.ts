import type { Knex } from 'knex';
import { noteIfDatabaseUnavailable } from '../db/availability';
import { FOREIGN_XIDS_SEEN_SQL, foreignXidsNow, visibleHorizonSql } from '../event-store/visibility';
import { logger as defaultLogger } from '../logger';

/** An open transaction that keeps committed events invisible to readers (it might still write events below them). */
export type HeldBackBlocker = {
  /** The transaction id (xid8) of the blocking transaction. */
  transactionId: string;
  /** 'backend': a session (pg_stat_activity); 'prepared': a two-phase transaction (pg_prepared_xacts); 'unknown': still running, but this role cannot see its session (or it has none). */
  kind: 'backend' | 'prepared' | 'unknown';
  pid: number | null;
  database: string | null;
  user: string | null;
  applicationName: string | null;
  clientAddress: string | null;
  /** pg_stat_activity.state ('idle in transaction', 'active', …) or 'prepared'. */
  state: string | null;
  transactionStart: Date | null;
  /** Seconds since the blocking transaction started (or was prepared). */
  transactionSeconds: number | null;
  /** The session's current or last statement (first 300 characters). */
  query: string | null;
  /** A prepared transaction's name, for COMMIT PREPARED / ROLLBACK PREPARED. */
  gid: string | null;
};

export type HeldBackStatus = {
  heldBack: boolean;
  /** Committed events past the slowest projection's checkpoint that readers cannot see yet. */
  events: number;
  /** When the oldest of them was appended: the held-back state has lasted since then. */
  since: Date | null;
  /** How long (seconds) the oldest held-back event has waited; 0 when nothing is held back. */
  seconds: number;
  /** Readers see events whose transaction id is below this one (xid8, as text). */
  horizon: string;
  /** The open transactions that must end before every held-back event becomes visible, oldest first. */
  blockers: HeldBackBlocker[];
};

type StatusRow = {
  horizon: string;
  events: number;
  since: Date | null;
  seconds: number | null;
  blockers: (Omit<HeldBackBlocker, 'transactionStart'> & { transactionStart: string | null })[];
};

/**
 * One statement, so the horizon, the held-back events and the blockers come from the same snapshot. Blockers are
 * the running transactions the horizon does not skip (see visibility.ts) whose id is not above the newest held-back
 * event and that are still running: each must end before all of them are visible. (Whether one still runs is asked
 * after the sessions were read, on the rows of `blockers`, so one that ends in between drops out rather than showing
 * as a session nobody can see.)
 *
 * Transactions proven foreign are those of other databases seen just BEFORE the statement (the parameter) and those
 * seen while it runs (after its snapshot). Seen only after, a transaction of another database that ends in between
 * (under load, with busy neighbours on a shared server, every few dozen checks) would count as ours: a spurious
 * blocker with no session, and a horizon moved below our own blocker. Seen before too, it is skipped: its xid still
 * running in the snapshot is the same transaction, of the same database.
 */
const HELD_BACK_STATUS_SQL = `
  WITH slowest AS (
    SELECT COALESCE(c.transaction_id, '0'::xid8) AS transaction_id, COALESCE(c.position, 0) AS position
    FROM unnest(?::text[]) AS n(name) LEFT JOIN projection_checkpoints c ON c.name = n.name
    ORDER BY 1, 2 LIMIT 1),
  foreign_xids AS MATERIALIZED (${FOREIGN_XIDS_SEEN_SQL}),
  horizon AS MATERIALIZED (SELECT ${visibleHorizonSql('SELECT xid FROM foreign_xids')} AS h),
  held AS MATERIALIZED (
    SELECT count(*)::int AS events, min(e.created_at) AS since, max(e.transaction_id) AS newest
    FROM events e, slowest s, horizon
    WHERE (e.transaction_id, e.position) > (s.transaction_id, s.position) AND e.transaction_id >= horizon.h),
  running AS (
    SELECT x AS xid8, x::xid::text::bigint AS xid
    FROM pg_snapshot_xip(pg_current_snapshot()) AS x, horizon, held
    WHERE held.events > 0 AND x >= horizon.h AND x <= held.newest
      AND x::xid::text::bigint NOT IN (SELECT xid FROM foreign_xids)),
  blockers AS MATERIALIZED (
    SELECT r.xid8,
      CASE WHEN a.pid IS NOT NULL THEN 'backend' WHEN p.gid IS NOT NULL THEN 'prepared' ELSE 'unknown' END AS kind,
      a.pid,
      COALESCE(a.datname, p.database::text) AS database,
      COALESCE(a.usename, p.owner::text) AS "user",
      a.application_name AS "applicationName",
      host(a.client_addr) AS "clientAddress",
      CASE WHEN a.pid IS NOT NULL THEN a.state WHEN p.gid IS NOT NULL THEN 'prepared' END AS state,
      COALESCE(a.xact_start, p.prepared) AS "transactionStart",
      EXTRACT(epoch FROM clock_timestamp() - COALESCE(a.xact_start, p.prepared))::float8 AS "transactionSeconds",
      left(a.query, 300) AS query,
      p.gid
    FROM running r
    LEFT JOIN pg_stat_activity a ON a.backend_xid::text::bigint = r.xid
    LEFT JOIN pg_prepared_xacts p ON p.transaction::text::bigint = r.xid)
  SELECT horizon.h::text AS horizon, held.events, held.since,
    EXTRACT(epoch FROM clock_timestamp() - held.since)::float8 AS seconds,
    COALESCE((SELECT json_agg(json_build_object(
        'transactionId', b.xid8::text, 'kind', b.kind, 'pid', b.pid, 'database', b.database, 'user', b."user",
        'applicationName', b."applicationName", 'clientAddress', b."clientAddress", 'state', b.state,
        'transactionStart', b."transactionStart", 'transactionSeconds', b."transactionSeconds",
        'query', b.query, 'gid', b.gid) ORDER BY b.xid8)
      FROM blockers b WHERE pg_xact_status(b.xid8) = 'in progress'), '[]'::json) AS blockers
  FROM horizon, held`;

/**
 * Whether the projections are held back: committed events they cannot see yet because an older transaction that
 * may still write events is open, how many, since when, and who holds them (`names`: the projections to consider;
 * the slowest checkpoint counts).
 */
export async function heldBackStatus(knex: Knex, names: readonly string[]): Promise<HeldBackStatus> {
  const foreign = await foreignXidsNow(knex);
  const { rows } = await knex.raw<{ rows: StatusRow[] }>(HELD_BACK_STATUS_SQL, [[...names], foreign]);
  const r = rows[0]!;
  const events = Number(r.events);
  return {
    heldBack: events > 0,
    events,
    since: events > 0 ? r.since : null,
    seconds: events > 0 ? Math.max(0, Number(r.seconds ?? 0)) : 0,
    horizon: r.horizon,
    blockers: r.blockers.map((b) => ({
      ...b,
      transactionStart: b.transactionStart ? new Date(b.transactionStart) : null,
    })),
  };
}

const seconds = (s: number | null) => (s == null ? '?' : `${s.toFixed(1)} s`);

/** One line per blocker, for logs and the CLI. */
export function describeBlocker(b: HeldBackBlocker): string {
  if (b.kind === 'prepared')
    return `prepared transaction '${b.gid}' (transaction id ${b.transactionId}) in database "${b.database}", prepared ${seconds(b.transactionSeconds)} ago: end it with COMMIT PREPARED '${b.gid}' or ROLLBACK PREPARED '${b.gid}'`;
  if (b.kind === 'unknown')
    return `transaction id ${b.transactionId} (no session visible to this role, or it has just ended)`;
  const who = [
    b.user && `user ${b.user}`,
    b.applicationName && `application "${b.applicationName}"`,
    b.clientAddress && `from ${b.clientAddress}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `pid ${b.pid} in database "${b.database}"${who ? ` (${who})` : ''}: ${b.state ?? 'unknown state'}, transaction open for ${seconds(b.transactionSeconds)} (transaction id ${b.transactionId}), last query: ${JSON.stringify(b.query ?? '')}`;
}

/** What an operator reads: the state, who blocks, and the remedy. */
export function describeHeldBack(s: HeldBackStatus): string {
  if (!s.heldBack) return 'Projections are not held back: every committed event is visible to them.';
  const pids = s.blockers.filter((b) => b.kind === 'backend').map((b) => b.pid);
  return [
    `Projections are held back: ${s.events} committed event(s) are not visible to them yet, the oldest waiting for ${seconds(s.seconds)}, because older transaction(s) that may still append events are open:`,
    ...s.blockers.map((b) => `  - ${describeBlocker(b)}`),
    ...(s.blockers.length === 0 ? ['  - (the blocking transaction has just ended)'] : []),
    `Remedy: end that transaction (COMMIT or ROLLBACK in its session)${pids.length > 0 ? `, or terminate it: SELECT pg_terminate_backend(${pids.join('); SELECT pg_terminate_backend(')});` : '.'}`,
    `To prevent it, set idle_in_transaction_session_timeout (e.g. '1min') for the users or databases whose sessions may be left open.`,
  ].join('\n');
}

/** Where the monitor reports: the platform logger by default. */
export type HeldBackLog = {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type HeldBackMonitor = {
  stop(): Promise<void>;
  /** Runs one check now (tests). */ check(): Promise<void>;
};

/**
 * Checks every `intervalMs` whether the projections are held back and, once that has lasted `thresholdMs`, logs a
 * warning naming the blocking backends (again every `repeatMs` while it lasts, and at once when another transaction
 * becomes the oldest blocker: the one every held-back event waits for; transactions that come and go behind it, such as
 * the app's own appends in flight, change nothing),
 * then one line when it is over.
 */
export function startHeldBackMonitor(
  knex: Knex,
  names: readonly string[],
  opts: { thresholdMs: number; intervalMs?: number; repeatMs?: number; log?: HeldBackLog },
): HeldBackMonitor {
  const log: HeldBackLog = opts.log ?? defaultLogger;
  const intervalMs = opts.intervalMs ?? Math.min(5000, Math.max(100, opts.thresholdMs / 2));
  const repeatMs = opts.repeatMs ?? 60_000;
  let warnedAt = 0;
  let warnedOldest = '';
  let longest = 0;
  let failing = false;
  let running: Promise<void> | undefined;
  let stopped = false;

  const check = async () => {
    try {
      const s = await heldBackStatus(knex, names);
      failing = false;
      if (s.heldBack && s.seconds * 1000 >= opts.thresholdMs) {
        longest = Math.max(longest, s.seconds);
        // No blocker left: it has just ended (the next check sees the events), which is no new one.
        const oldest = s.blockers[0];
        const key = oldest ? `${oldest.pid}:${oldest.transactionId}` : warnedOldest;
        if (warnedAt === 0 || key !== warnedOldest || Date.now() - warnedAt >= repeatMs) {
          warnedAt = Date.now();
          warnedOldest = key;
          log.warn(
            {
              heldBackEvents: s.events,
              heldBackSeconds: Math.round(s.seconds * 10) / 10,
              since: s.since,
              blockers: s.blockers.map((b) => ({
                pid: b.pid,
                database: b.database,
                user: b.user,
                state: b.state,
                transactionStart: b.transactionStart,
                query: b.query,
                transactionId: b.transactionId,
                gid: b.gid,
              })),
            },
            describeHeldBack(s),
          );
        }
      } else if (!s.heldBack && warnedAt > 0) {
        log.info(
          { heldBackSeconds: Math.round(longest * 10) / 10 },
          'Projections are no longer held back: every committed event is visible again.',
        );
        warnedAt = 0;
        warnedOldest = '';
        longest = 0;
      }
    } catch (error) {
      // The database away is noted once for everyone; any other failure here once until checks succeed again.
      if (!failing && !stopped && !noteIfDatabaseUnavailable(error, 'held-back monitor'))
        log.error({ err: error }, 'could not check whether projections are held back');
      failing = true;
    }
  };

  const timer = setInterval(() => {
    if (running || stopped) return;
    running = check().finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();

  return {
    async check() {
      await (running ?? Promise.resolve());
      await check();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
