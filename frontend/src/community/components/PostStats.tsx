import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChatBubbleIcon from '@mui/icons-material/ChatBubbleOutline';
import FavoriteIcon from '@mui/icons-material/Favorite';
import FavoriteBorderIcon from '@mui/icons-material/FavoriteBorder';
import type { PostDto } from '@pawhaven/contracts';
import type { ReactNode } from 'react';
import { commentCountOf, likeCountOf } from '../format';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The like count (red when the viewer likes the post; a toggle button for signed-in users, plain text for
 * visitors) and the comment count.
 */
export function PostStats({
  post,
  me,
  onLike,
  commentsHref,
  children,
}: {
  post: PostDto;
  me: string | null;
  /** Absent for visitors: they cannot like. */
  onLike?: () => void;
  /** Where the comment count leads (a feed card: the post's page at its comments). */
  commentsHref?: string;
  /** More actions on the same row (Share). */
  children?: ReactNode;
}) {
  const likes = likeCountOf(post);
  const comments = commentCountOf(post);
  const liked = me !== null && post.likes.includes(me);
  const heart = liked ? <FavoriteIcon aria-hidden /> : <FavoriteBorderIcon aria-hidden />;
  const likeColor = liked ? 'error.main' : 'text.secondary';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      {onLike ? (
        <Button
          onClick={onLike}
          aria-pressed={liked}
          aria-label={`${liked ? 'Unlike' : 'Like'} (${plural(likes, 'like')})`}
          startIcon={heart}
          data-testid="like-button"
          sx={{ color: likeColor, px: 1.5, minWidth: 0, '& .MuiButton-startIcon': { mr: 0.75 } }}
        >
          <span data-testid="like-count">{likes}</span>
        </Button>
      ) : (
        <Box
          sx={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 0.75,
            color: likeColor,
            px: 1.5,
            py: 0.75,
          }}
          aria-label={plural(likes, 'like')}
          role="img"
        >
          {heart}
          <Typography component="span" sx={{ fontWeight: 700 }} data-testid="like-count">
            {likes}
          </Typography>
        </Box>
      )}
      <Box
        {...(commentsHref
          ? { component: RouterLink, to: commentsHref, 'data-testid': 'comments-link' }
          : { role: 'img' })}
        sx={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 0.75,
          color: 'text.secondary',
          px: 1,
          py: 0.75,
          borderRadius: 1,
          textDecoration: 'none',
          '&:hover': commentsHref ? { bgcolor: 'action.hover' } : undefined,
        }}
        aria-label={plural(comments, 'comment')}
      >
        <ChatBubbleIcon aria-hidden />
        <Typography component="span" sx={{ fontWeight: 700 }} data-testid="comment-count">
          {comments}
        </Typography>
      </Box>
      {children}
    </Stack>
  );
}
