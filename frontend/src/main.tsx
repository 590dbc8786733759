import './zod-config';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { App } from './App';
import { DIRECTORY_STALE_MS, directoryApi, directoryKeys, type DirectoryKind } from './directory/api';
import { configQuery } from './shared/config';
import { cspNonce } from './shared/csp-nonce';
import { releasePrerender } from './shared/prerender';
import { SessionProvider } from './shared/session';
import { TEAM_STALE_MS, teamApi, teamKeys } from './team/api';
import { ToastProvider } from './shared/toast';
import { theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
// The accepted mail domain and the Google client id are needed by the first form the user sees.
void queryClient.prefetchQuery(configQuery);

// A directory opened directly: its list is fetched now, alongside the page's code, not once the page has rendered
// (the first cards' pictures are the page's largest paint). The key is the one the page's search reads.
const directories: Record<
  string,
  { kind: DirectoryKind; fetch: (q: string, signal?: AbortSignal) => Promise<unknown[]> }
> = {
  '/ngo': { kind: 'ngos', fetch: directoryApi.ngos },
  '/clinics': { kind: 'clinics', fetch: directoryApi.clinics },
};
const directory = directories[window.location.pathname];
if (directory) {
  const q = new URLSearchParams(window.location.search).get('q') ?? '';
  void queryClient.prefetchQuery({
    queryKey: directoryKeys.search(directory.kind, q),
    queryFn: async ({ signal }) => {
      const list = await directory.fetch(q, signal);
      // The first card's picture starts loading with the list, while the page's code is still on its way.
      const first = (list[0] as { image?: unknown } | undefined)?.image;
      if (typeof first === 'string' && first.startsWith('/')) new Image().src = first;
      return list;
    },
    staleTime: DIRECTORY_STALE_MS,
  });
}

// The FAQ and the team opened directly: their lists are fetched alongside the page's code too.
if (window.location.pathname === '/faq')
  void queryClient.prefetchQuery({
    queryKey: directoryKeys.faqs(),
    queryFn: ({ signal }) => directoryApi.faqs(signal),
    staleTime: DIRECTORY_STALE_MS,
  });
if (window.location.pathname === '/team')
  void queryClient.prefetchQuery({
    queryKey: teamKeys.all,
    queryFn: ({ signal }) => teamApi.members(signal),
    staleTime: TEAM_STALE_MS,
  });

// MUI's and react-admin's styles are <style> elements emotion adds: they carry the page's nonce (the CSP has no
// 'unsafe-inline'). Same key as emotion's default, so the class names match the prerendered first screens.
const styleCache = createCache({ key: 'css', nonce: cspNonce() });

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

// Whatever happens to the page's code, the prerendered screen does not stay forever.
window.setTimeout(releasePrerender, 10_000);

// A transition: React renders the first screen in slices, leaving the main thread free in between (the phone
// keeps answering taps while the shell and the page are built).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <CacheProvider value={styleCache}>
        <ThemeProvider theme={theme}>
          <CssBaseline />
          <QueryClientProvider client={queryClient}>
            <SessionProvider>
              <BrowserRouter>
                <ToastProvider>
                  <App />
                </ToastProvider>
              </BrowserRouter>
            </SessionProvider>
          </QueryClientProvider>
        </ThemeProvider>
      </CacheProvider>
    </StrictMode>,
  );
});
