import Container from '@mui/material/Container';
import { MyPostsPanel } from './MyPostsPanel';

/** /my-posts: the signed-in user's shared posts. */
export default function MyPostsPage() {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      <MyPostsPanel heading="h1" title="My Posts" />
    </Container>
  );
}
