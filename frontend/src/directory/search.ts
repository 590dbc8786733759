import { DIRECTORY_SEARCH_MAX, type ClinicDto, type NgoDto } from '@pawhaven/contracts';

/**
 * The directory search: case-insensitive substring, NGOs by name or description, clinics by name or location; an empty
 * (or blank) query shows all. The same rule as the server's `?q=` (query-api), so the page can filter what it already
 * holds while the server's answer is on its way.
 */

/** The term as the server sees it: trimmed, at most DIRECTORY_SEARCH_MAX characters, lower-cased. */
export function normaliseTerm(raw: string | null | undefined): string {
  return (raw ?? '').trim().slice(0, DIRECTORY_SEARCH_MAX).toLowerCase();
}

const contains = (text: string | null | undefined, term: string) => (text ?? '').toLowerCase().includes(term);

export const ngoMatches = (ngo: Pick<NgoDto, 'name' | 'description'>, raw: string) => {
  const term = normaliseTerm(raw);
  return term === '' || contains(ngo.name, term) || contains(ngo.description, term);
};

export const clinicMatches = (clinic: Pick<ClinicDto, 'name' | 'location'>, raw: string) => {
  const term = normaliseTerm(raw);
  return term === '' || contains(clinic.name, term) || contains(clinic.location, term);
};

export const filterNgos = <T extends Pick<NgoDto, 'name' | 'description'>>(list: readonly T[], raw: string) =>
  list.filter((x) => ngoMatches(x, raw));

export const filterClinics = <T extends Pick<ClinicDto, 'name' | 'location'>>(
  list: readonly T[],
  raw: string,
) => list.filter((x) => clinicMatches(x, raw));

/**
 * Of the lists already loaded (each the server's answer for one term), the one to filter for `raw`: a list
 * loaded for a term that the new term contains holds every match of the new term (a text containing the new term
 * contains that term too), so filtering it gives exactly the server's answer. The longest such term wins (the
 * smallest list); null when none fits (the page waits for the server).
 */
export function pickSource<T>(loaded: readonly { term: string; items: readonly T[] }[], raw: string) {
  const term = normaliseTerm(raw);
  let best: { term: string; items: readonly T[] } | null = null;
  for (const entry of loaded) {
    const t = normaliseTerm(entry.term);
    if (term.includes(t) && (best === null || t.length > normaliseTerm(best.term).length)) best = entry;
  }
  return best;
}
