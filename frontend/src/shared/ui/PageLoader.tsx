import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Shown while a lazily loaded page or the session is on its way. */
export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      // A full screen: the footer stays below the fold until the page is there (no layout shift when it arrives).
      sx={{ display: 'grid', placeItems: 'center', minHeight: '100dvh', gap: 2 }}
    >
      <CircularProgress aria-label={label} />
    </Box>
  );
}
