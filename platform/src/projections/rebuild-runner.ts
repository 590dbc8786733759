import { randomUUID } from 'node:crypto';
import {
  ADMIN_MESSAGES as M,
  REBUILD_PROGRESS_NOTICE,
  type AdminRebuildState,
  type RebuildProgressNotice,
} from '@pawhaven/contracts';
import type { Database } from '../db/database';
import { conflict } from '../errors';
import type { EventStore } from '../event-store/event-store';
import { logger } from '../logger';
import { publishNotices } from './notices';
import type { Projection } from './projection';
import {
  rebuildIsRunning,
  RebuildAlreadyRunning,
  rebuildProjections,
  type RebuildResult,
  type RebuildRunProgress,
} from './rebuild';

/** Progress notices at most this often (plus the first and the last): a socket push per batch would flood admins. */
const NOTICE_EVERY_MS = 250;

/**
 * Runs rebuilds, from the dashboard (command-api) or the CLI, one at a time across every process (the advisory lock
 * of `rebuildProjections`), and tells admins how it goes through change notices (`rebuild-progress`, pushed by
 * query-api's socket gateway to the `admins` room) and `rebuild_runs` (read by a process that did not hear them): the
 * dashboard shows a rebuild wherever it was started.
 */
export class RebuildRunner {
  private state: AdminRebuildState | null = null;
  private running: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly store: EventStore,
  ) {}

  /**
   * Before the app closes its database: ends a running rebuild at its next batch (it fails, leaving the live read
   * models as they were) and waits for it to let go of its connections.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running?.catch(() => {});
  }

  current(): AdminRebuildState | null {
    return this.state;
  }

  /**
   * Runs a rebuild to its end (the CLI): answers each projection's result, or throws as `rebuildProjections` (409 when
   * another one runs anywhere). `onProgress` hears the run's own progress, as often as it comes.
   */
  async run(
    target: string,
    projections: readonly Projection[],
    startedBy: string,
    onProgress?: (p: RebuildRunProgress) => void,
  ): Promise<RebuildResult[]> {
    const { results, ended } = await this.launch(target, projections, startedBy, onProgress);
    await ended; // its end recorded, before the caller closes the database
    return results;
  }

  /** Starts a rebuild and answers once it holds the lock; throws 409 when another one runs anywhere. */
  async start(
    target: string,
    projections: readonly Projection[],
    startedBy: string,
  ): Promise<AdminRebuildState> {
    return (await this.launch(target, projections, startedBy)).state;
  }

  /**
   * Starts a rebuild; answers once it holds the lock, with its state then, its results, and when its end is recorded.
   */
  private async launch(
    target: string,
    projections: readonly Projection[],
    startedBy: string,
    onProgress?: (p: RebuildRunProgress) => void,
  ): Promise<{ state: AdminRebuildState; results: Promise<RebuildResult[]>; ended: Promise<void> }> {
    // A rebuild of this process or any other (the CLI, another command-api): refused before anything starts.
    if (this.running || (await rebuildIsRunning(this.db.knex))) throw conflict(M.rebuildRunning);
    const state: AdminRebuildState = {
      rebuildId: randomUUID(),
      target,
      state: 'running',
      current: projections[0]!.name,
      index: 1,
      count: projections.length,
      processed: 0,
      total: 0,
      percent: 0,
      eventsPerSecond: 0,
      etaSeconds: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
      startedBy,
    };
    let locked!: () => void;
    let refused!: (e: unknown) => void;
    const holdsLock = new Promise<void>((resolve, reject) => {
      locked = resolve;
      refused = reject;
    });
    let lastSent = 0;
    const publish = (force = false) => {
      const now = Date.now();
      if (!force && now - lastSent < NOTICE_EVERY_MS) return;
      lastSent = now;
      const notice: RebuildProgressNotice = { kind: REBUILD_PROGRESS_NOTICE, ...state };
      void publishNotices(this.db.knex, [notice]).catch((error: unknown) =>
        logger.warn({ err: error }, 'rebuild progress notice failed'),
      );
    };

    const results = rebuildProjections(
      this.db.knex,
      this.store,
      projections,
      (p) => {
        onProgress?.(p);
        Object.assign(state, {
          current: p.current,
          index: p.index,
          count: p.count,
          processed: p.processed,
          total: p.total,
          percent: p.total > 0 ? Math.min(99, Math.floor((p.processed / p.total) * 100)) : 0,
          eventsPerSecond: p.eventsPerSecond,
          etaSeconds: p.etaSeconds,
        });
        publish();
      },
      {
        signal: this.stopping.signal,
        onLocked: () => {
          this.state = state;
          publish(true);
          void this.record(state);
          locked();
        },
      },
    );
    const run = results
      .then(() => {
        // The run's own count (one read of the log for every fold): summing per projection counted it twelve times.
        const processed = state.processed;
        Object.assign(state, {
          state: 'finished',
          processed,
          total: processed,
          percent: 100,
          etaSeconds: 0,
          finishedAt: new Date().toISOString(),
        });
        logger.info({ rebuild: state }, 'rebuild finished');
      })
      .catch((error: unknown) => {
        if (error instanceof RebuildAlreadyRunning) return refused(conflict(M.rebuildRunning));
        Object.assign(state, {
          state: 'failed',
          error: error instanceof Error ? error.message : String(error),
          finishedAt: new Date().toISOString(),
        });
        logger.error({ err: error, rebuild: state.rebuildId }, 'rebuild failed');
        refused(error);
      })
      .finally(async () => {
        this.running = null;
        if (this.state !== state) return; // refused (409): never started
        publish(true);
        await this.record(state);
      });
    this.running = run;
    await holdsLock;
    return { state: { ...state }, results, ended: run };
  }

  /**
   * Keeps the rebuild's state in `rebuild_runs` for query-api processes that did not hear it. An ended state is never
   * overwritten by the started one (the two writes may arrive in either order).
   */
  private async record(state: AdminRebuildState): Promise<void> {
    await this.db.knex
      .raw(
        `INSERT INTO rebuild_runs (rebuild_id, started_at, state) VALUES (?, ?, ?::jsonb)
         ON CONFLICT (rebuild_id) DO UPDATE SET state = EXCLUDED.state WHERE rebuild_runs.state->>'state' = 'running'`,
        [state.rebuildId, state.startedAt, JSON.stringify(state)],
      )
      .catch((error: unknown) => logger.warn({ err: error }, 'rebuild state not recorded'));
  }

  /** Waits for the running rebuild, if any (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }
}
