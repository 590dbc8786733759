import { startTransition, Suspense, useEffect, useId, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import FormControl from '@mui/material/FormControl';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { DIRECTORY_SEARCH_MAX } from '@pawhaven/contracts';
import { usePrerenderHandoff } from '../../shared/prerender';
import { visuallyHidden } from './visuallyHidden';
import { RetryAlert } from '../../shared/ui/RetryAlert';

/** The card grid: one column on a phone, as many 280 px columns as fit above that. */
const gridSx = {
  display: 'grid',
  gap: { xs: 2, md: 3 },
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
} as const;

const SKELETON_CARDS = 6;
/** Cards built with the first screen; the rest follow in a transition right after (see DirectoryLayout). */
const FIRST_CARDS = 6;

/** The first row of the grid (three cards on a laptop, one on a phone) is on screen: its pictures load at once. */
export const imagePriority = (index: number) => (index === 0 ? 'high' : index < 3 ? 'eager' : 'lazy');

/** Sets the tab's title while a page is shown. */
function useDocumentTitle(title: string) {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} | PawHaven`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/** The page's heading band: the h1 and a line under it. */
export function PageHeading({ title, intro }: { title: string; intro: string }) {
  useDocumentTitle(title);
  return (
    <Box
      component="header"
      sx={{
        background: 'linear-gradient(135deg, #FBE3D6 0%, #FFF8F0 55%, #FDEFC8 100%)',
        py: { xs: 4, md: 6 },
        px: 2,
        textAlign: 'center',
      }}
    >
      <Container maxWidth="md" disableGutters>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '1.85rem', md: '2.75rem' } }}>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5, fontSize: { xs: '1rem', md: '1.1rem' } }}>
          {intro}
        </Typography>
      </Container>
    </Box>
  );
}

/** What a directory page reads of its search (../useDirectorySearch). */
export type DirectorySearch<T> = {
  term: string;
  setTerm: (term: string) => void;
  items: readonly T[] | null;
  failed: boolean;
  busy: boolean;
  retry: () => void;
};

/**
 * A directory page, shared by the NGO and clinics directories: heading, search box, then skeleton cards while loading,
 * an error with Try again, the no-match text (or an empty text without a search), or the grid; and the details modal of
 * the card last opened. The number of results is announced to screen readers as it changes.
 */
export function DirectoryLayout<T>({
  title,
  intro,
  searchLabel,
  searchPlaceholder,
  search,
  failedText,
  noMatchText,
  emptyText,
  countText,
  listLabel,
  getId,
  renderItem,
  renderDetails,
  prefetchDetails,
}: {
  title: string;
  intro: string;
  searchLabel: string;
  searchPlaceholder: string;
  search: DirectorySearch<T>;
  failedText: string;
  noMatchText: string;
  emptyText: string;
  /** The number of results, announced to screen readers as it changes (0 included). */
  countText: (n: number) => string;
  listLabel: string;
  getId: (item: T) => string;
  /** `index` places the card (the first row's pictures load at once, see `imagePriority`); `open` shows its details. */
  renderItem: (item: T, index: number, open: () => void) => ReactNode;
  /** The details modal of `item`; `open` is false while it closes. */
  renderDetails: (item: T, open: boolean, onClose: () => void) => ReactNode;
  /** Fetches the details modal's code ahead of the first press (pointer or focus on the grid). */
  prefetchDetails?: () => Promise<unknown>;
}) {
  const { term, setTerm: onTermChange, items, failed, busy, retry: onRetry } = search;
  const [openId, setOpenId] = useState<string | null>(null);
  // The open entry stays shown while the dialog closes, even when the search leaves it out.
  const [shown, setShown] = useState<T | null>(null);
  const prefetch = prefetchDetails ? () => void prefetchDetails().catch(() => {}) : undefined;
  // The first cards (the first screen, with the largest picture) are built and shown first; the others follow as
  // an interruptible transition, so the phone is not blocked building cards nobody sees yet.
  const [cardLimit, setCardLimit] = useState(FIRST_CARDS);
  const loaded = items !== null;
  useEffect(() => {
    if (loaded) startTransition(() => setCardLimit(Infinity));
  }, [loaded]);
  const searchId = useId();
  // The heading, the search box and the loading cards are prerendered in index.html: this replaces them.
  usePrerenderHandoff();
  const searching = term.trim() !== '';
  // For screen readers; the visible texts (no-match, error) are not repeated here.
  const status = failed || items === null ? '' : countText(items.length);

  return (
    <Box>
      <PageHeading title={title} intro={intro} />
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
        <Box role="search" sx={{ maxWidth: 560, mx: 'auto', mb: { xs: 3, md: 4 } }}>
          {/* FormControl, label and input: what TextField renders, without the select machinery it imports. */}
          <FormControl
            fullWidth
            margin="none"
            variant="outlined"
            sx={{ bgcolor: 'background.paper', borderRadius: 1 }}
          >
            <InputLabel htmlFor={searchId}>{searchLabel}</InputLabel>
            <OutlinedInput
              id={searchId}
              label={searchLabel}
              placeholder={searchPlaceholder}
              value={term}
              onChange={(e) => onTermChange(e.target.value)}
              type="search"
              autoComplete="off"
              inputProps={{ maxLength: DIRECTORY_SEARCH_MAX, enterKeyHint: 'search' }}
              startAdornment={
                <InputAdornment position="start">
                  <SearchIcon aria-hidden />
                </InputAdornment>
              }
            />
          </FormControl>
        </Box>

        <Box role="status" aria-live="polite" sx={visuallyHidden}>
          {status}
        </Box>

        <Box component="section" aria-label={listLabel} aria-busy={busy}>
          {failed ? (
            <RetryAlert onRetry={onRetry}>{failedText}</RetryAlert>
          ) : items === null ? (
            <Box sx={gridSx} aria-hidden data-testid="directory-loading">
              {Array.from({ length: SKELETON_CARDS }, (_, i) => (
                <Card key={i}>
                  <Skeleton variant="rectangular" sx={{ height: 'auto', aspectRatio: '16 / 9' }} />
                  <CardContent>
                    <Skeleton width="70%" height={30} />
                    <Skeleton />
                    <Skeleton width="85%" />
                    <Skeleton variant="rounded" width={150} height={36} sx={{ mt: 2 }} />
                  </CardContent>
                </Card>
              ))}
            </Box>
          ) : items.length === 0 ? (
            <Box sx={{ textAlign: 'center', py: { xs: 5, md: 7 } }}>
              <SearchOffIcon aria-hidden sx={{ fontSize: 48, color: 'primary.light' }} />
              <Typography variant="h6" component="p" sx={{ mt: 1 }}>
                {searching ? noMatchText : emptyText}
              </Typography>
              {searching && (
                <Button variant="text" onClick={() => onTermChange('')} sx={{ mt: 1 }}>
                  Clear search
                </Button>
              )}
            </Box>
          ) : (
            <Box sx={gridSx} onPointerOver={prefetch} onFocus={prefetch}>
              {items.slice(0, cardLimit).map((item, i) =>
                renderItem(item, i, () => {
                  setShown(item);
                  setOpenId(getId(item));
                }),
              )}
            </Box>
          )}
        </Box>
        {shown && (
          <Suspense fallback={null}>
            {renderDetails(shown, openId === getId(shown), () => setOpenId(null))}
          </Suspense>
        )}
      </Container>
    </Box>
  );
}
