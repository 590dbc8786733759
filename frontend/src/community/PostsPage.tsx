import { useId, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useInfiniteQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import LoginIcon from '@mui/icons-material/Login';
import PetsIcon from '@mui/icons-material/Pets';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibraryOutlined';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, type PostDto } from '@pawhaven/contracts';
import { useSession } from '../shared/session';
import { communityApi, communityKeys, FEED_PAGE_SIZE } from './api';
import { CreatePostForm } from './components/CreatePostForm';
import { PostCard } from './components/PostCard';
import { failureText } from './format';
import { RetryAlert } from '../shared/ui/RetryAlert';

/**
 * The community feed: Create Post (inline form) and My Posts for signed-in users, 'Sign in to Post' for visitors; a
 * spinner, an error panel or the empty state; the cards, newest first, with Load more. It refreshes silently every 30
 * seconds (a small spinner shows), paused while the form is open.
 */
export default function PostsPage() {
  const navigate = useNavigate();
  const { user } = useSession();
  const formId = useId();
  const [creating, setCreating] = useState(false);

  const feed = useInfiniteQuery({
    queryKey: communityKeys.feed(),
    queryFn: ({ pageParam, signal }) => communityApi.feed(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      const more = last.total === null ? last.items.length >= FEED_PAGE_SIZE : loaded < last.total;
      return more && last.items.length > 0 ? pages.length + 1 : undefined;
    },
    refetchInterval: creating ? false : COMMUNITY_LIMITS.feedRefreshMs,
  });

  // Pages are offsets: a post published meanwhile shifts the next page, so a post may come twice.
  const posts = useMemo(() => {
    const seen = new Set<string>();
    const out: PostDto[] = [];
    for (const page of feed.data?.pages ?? [])
      for (const post of page.items)
        if (!seen.has(post._id)) {
          seen.add(post._id);
          out.push(post);
        }
    return out;
  }, [feed.data]);

  const refreshing = feed.isFetching && !feed.isPending && !feed.isFetchingNextPage;

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: { xs: 'flex-start', sm: 'center' },
          justifyContent: 'space-between',
          flexDirection: { xs: 'column', sm: 'row' },
          gap: 2,
          mb: 3,
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.75rem', md: '2.125rem' } }}>
              Community Posts
            </Typography>
            {refreshing && (
              <CircularProgress size={18} aria-label="Refreshing posts" data-testid="feed-refreshing" />
            )}
          </Stack>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            Pet stories, rescues and happy endings from the PawHaven community.
          </Typography>
        </Box>
        {user ? (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, flexShrink: 0 }}>
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => setCreating(true)}
              aria-expanded={creating}
              aria-controls={formId}
            >
              Create Post
            </Button>
            <Button component={RouterLink} to="/my-posts" variant="outlined" startIcon={<PhotoLibraryIcon />}>
              My Posts
            </Button>
          </Stack>
        ) : (
          <Button component={RouterLink} to="/signin" variant="contained" startIcon={<LoginIcon />}>
            {COMMUNITY_MESSAGES.signInToPost}
          </Button>
        )}
      </Box>

      <Collapse in={creating && Boolean(user)} unmountOnExit>
        <Paper
          id={formId}
          component="section"
          aria-labelledby={`${formId}-title`}
          elevation={0}
          sx={{ p: { xs: 2, sm: 3 }, mb: 3, border: 1, borderColor: 'divider' }}
        >
          <Typography id={`${formId}-title`} variant="h6" component="h2" sx={{ mb: 1 }}>
            Create Post
          </Typography>
          <CreatePostForm
            onCancel={() => setCreating(false)}
            failureText={(err) => failureText(err, COMMUNITY_MESSAGES.createFailed)}
            onCreated={() => {
              setCreating(false);
              navigate('/my-posts');
            }}
          />
        </Paper>
      </Collapse>

      <Box component="section" aria-label="Posts" aria-busy={feed.isFetching}>
        {feed.isPending ? (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
            <CircularProgress aria-label="Loading posts" />
          </Box>
        ) : feed.isError && posts.length === 0 ? (
          <RetryAlert onRetry={() => void feed.refetch()}>{COMMUNITY_MESSAGES.feedFailed}</RetryAlert>
        ) : posts.length === 0 ? (
          <Box sx={{ textAlign: 'center', py: { xs: 6, md: 8 } }}>
            <PetsIcon aria-hidden sx={{ fontSize: 52, color: 'primary.light' }} />
            <Typography variant="h6" component="h2" sx={{ mt: 1 }}>
              {COMMUNITY_MESSAGES.feedEmptyTitle}
            </Typography>
            <Typography color="text.secondary">{COMMUNITY_MESSAGES.feedEmptyText}</Typography>
          </Box>
        ) : (
          <>
            <Stack spacing={3}>
              {posts.map((post, i) => (
                <PostCard key={post._id} post={post} priority={i === 0} />
              ))}
            </Stack>
            {feed.isFetchNextPageError && (
              <Alert severity="error" sx={{ mt: 3 }}>
                {failureText(feed.error, COMMUNITY_MESSAGES.feedFailed)}
              </Alert>
            )}
            {feed.hasNextPage && (
              <Box sx={{ textAlign: 'center', mt: 4 }}>
                <Button
                  variant="outlined"
                  onClick={() => void feed.fetchNextPage()}
                  disabled={feed.isFetchingNextPage}
                >
                  {feed.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </Box>
            )}
          </>
        )}
      </Box>
    </Container>
  );
}
