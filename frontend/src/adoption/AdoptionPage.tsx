import { useEffect, useId, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Collapse from '@mui/material/Collapse';
import Container from '@mui/material/Container';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import PetsIcon from '@mui/icons-material/Pets';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import SearchIcon from '@mui/icons-material/Search';
import { ADOPTION_LIMITS, ADOPTION_MESSAGES, type AdoptionAdDto } from '@pawhaven/contracts';
import { useSession } from '../shared/session';
import {
  adoptionApi,
  adoptionKeys,
  LIST_PAGE_SIZE,
  LIST_STALE_MS,
  type ListParams,
  type PetFilter,
} from './api';
import { AdoptionAdForm } from './components/AdoptionAdForm';
import { AdoptionCard } from './components/AdoptionCard';
import { failureText, userIdOf } from './format';
import { RetryAlert } from '../shared/ui/RetryAlert';
import { visuallyHidden } from '../shared/ui/visually-hidden';

const FILTERS: { value: PetFilter; label: string }[] = [
  { value: 'all', label: 'All Pets' },
  { value: 'dog', label: 'Dogs' },
  { value: 'cat', label: 'Cats' },
  { value: 'other', label: 'Other Pets' },
];
const SEARCH_DEBOUNCE_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** The adoption listing: hero, inline create form, disclaimer, filters, search, cards, Load more. */
export default function AdoptionPage() {
  const { user, ready } = useSession();
  const viewerId = userIdOf(user);
  const formId = useId();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [filter, setFilter] = useState<PetFilter>('all');
  const [city, setCity] = useState('');
  const [q, setQ] = useState('');
  const params: ListParams = {
    filter,
    city: useDebounced(city, SEARCH_DEBOUNCE_MS),
    q: useDebounced(q, SEARCH_DEBOUNCE_MS),
  };

  const list = useInfiniteQuery({
    queryKey: adoptionKeys.list(params, viewerId),
    queryFn: ({ pageParam, signal }) => adoptionApi.list(params, pageParam, signal),
    initialPageParam: 1,
    // More while the pages so far hold fewer ads than the server's total (without a total: while pages are full).
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      const more = last.total === null ? last.items.length >= LIST_PAGE_SIZE : loaded < last.total;
      return more && last.items.length > 0 ? pages.length + 1 : undefined;
    },
    staleTime: LIST_STALE_MS,
    // While a new search or filter loads, the previous cards stay (the list is marked busy).
    placeholderData: keepPreviousData,
    // The owner's own ads are left out by the server, which needs the token: wait for the session.
    enabled: ready,
  });

  // Pages are offsets: an ad published meanwhile shifts the next page, so an ad may come twice.
  const ads = useMemo(() => {
    const seen = new Set<string>();
    const out: AdoptionAdDto[] = [];
    for (const page of list.data?.pages ?? [])
      for (const ad of page.items)
        if (!seen.has(ad._id)) {
          seen.add(ad._id);
          out.push(ad);
        }
    return out;
  }, [list.data]);

  const nextPageError = list.isFetchNextPageError ? list.error : null;
  const searching = Boolean(params.city.trim() || params.q.trim() || filter !== 'all');

  return (
    <Box>
      {/* Hero */}
      <Box
        component="section"
        aria-labelledby="adoption-hero-title"
        sx={{
          background: 'linear-gradient(135deg, #FBE3D6 0%, #FFF8F0 55%, #FDEFC8 100%)',
          py: { xs: 5, md: 8 },
          px: 2,
          textAlign: 'center',
        }}
      >
        <Container maxWidth="md">
          <PetsIcon aria-hidden sx={{ fontSize: 44, color: 'primary.main', mb: 1 }} />
          <Typography
            id="adoption-hero-title"
            variant="h3"
            component="h1"
            sx={{ fontSize: { xs: '2rem', md: '3rem' } }}
          >
            Find Your Perfect Companion
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3, fontSize: { xs: '1rem', md: '1.15rem' } }}>
            Dogs, cats and more waiting for a loving home across Pakistan. Adopt, don&apos;t shop.
          </Typography>
          <Button
            variant={creating ? 'outlined' : 'contained'}
            size="large"
            startIcon={creating ? <CloseIcon /> : <AddIcon />}
            onClick={() => {
              setCreating((x) => !x);
              setCreated(null);
            }}
            aria-expanded={creating}
            aria-controls={formId}
          >
            {creating ? 'Cancel' : 'Create Adoption Ad'}
          </Button>
        </Container>
      </Box>

      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
        <Collapse in={creating} unmountOnExit>
          <Paper
            id={formId}
            component="section"
            aria-labelledby={`${formId}-title`}
            elevation={0}
            sx={{ p: { xs: 2, sm: 4 }, mb: 4, border: 1, borderColor: 'divider' }}
          >
            <Typography id={`${formId}-title`} variant="h5" component="h2">
              Create Adoption Ad
            </Typography>
            {!ready ? null : !user ? (
              <Alert severity="info" sx={{ mt: 2 }}>
                {ADOPTION_MESSAGES.mustBeLoggedInToCreate}{' '}
                <Link component={RouterLink} to="/signin" sx={{ fontWeight: 700 }}>
                  Log in
                </Link>
              </Alert>
            ) : (
              <AdoptionAdForm
                mode="create"
                onDone={(message) => {
                  setCreating(false);
                  setCreated(message);
                }}
              />
            )}
          </Paper>
        </Collapse>

        {created && (
          <Alert severity="success" role="status" onClose={() => setCreated(null)} sx={{ mb: 3 }}>
            {created} Your own ads are not shown in this list;{' '}
            <Link component={RouterLink} to="/my-adoptions" sx={{ fontWeight: 700 }}>
              see them in My Adoptions
            </Link>
            .
          </Alert>
        )}

        <Alert severity="warning" variant="outlined" sx={{ mb: 3 }} aria-label="Disclaimer">
          <strong>Please adopt safely.</strong> PawHaven connects pet owners and adopters but does not check
          the ads or the people behind them. Meet in a safe public place, ask for vaccination and health
          records, and never pay in advance for a pet.
        </Alert>

        <Box
          role="search"
          aria-label="Find pets"
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: 'auto minmax(0, 1fr) minmax(0, 1fr)' },
            alignItems: 'center',
            mb: 3,
          }}
        >
          <ToggleButtonGroup
            value={filter}
            exclusive
            onChange={(_, v: PetFilter | null) => v && setFilter(v)}
            aria-label="Filter by pet type"
            size="small"
            color="primary"
            sx={{ flexWrap: 'wrap', '& .MuiToggleButton-root': { px: 2, fontWeight: 700 } }}
          >
            {FILTERS.map((f) => (
              <ToggleButton key={f.value} value={f.value}>
                {f.label}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <TextField
            id="adoption-search"
            label="Search pets"
            placeholder="Name, breed or description"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            margin="none"
            size="small"
            type="search"
            slotProps={{
              htmlInput: { maxLength: 100 },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" aria-hidden />
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            id="adoption-city"
            label="City"
            placeholder="e.g. Lahore"
            value={city}
            onChange={(e) => setCity(e.target.value)}
            margin="none"
            size="small"
            type="search"
            autoComplete="address-level2"
            slotProps={{
              htmlInput: { maxLength: 100 },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <PlaceIcon fontSize="small" aria-hidden />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Box>

        <Box component="section" aria-label="Adoption posts" aria-busy={list.isPending || list.isFetching}>
          {/* The cards' names are headings under this one (a screen reader's outline: h1, h2, then the pets). */}
          <Typography variant="h5" component="h2" sx={visuallyHidden}>
            Pets looking for a home
          </Typography>
          {list.isPending ? (
            <Box role="status" aria-label="Loading adoption posts" sx={gridSx}>
              {Array.from({ length: ADOPTION_LIMITS.skeletonCards }, (_, i) => (
                <Card key={i} aria-hidden>
                  <Skeleton variant="rectangular" height={220} />
                  <CardContent>
                    <Skeleton width="60%" height={32} />
                    <Skeleton width="40%" />
                    <Skeleton />
                    <Skeleton />
                    <Skeleton width="80%" />
                  </CardContent>
                </Card>
              ))}
            </Box>
          ) : list.isError ? (
            <RetryAlert onRetry={() => void list.refetch()}>
              {failureText(list.error, 'Failed to fetch adoption posts')}
            </RetryAlert>
          ) : ads.length === 0 ? (
            <Box sx={{ textAlign: 'center', py: 6 }}>
              <PetsIcon aria-hidden sx={{ fontSize: 48, color: 'primary.light' }} />
              <Typography variant="h6" component="p" sx={{ mt: 1 }}>
                {ADOPTION_MESSAGES.empty}
              </Typography>
              {searching && (
                <Typography color="text.secondary">Try another pet type, city or search.</Typography>
              )}
            </Box>
          ) : (
            <>
              <Box sx={gridSx}>
                {ads.map((ad) => (
                  <AdoptionCard key={ad._id} ad={ad} />
                ))}
              </Box>
              {nextPageError && (
                <Alert severity="error" sx={{ mt: 3 }}>
                  {failureText(nextPageError, 'Failed to fetch adoption posts')}
                </Alert>
              )}
              {list.hasNextPage && (
                <Box sx={{ textAlign: 'center', mt: 4 }}>
                  <Button
                    variant="outlined"
                    onClick={() => void list.fetchNextPage()}
                    disabled={list.isFetchingNextPage}
                  >
                    {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
                  </Button>
                </Box>
              )}
            </>
          )}
        </Box>
      </Container>
    </Box>
  );
}

const gridSx = {
  display: 'grid',
  gap: { xs: 2, md: 3 },
  gridTemplateColumns: {
    xs: 'minmax(0, 1fr)',
    sm: 'repeat(2, minmax(0, 1fr))',
    lg: 'repeat(3, minmax(0, 1fr))',
  },
} as const;
