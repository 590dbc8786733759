import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { COMMUNITY_MESSAGES } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import { useSession } from '../shared/session';
import { PageLoader } from '../shared/ui/PageLoader';
import { CreatePostForm } from './components/CreatePostForm';

/**
 * The create-post page: caption, image and Create Post; on success it goes to /posts, where the new post is first. A
 * failure reads 'Failed to create post. Please try again.', with the server's reason under it.
 */
export default function CreatePostPage() {
  const navigate = useNavigate();
  const { user, ready } = useSession();
  const { key } = useLocation();
  const cancel = () => (key === 'default' ? navigate('/posts') : navigate(-1));

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.75rem', md: '2.125rem' } }}>
        Create Post
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        Share a photo and a story of your pet with the community.
      </Typography>
      {!ready ? (
        <PageLoader />
      ) : !user ? (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/signin" color="inherit" size="small">
              {COMMUNITY_MESSAGES.signInToPost}
            </Button>
          }
        >
          {COMMUNITY_MESSAGES.mustBeLoggedIn}
        </Alert>
      ) : (
        <Paper elevation={0} sx={{ p: { xs: 2, sm: 4 }, border: 1, borderColor: 'divider' }}>
          <CreatePostForm
            onCancel={cancel}
            failureText={(err) => {
              const reason = err instanceof ApiError && err.kind === 'http' ? err.serverMessage : null;
              return reason
                ? `${COMMUNITY_MESSAGES.createPageFailed} ${reason}`
                : COMMUNITY_MESSAGES.createPageFailed;
            }}
            onCreated={() => navigate('/posts')}
          />
        </Paper>
      )}
    </Container>
  );
}
