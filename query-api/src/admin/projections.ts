import type { Knex } from 'knex';
import type { AdminProjectionDto, AdminProjectionsDto, AdminRebuildState } from '@pawhaven/contracts';
import {
  describeHeldBack,
  heldBackStatus,
  projectionStatus,
  rebuildIsRunning,
  type Projection,
} from '@pawhaven/platform';
import type { RebuildBoard } from './rebuild-board';

/** Below this estimate a table's rows are counted exactly; above, PostgreSQL's estimate is enough for a screen. */
const EXACT_BELOW = 100_000;

async function tableRows(knex: Knex, tables: string[]) {
  const { rows } = await knex.raw<{ rows: { name: string; estimate: string }[] }>(
    `SELECT c.relname AS name, GREATEST(c.reltuples, 0)::bigint AS estimate
     FROM pg_class c WHERE c.relname = ANY(?) AND c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace`,
    [tables],
  );
  const estimates = new Map(rows.map((r) => [r.name, Number(r.estimate)]));
  const counts = new Map<string, { rows: number; estimated: boolean }>();
  await Promise.all(
    tables.map(async (t) => {
      const estimate = estimates.get(t) ?? 0;
      if (estimate >= EXACT_BELOW) return counts.set(t, { rows: estimate, estimated: true });
      const n = await knex.raw<{ rows: { n: string }[] }>(`SELECT count(*) AS n FROM "${t}"`);
      counts.set(t, { rows: Number(n.rows[0]?.n ?? 0), estimated: false });
    }),
  );
  return counts;
}

/**
 * The running or last rebuild: as this process heard it, or as `rebuild_runs` recorded it when that is newer (this
 * process started later, or missed the end), corrected by the lock (a rebuild whose end nobody recorded).
 */
export async function rebuildState(knex: Knex, board: RebuildBoard): Promise<AdminRebuildState | null> {
  const { rows } = await knex.raw<{ rows: { state: AdminRebuildState }[] }>(
    'SELECT state FROM rebuild_runs ORDER BY started_at DESC LIMIT 1',
  );
  const recorded = rows[0]?.state ?? null;
  let last = board.last;
  if (
    recorded &&
    (!last ||
      recorded.startedAt > last.startedAt ||
      (recorded.rebuildId === last.rebuildId && last.state === 'running' && recorded.state !== 'running'))
  )
    last = recorded;
  if (last?.state === 'running' && !(await rebuildIsRunning(knex)))
    return {
      ...last,
      state: 'failed',
      error: 'The rebuild stopped without reporting its end (its process may have stopped)',
    };
  return last;
}

/** GET /api/admin/projections: every projection's checkpoint, lag, held-back state, last failure and rows. */
export async function projectionsScreen(
  knex: Knex,
  projections: readonly Projection[],
  board: RebuildBoard,
): Promise<AdminProjectionsDto> {
  const names = projections.map((p) => p.name);
  const [status, held, rows, head, rebuild] = await Promise.all([
    projectionStatus(knex, projections),
    heldBackStatus(knex, names),
    tableRows(
      knex,
      projections.flatMap((p) => p.tables),
    ),
    knex.raw<{ rows: { head: string | null }[] }>('SELECT max(position)::text AS head FROM events'),
    rebuildState(knex, board),
  ]);
  const running = rebuild?.state === 'running' ? rebuild.current : null;
  return {
    projections: status.map((s): AdminProjectionDto => {
      const projection = projections.find((p) => p.name === s.name)!;
      return {
        name: s.name,
        position: s.position,
        transactionId: s.transactionId,
        eventsProcessed: s.eventsProcessed,
        updatedAt: s.updatedAt?.toISOString() ?? null,
        lag: s.lag,
        heldBack: s.heldBack,
        heldBackSince: s.heldBackSince?.toISOString() ?? null,
        lastError: s.lastError,
        lastErrorAt: s.lastErrorAt?.toISOString() ?? null,
        tables: projection.tables.map((t) => ({
          name: t,
          ...(rows.get(t) ?? { rows: 0, estimated: false }),
        })),
        rebuilding: running === s.name,
      };
    }),
    headPosition: head.rows[0]?.head ?? '0',
    heldBack: {
      heldBack: held.heldBack,
      events: held.events,
      since: held.since?.toISOString() ?? null,
      seconds: held.seconds,
      description: describeHeldBack(held),
    },
    rebuild,
  };
}
