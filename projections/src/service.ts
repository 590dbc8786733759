import {
  oneAtATime,
  runProjector,
  startHeldBackMonitor,
  type Projection,
  type ServiceContext,
} from '@pawhaven/platform';
import { allProjections } from './index';

export type ProjectionWorker = { stop(): Promise<void> };

/**
 * The projection worker: follows the event store and keeps every read model (and the `reactors` given to it) up to
 * date, one worker at a time among those sharing the database (`oneAtATime`; the others stand by and take over),
 * and warns when committed events are held back behind an open transaction.
 */
export function startProjectionWorker(
  context: ServiceContext,
  opts: { reactors?: readonly Projection[]; onStandingBy?: () => void; onTakingOver?: () => void } = {},
): ProjectionWorker {
  const { db, store, config } = context;
  const abort = new AbortController();
  const following = oneAtATime(
    context.databaseUrl,
    'projector',
    (signal) => runProjector(db.knex, store, [...allProjections, ...(opts.reactors ?? [])], signal),
    abort.signal,
    { onWaiting: opts.onStandingBy, onTakingOver: opts.onTakingOver },
  );
  const heldBack = startHeldBackMonitor(
    db.knex,
    allProjections.map((p) => p.name),
    { thresholdMs: config.HELD_BACK_WARN_SECONDS * 1000 },
  );
  return {
    async stop() {
      abort.abort();
      await following.catch(() => {});
      await heldBack.stop();
    },
  };
}
