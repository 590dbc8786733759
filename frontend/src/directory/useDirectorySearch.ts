import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DIRECTORY_STALE_MS, directoryKeys, type DirectoryKind } from './api';
import { normaliseTerm, pickSource } from './search';

const SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/**
 * A directory's search, kept in the address (`?q=`, so a link opens the same search): the box filters the lists
 * already loaded at once as the user types, and the term goes to the server (`?q=`) after a short pause. The
 * cards shown are always the filter of a loaded list that holds every match (see `pickSource`), so what the page
 * shows is the server's answer for the current term, without waiting for it.
 */
export function useDirectorySearch<T>(
  kind: DirectoryKind,
  fetchList: (q: string, signal?: AbortSignal) => Promise<T[]>,
  filter: (list: readonly T[], q: string) => T[],
) {
  const [params, setParams] = useSearchParams();
  const urlTerm = params.get('q') ?? '';
  const [term, setTerm] = useState(urlTerm);

  // The address follows the box; a change of the address from elsewhere (back, a link) moves the box.
  const written = useRef(urlTerm);
  useEffect(() => {
    if (urlTerm !== written.current) {
      written.current = urlTerm;
      setTerm(urlTerm);
    }
  }, [urlTerm]);

  const changeTerm = (next: string) => {
    setTerm(next);
    written.current = next;
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next) out.set('q', next);
        else out.delete('q');
        return out;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  const serverTerm = normaliseTerm(useDebounced(term, SEARCH_DEBOUNCE_MS));
  const query = useQuery({
    queryKey: directoryKeys.search(kind, serverTerm),
    queryFn: ({ signal }) => fetchList(serverTerm, signal),
    staleTime: DIRECTORY_STALE_MS,
  });

  // Every list loaded so far (one per term), to filter the one that fits the current term.
  const queryClient = useQueryClient();
  const loaded = queryClient
    .getQueriesData<T[]>({ queryKey: directoryKeys.list(kind) })
    .flatMap(([key, data]) => (Array.isArray(data) ? [{ term: String(key[2] ?? ''), items: data }] : []));
  const source = pickSource(loaded, term);
  const sourceItems = source?.items;
  const items = useMemo(() => (sourceItems ? filter(sourceItems, term) : null), [sourceItems, term, filter]);

  return {
    term,
    setTerm: changeTerm,
    searching: normaliseTerm(term) !== '',
    /** The cards to show; null while nothing fitting is loaded yet. */
    items,
    /** Nothing to show and the server's answer failed. */
    failed: items === null && query.isError,
    busy: query.isFetching,
    retry: () => void query.refetch(),
  };
}
