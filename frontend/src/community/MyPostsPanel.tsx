import { useId, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PanelHeader } from '../shared/ui/PanelHeader';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import OpenIcon from '@mui/icons-material/OpenInNew';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibraryOutlined';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, editPostBody, type PostDto } from '@pawhaven/contracts';
import { useSession } from '../shared/session';
import { ConfirmDialog } from '../shared/ui/ConfirmDialog';
import { PetImage } from '../shared/ui/PetImage';
import { communityApi, communityKeys } from './api';
import { CommentSection } from './components/CommentSection';
import { PostStats } from './components/PostStats';
import { failureText, longDate, postPath, userIdOf } from './format';
import { useDeletePost, useEditCaption } from './hooks';
import { RetryAlert } from '../shared/ui/RetryAlert';

/**
 * The signed-in user's shared posts: each with its likes and comment counts, inline caption edit, delete after
 * confirmation and its comments ('Unknown User' for a gone author; 'No comments yet. Be the first to comment!' without
 * any). Used by /my-posts and by the profile page's 'My Posts' view.
 */
export function MyPostsPanel({
  heading = 'h2',
  title = 'My Posts',
}: {
  heading?: 'h1' | 'h2';
  title?: string;
}) {
  const { user, token, ready } = useSession();
  const userId = userIdOf(user);
  const posts = useQuery({
    queryKey: communityKeys.mine(userId ?? ''),
    queryFn: ({ signal }) => communityApi.byUser(userId!, signal),
    enabled: ready && Boolean(userId && token),
  });

  let body;
  if (!ready) body = <Loading />;
  else if (!user || !token)
    body = (
      <Alert
        severity="warning"
        action={
          <Button component={RouterLink} to="/signin" color="inherit" size="small">
            Sign in
          </Button>
        }
      >
        {COMMUNITY_MESSAGES.tokenMissing}
      </Alert>
    );
  else if (posts.isPending) body = <Loading />;
  else if (posts.isError)
    body = <RetryAlert onRetry={() => void posts.refetch()}>{COMMUNITY_MESSAGES.feedFailed}</RetryAlert>;
  else if (posts.data.length === 0)
    body = (
      <Box sx={{ textAlign: 'center', py: { xs: 4, md: 6 } }}>
        <PhotoLibraryIcon aria-hidden sx={{ fontSize: 48, color: 'primary.light' }} />
        <Typography variant="h6" component="p" sx={{ mt: 1 }}>
          {COMMUNITY_MESSAGES.myPostsEmpty}
        </Typography>
      </Box>
    );
  else
    body = (
      <Stack component="ul" spacing={3} sx={{ p: 0, m: 0, listStyle: 'none' }} aria-label="Your posts">
        {posts.data.map((post) => (
          <MyPostItem key={post._id} post={post} me={userId} />
        ))}
      </Stack>
    );

  return (
    <Box>
      <PanelHeader
        title={title}
        heading={heading}
        action={
          user && (
            <Button component={RouterLink} to="/createpost" variant="contained" startIcon={<AddIcon />}>
              Create Post
            </Button>
          )
        }
      />
      {body}
    </Box>
  );
}

function Loading() {
  return (
    <Stack spacing={2} role="status" aria-label="Loading your posts">
      {[0, 1].map((i) => (
        <Skeleton key={i} variant="rounded" height={200} />
      ))}
    </Stack>
  );
}

function MyPostItem({ post, me }: { post: PostDto; me: string | null }) {
  const captionId = useId();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useDeletePost();

  return (
    <Paper
      component="li"
      aria-labelledby={captionId}
      elevation={0}
      data-post-id={post._id}
      sx={{ border: 1, borderColor: 'divider', overflow: 'hidden' }}
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '220px minmax(0, 1fr)' } }}>
        <PetImage src={post.imageUrl} alt="Photo of your post" height={{ xs: 220, sm: 240 }} />
        <Box sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary" component="p">
            {longDate(post.createdAt)}
          </Typography>
          {editing ? (
            <CaptionEditor post={post} labelId={captionId} onDone={() => setEditing(false)} />
          ) : (
            <>
              <Typography
                id={captionId}
                component="h3"
                variant="body1"
                sx={{ mt: 0.5, whiteSpace: 'pre-line', wordBreak: 'break-word', overflowWrap: 'anywhere' }}
              >
                {post.caption}
              </Typography>
              <Box sx={{ mt: 1, ml: -1 }}>
                <PostStats post={post} me={me} />
              </Box>
              <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
                <Button
                  size="small"
                  variant="outlined"
                  startIcon={<EditIcon />}
                  onClick={() => setEditing(true)}
                >
                  Edit Caption
                </Button>
                <Button
                  size="small"
                  variant="outlined"
                  color="error"
                  startIcon={<DeleteIcon />}
                  onClick={() => setConfirmDelete(true)}
                  disabled={remove.isPending}
                >
                  Delete Post
                </Button>
                <Button size="small" component={RouterLink} to={postPath(post._id)} startIcon={<OpenIcon />}>
                  View Post
                </Button>
              </Stack>
            </>
          )}
        </Box>
      </Box>
      <Box sx={{ borderTop: 1, borderColor: 'divider', p: { xs: 2, sm: 3 } }}>
        <Typography component="h4" variant="subtitle1" sx={{ fontWeight: 800, mb: 1.5 }}>
          Comments ({post.commentCount})
        </Typography>
        <CommentSection post={post} mode="readonly" />
        {post.comments.filter((c) => !c.deleted).length < post.commentCount && (
          <Button size="small" component={RouterLink} to={postPath(post._id)} sx={{ mt: 1, px: 1 }}>
            See all comments
          </Button>
        )}
      </Box>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete post"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        danger
        busy={remove.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate(post, { onSettled: () => setConfirmDelete(false) })}
      >
        {COMMUNITY_MESSAGES.confirmDeletePost}
      </ConfirmDialog>
    </Paper>
  );
}

function CaptionEditor({ post, labelId, onDone }: { post: PostDto; labelId: string; onDone: () => void }) {
  const [caption, setCaption] = useState(post.caption);
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const edit = useEditCaption();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (edit.isPending) return;
    const parsed = editPostBody.safeParse({ caption });
    if (!parsed.success)
      return setError(parsed.error.issues[0]?.message ?? COMMUNITY_MESSAGES.captionRequired);
    if (parsed.data.caption === post.caption) return onDone();
    setFormError(null);
    edit.mutate(
      { post, caption: parsed.data.caption },
      {
        onSuccess: onDone,
        onError: (err) => setFormError(failureText(err, COMMUNITY_MESSAGES.myPostsUpdateFailed)),
      },
    );
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Edit caption" sx={{ mt: 0.5 }}>
      <Typography id={labelId} component="h3" variant="subtitle1" sx={{ fontWeight: 800 }}>
        Edit caption
      </Typography>
      {formError && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {formError}
        </Alert>
      )}
      <TextField
        label="Caption"
        value={caption}
        onChange={(e) => {
          setCaption(e.target.value);
          setError(null);
        }}
        multiline
        minRows={3}
        autoFocus
        error={Boolean(error)}
        helperText={error ?? `${caption.length}/${COMMUNITY_LIMITS.captionMaxLength}`}
        disabled={edit.isPending}
        slotProps={{ htmlInput: { maxLength: COMMUNITY_LIMITS.captionMaxLength } }}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
        <Button onClick={onDone} color="inherit" disabled={edit.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </Stack>
    </Box>
  );
}
