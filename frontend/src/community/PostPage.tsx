import { useEffect } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ErrorIcon from '@mui/icons-material/ErrorOutline';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import { COMMUNITY_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import { PageLoader } from '../shared/ui/PageLoader';
import { communityApi, communityKeys } from './api';
import { PostCard } from './components/PostCard';
import { isNotFound } from './format';

/**
 * The single post page: back link to /posts, the post with its author, badge, image, caption, like and comment counts,
 * every comment thread ('Vet' on vets' comments) and the comment form. Visitors read.
 */
export default function PostPage() {
  const { id = '' } = useParams();
  const post = useQuery({
    queryKey: communityKeys.detail(id),
    queryFn: ({ signal }) => communityApi.post(id, signal),
    retry: (count, err) => !(err instanceof ApiError && err.status < 500 && err.kind === 'http') && count < 1,
  });

  // Opened at its comments (`#comments`, the feed's comment count): there once the post is shown.
  const { hash } = useLocation();
  const shown = Boolean(post.data);
  useEffect(() => {
    if (shown && hash === '#comments') document.getElementById('comments')?.scrollIntoView();
  }, [shown, hash]);

  const back = (
    <Button component={RouterLink} to="/posts" startIcon={<ArrowBackIcon />} color="inherit" sx={{ mb: 2 }}>
      Back to Posts
    </Button>
  );

  let body;
  if (post.isPending) body = <PageLoader label="Loading post" />;
  else if (post.isError || !post.data) {
    // A malformed id is refused as bad input (400): for the reader that post does not exist either.
    const missing =
      isNotFound(post.error) ||
      (post.error instanceof ApiError && post.error.status === 400) ||
      !post.isError;
    body = (
      <Paper
        elevation={0}
        role="alert"
        sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', border: 1, borderColor: 'divider' }}
      >
        {missing ? (
          <SearchOffIcon aria-hidden sx={{ fontSize: 48, color: 'primary.light' }} />
        ) : (
          <ErrorIcon aria-hidden sx={{ fontSize: 48, color: 'error.main' }} />
        )}
        <Typography variant="h6" component="h1" sx={{ mt: 1, mb: 3 }}>
          {missing ? COMMUNITY_MESSAGES.postNotFound : COMMUNITY_MESSAGES.postPageFailed}
        </Typography>
        <Button component={RouterLink} to="/posts" variant="contained">
          Back to Posts
        </Button>
      </Paper>
    );
  } else body = <PostCard post={post.data} mode="page" captionAs="h1" priority />;

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, md: 4 }, px: { xs: 1.5, sm: 3 } }}>
      {post.isError ? null : <Box>{back}</Box>}
      {body}
    </Container>
  );
}
