import { Suspense, useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import { useAdoptionsLive } from '../adoption/live';
import { RealtimeProvider } from '../realtime';
import { releasePrerender } from '../shared/prerender';
import { PageLoader } from '../shared/ui/PageLoader';
import { TipPopups } from '../popups';
import { Footer } from './Footer';
import { Header } from './Header';
import { isChatPath } from './navigation';

/**
 * Header, the page, and the footer (hidden on /chat and /chat/*) around every community page. The real-time channel
 * (one socket for the signed-in user) wraps them all: the header's bell and the chat pages share it.
 */
/** Lists other people change, kept current for the signed-in user (inside the real-time channel). */
function LiveLists() {
  useAdoptionsLive();
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
  // The prerendered screen (index.html) belongs to the first address: another one (a redirect, a link) drops it.
  const firstPath = useRef(pathname);
  useLayoutEffect(() => {
    if (pathname !== firstPath.current) releasePrerender();
  }, [pathname]);
  return (
    <RealtimeProvider>
      <LiveLists />
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
        <Box
          component="a"
          href="#main-content"
          sx={{
            position: 'absolute',
            left: 8,
            top: -48,
            zIndex: 2000,
            bgcolor: 'primary.main',
            color: 'common.white',
            px: 2,
            py: 1,
            borderRadius: 2,
            '&:focus': { top: 8 },
          }}
        >
          Skip to content
        </Box>
        <Header />
        {/* At least a screen tall where the footer shows: the footer starts below the fold on every page, so a page's
            loading state giving way to content shorter or taller than it never moves the footer on screen. */}
        <Box
          component="main"
          id="main-content"
          tabIndex={-1}
          sx={{ flex: 1, outline: 'none', minHeight: isChatPath(pathname) ? undefined : '100dvh' }}
        >
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
        {!isChatPath(pathname) && <Footer />}
        <TipPopups />
      </Box>
    </RealtimeProvider>
  );
}
