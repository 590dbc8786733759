import type { ClinicDto, FaqDto, NgoDto } from '@pawhaven/contracts';
import { api } from '../shared/api';
import { normaliseTerm } from './search';

/**
 * The public reads of the directories and the FAQ. Visitors use them: no token is sent. `q` is the search term as
 * typed; the server gets it trimmed (an empty term asks for the whole list).
 */
const withQuery = (path: string, raw: string) => {
  const q = normaliseTerm(raw);
  return q ? `${path}?q=${encodeURIComponent(q)}` : path;
};

const asList = <T>(data: unknown): T[] => (Array.isArray(data) ? (data as T[]) : []);

export const directoryApi = {
  ngos: async (q: string, signal?: AbortSignal) =>
    asList<NgoDto>(await api.get(withQuery('/api/ngos', q), { auth: false, signal })),
  clinics: async (q: string, signal?: AbortSignal) =>
    asList<ClinicDto>(await api.get(withQuery('/api/clinics', q), { auth: false, signal })),
  /** The FAQ keeps its historical path, GET /api/faqRoutes. */
  faqs: async (signal?: AbortSignal) =>
    asList<FaqDto>(await api.get('/api/faqRoutes', { auth: false, signal })),
};

export type DirectoryKind = 'ngos' | 'clinics';

/** The lists are fixed data: one entry per normalised term. */
export const directoryKeys = {
  all: ['directory'] as const,
  list: (kind: DirectoryKind) => ['directory', kind] as const,
  search: (kind: DirectoryKind, q: string) => ['directory', kind, normaliseTerm(q)] as const,
  faqs: () => ['directory', 'faqs'] as const,
};

/** Fixed content: read again at most every ten minutes. */
export const DIRECTORY_STALE_MS = 10 * 60_000;
