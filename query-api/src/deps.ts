import type {
  Config,
  ConsistencyWaiter,
  Database,
  EventStore,
  Projection,
  TokenService,
} from '@pawhaven/platform';
import type { Presence } from './realtime/presence';

export type QueryDeps = {
  config: Config;
  db: Database;
  store: EventStore;
  tokens: TokenService;
  consistency: ConsistencyWaiter;
  projections: readonly Projection[];
  presence: Presence;
};
