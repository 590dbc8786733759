import { api } from '../shared/api';
import { asMembers } from './members';

/** GET /api/team: every ambassador and collaborator, in the order the product lists them. Public. */
export const teamApi = {
  members: async (signal?: AbortSignal) => asMembers(await api.get('/api/team', { auth: false, signal })),
};

export const teamKeys = { all: ['team'] as const };

/** Fixed content: read again at most every ten minutes. */
export const TEAM_STALE_MS = 10 * 60_000;
