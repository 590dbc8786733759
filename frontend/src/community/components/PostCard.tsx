import { useId } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChatIcon from '@mui/icons-material/ChatOutlined';
import { COMMUNITY_MESSAGES, type PostDto } from '@pawhaven/contracts';
import { useOpenChat } from '../../chat/useOpenChat';
import { useSession } from '../../shared/session';
import { PetImage } from '../../shared/ui/PetImage';
import { authorIdOf, authorName, longDate, postPath, userIdOf } from '../format';
import { useLikePost } from '../hooks';
import { AuthorLine } from './AuthorLine';
import { CommentSection, type CommentMode } from './CommentSection';
import { PostStats } from './PostStats';
import { ShareButton } from './ShareButton';

/**
 * One shared post: author with avatar or initial, name to the public profile and the vet badge, the long date, the Chat
 * button (signed-in users, not on their own posts), the image (a placeholder when it fails), the caption, likes (red
 * when liked) and comments, Share, the comment threads and the comment box. On a feed card the image, caption and date
 * are links to the post's page and the comment count to its comments.
 */
export function PostCard({
  post,
  mode = 'card',
  captionAs = 'p',
  priority = false,
}: {
  post: PostDto;
  /** The first card of the page: its picture is fetched at once (`PetImage`). */
  priority?: boolean;
  mode?: Extract<CommentMode, 'card' | 'page'>;
  /** The post page shows the caption as its heading. */
  captionAs?: 'p' | 'h1';
}) {
  const captionId = useId();
  const { user } = useSession();
  const me = userIdOf(user);
  const authorId = authorIdOf(post);
  const like = useLikePost();
  // Checks for an existing conversation, then opens /chat/{authorId} (a failed check still goes there).
  const { openChat } = useOpenChat();
  const name = authorName(post);
  const onCard = mode === 'card';
  const page = postPath(post._id);

  const image = (
    <PetImage
      src={post.imageUrl}
      alt={`Photo shared by ${name}`}
      height={{ xs: 260, sm: 420 }}
      fit={onCard ? 'cover' : 'contain'}
      priority={priority}
      sx={{ bgcolor: 'rgba(61, 44, 41, 0.06)' }}
    />
  );

  return (
    <Card
      component="article"
      aria-label={`Post by ${name}`}
      aria-describedby={captionId}
      sx={{ minWidth: 0, overflow: 'hidden' }}
      data-post-id={post._id}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          px: { xs: 1.5, sm: 2.5 },
          pt: { xs: 1.5, sm: 2 },
          pb: 1.5,
        }}
      >
        <AuthorLine item={post} date={longDate(post.createdAt)} dateHref={onCard ? page : undefined} />
        {me && authorId && authorId !== me && (
          <Tooltip title={COMMUNITY_MESSAGES.chatTip} describeChild>
            <Button
              onClick={() => void openChat(authorId)}
              variant="outlined"
              color="secondary"
              size="small"
              startIcon={<ChatIcon />}
              sx={{ flexShrink: 0 }}
            >
              Chat
            </Button>
          </Tooltip>
        )}
      </Box>
      {post.imageUrl &&
        (onCard ? (
          // The caption's link comes next in the tab order: the picture's is for the mouse and touch.
          <Box
            component={RouterLink}
            to={page}
            tabIndex={-1}
            aria-label="Open the post"
            sx={{ display: 'block' }}
          >
            {image}
          </Box>
        ) : (
          image
        ))}
      <CardContent sx={{ px: { xs: 1.5, sm: 2.5 }, '&:last-child': { pb: 2 } }}>
        <Typography
          id={captionId}
          component={captionAs}
          variant={captionAs === 'h1' ? 'h6' : 'body1'}
          sx={{
            whiteSpace: 'pre-line',
            wordBreak: 'break-word',
            overflowWrap: 'anywhere',
            fontWeight: captionAs === 'h1' ? 700 : 400,
          }}
        >
          {onCard ? (
            <Link component={RouterLink} to={page} color="inherit" underline="hover">
              {post.caption}
            </Link>
          ) : (
            post.caption
          )}
        </Typography>
        <Box sx={{ mt: 1, ml: -1 }}>
          <PostStats
            post={post}
            me={me}
            onLike={me ? () => like.toggle(post) : undefined}
            commentsHref={onCard ? postPath(post._id, 'comments') : undefined}
          >
            <ShareButton postId={post._id} caption={post.caption} />
          </PostStats>
        </Box>
        <Divider sx={{ my: 1.5 }} />
        <Box id={onCard ? undefined : 'comments'} sx={{ scrollMarginTop: 80 }}>
          <CommentSection post={post} mode={mode} />
        </Box>
      </CardContent>
    </Card>
  );
}
