import type { LandingStatsDto } from '@pawhaven/contracts';
import { api } from '../shared/api';

/** GET /api/stats/landing: the live figures of the stats strip (public; null while there is nothing yet). */
export const landingApi = {
  stats: (signal?: AbortSignal) =>
    api.get<LandingStatsDto | null>('/api/stats/landing', { auth: false, signal }),
};

export const landingKeys = { stats: ['landing', 'stats'] as const };

/** The figures move slowly: read again at most every minute. */
export const STATS_STALE_MS = 60_000;
