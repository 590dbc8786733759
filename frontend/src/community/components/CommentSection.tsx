import { useId, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import ReplyIcon from '@mui/icons-material/Reply';
import SendIcon from '@mui/icons-material/Send';
import {
  addCommentBody,
  COMMUNITY_LIMITS,
  COMMUNITY_MESSAGES,
  type CommentDto,
  type PostDto,
} from '@pawhaven/contracts';
import { useSession } from '../../shared/session';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { communityApi, communityKeys } from '../api';
import {
  authorIdOf,
  authorName,
  buildThreads,
  commentDate,
  isTemp,
  liveCount,
  userIdOf,
  type ThreadNode,
} from '../format';
import { useAddComment, useDeleteComment } from '../hooks';
import { AuthorLine } from './AuthorLine';

/** Nesting is indented this many levels deep; deeper replies line up with their parent (narrow screens). */
const MAX_INDENT = 3;

export type CommentMode =
  /** A feed card: two threads, 'View N More Comments' / 'Show Less'. */
  | 'card'
  /** The post page: every thread. */
  | 'page'
  /** My Posts: every thread, no comment box, replies or deletes. */
  | 'readonly';

/**
 * A post's comments as threads (replies nested under their parents), the comment box, one reply box at a time
 * and deleting one's own comments after a confirmation ('Are you sure you want to delete this comment?'). Visitors read
 * only.
 */
export function CommentSection({ post, mode }: { post: PostDto; mode: CommentMode }) {
  const { user } = useSession();
  const me = userIdOf(user);
  const canWrite = mode !== 'readonly' && Boolean(me);
  const [expanded, setExpanded] = useState(mode !== 'card');
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [replyDraft, setReplyDraft] = useState('');
  const [toDelete, setToDelete] = useState<CommentDto | null>(null);
  const add = useAddComment();
  const remove = useDeleteComment();

  // The feed sends the newest threads only: expanding a card whose post has more reads the whole post.
  const loadedLive = post.comments.filter((c) => !c.deleted).length;
  const truncated = mode === 'card' && loadedLive < post.commentCount;
  const full = useQuery({
    queryKey: communityKeys.detail(post._id),
    queryFn: ({ signal }) => communityApi.post(post._id, signal),
    enabled: expanded && truncated,
  });
  const comments = (expanded && truncated && full.data?.comments) || post.comments;
  const threads = buildThreads(comments);
  const shown = COMMUNITY_LIMITS.commentsShown;
  const visible = expanded ? threads : threads.slice(0, shown);
  const hiddenCount = expanded ? 0 : Math.max(post.commentCount - liveCount(visible), 0);
  const canCollapse = mode === 'card' && expanded && (threads.length > shown || truncated);

  const send = (content: string, parentCommentId: string | null, onFailed: () => void) => {
    add.mutate({ post, content, parentCommentId, onFailed });
  };

  const ctx: NodeContext = {
    me,
    canWrite,
    replyTo,
    replyDraft,
    setReplyDraft,
    openReply: (commentId) => {
      setReplyTo((current) => (current === commentId ? null : commentId));
      setReplyDraft('');
    },
    sendReply: (parent, content) => {
      setReplyTo(null);
      setReplyDraft('');
      send(content, parent._id, () => {
        setReplyTo(parent._id);
        setReplyDraft(content);
      });
    },
    askDelete: setToDelete,
  };

  return (
    <Box component="section" aria-label="Comments" sx={{ minWidth: 0 }}>
      {mode === 'readonly' && threads.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {COMMUNITY_MESSAGES.noComments}
        </Typography>
      ) : (
        visible.length > 0 && (
          <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0, listStyle: 'none' }}>
            {visible.map((node) => (
              <CommentNode key={node.comment._id} node={node} depth={0} ctx={ctx} />
            ))}
          </Stack>
        )
      )}

      {mode === 'card' && !expanded && hiddenCount > 0 && (
        <Button size="small" onClick={() => setExpanded(true)} sx={{ mt: 1, px: 1 }}>
          View {hiddenCount} More Comments
        </Button>
      )}
      {canCollapse && (
        <Button
          size="small"
          onClick={() => {
            setExpanded(false);
            setReplyTo(null);
          }}
          sx={{ mt: 1, px: 1 }}
        >
          Show Less
        </Button>
      )}

      {canWrite && (
        <CommentBox
          onSend={(content, onFailed) => {
            send(content, null, onFailed);
            // A new comment comes last: open the thread list so it shows.
            if (mode === 'card' && threads.length >= shown) setExpanded(true);
          }}
        />
      )}
      {mode !== 'readonly' && !me && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          <Link component={RouterLink} to="/signin" sx={{ fontWeight: 700 }}>
            Sign in
          </Link>{' '}
          to like and comment.
        </Typography>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        title="Delete comment"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        danger
        busy={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() =>
          toDelete && remove.mutate({ post, comment: toDelete }, { onSettled: () => setToDelete(null) })
        }
      >
        {COMMUNITY_MESSAGES.confirmDeleteComment}
      </ConfirmDialog>
    </Box>
  );
}

type NodeContext = {
  me: string | null;
  canWrite: boolean;
  replyTo: string | null;
  replyDraft: string;
  setReplyDraft: (text: string) => void;
  openReply: (commentId: string) => void;
  sendReply: (parent: CommentDto, content: string) => void;
  askDelete: (comment: CommentDto) => void;
};

function CommentNode({ node, depth, ctx }: { node: ThreadNode; depth: number; ctx: NodeContext }) {
  const { comment, replies } = node;
  const temp = isTemp(comment._id);
  const own = ctx.me !== null && authorIdOf(comment) === ctx.me;
  const replying = ctx.replyTo === comment._id;

  return (
    <Box component="li" sx={{ minWidth: 0 }}>
      <Box data-testid="comment" data-comment-id={comment._id} sx={{ opacity: temp ? 0.65 : 1 }}>
        {comment.deleted ? (
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ fontStyle: 'italic', py: 1, px: 1.5, borderRadius: 2, bgcolor: 'rgba(61, 44, 41, 0.04)' }}
          >
            {COMMUNITY_MESSAGES.commentWasDeleted}
          </Typography>
        ) : (
          <Box sx={{ px: 1.5, py: 1, borderRadius: 2, bgcolor: 'rgba(61, 44, 41, 0.04)', minWidth: 0 }}>
            <AuthorLine
              item={comment}
              date={commentDate(comment.createdAt)}
              avatarSize={30}
              badgeLabel="Vet"
              nameVariant="body2"
            />
            <Typography
              variant="body2"
              sx={{ mt: 0.75, whiteSpace: 'pre-line', wordBreak: 'break-word', overflowWrap: 'anywhere' }}
            >
              {comment.content}
            </Typography>
          </Box>
        )}
        {!comment.deleted && !temp && ctx.canWrite && (
          <Stack direction="row" spacing={0.5} sx={{ mt: 0.25 }}>
            <Button
              size="small"
              startIcon={<ReplyIcon />}
              onClick={() => ctx.openReply(comment._id)}
              aria-expanded={replying}
              sx={{ px: 1, minWidth: 0 }}
            >
              Reply
            </Button>
            {own && (
              <Button
                size="small"
                color="error"
                startIcon={<DeleteIcon />}
                onClick={() => ctx.askDelete(comment)}
                sx={{ px: 1, minWidth: 0 }}
              >
                Delete
              </Button>
            )}
          </Stack>
        )}
        {replying && (
          <ReplyBox
            to={authorName(comment)}
            draft={ctx.replyDraft}
            setDraft={ctx.setReplyDraft}
            onCancel={() => ctx.openReply(comment._id)}
            onSend={(content) => ctx.sendReply(comment, content)}
          />
        )}
      </Box>
      {replies.length > 0 && (
        <Stack
          component="ul"
          spacing={1.25}
          aria-label={comment.deleted ? 'Replies' : `Replies to ${authorName(comment)}`}
          sx={{
            listStyle: 'none',
            m: 0,
            mt: 1.25,
            p: 0,
            pl: depth < MAX_INDENT ? { xs: 1.25, sm: 2.5 } : 0,
            borderLeft: depth < MAX_INDENT ? 2 : 0,
            borderColor: 'divider',
          }}
        >
          {replies.map((child) => (
            <CommentNode key={child.comment._id} node={child} depth={depth + 1} ctx={ctx} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** Trimmed and checked with the server's own schema; empty text is not sent. */
const validContent = (text: string) => {
  const parsed = addCommentBody.safeParse({ content: text });
  return parsed.success ? parsed.data.content : null;
};

function CommentBox({ onSend }: { onSend: (content: string, onFailed: () => void) => void }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const content = validContent(draft);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!content) return;
    setDraft('');
    onSend(content, () => setDraft((now) => now || content));
  };
  return (
    <Box
      component="form"
      onSubmit={submit}
      aria-label="Add a comment"
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 1.5 }}
    >
      <TextField
        id={id}
        placeholder="Write a comment..."
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        margin="none"
        size="small"
        multiline
        maxRows={4}
        slotProps={{
          htmlInput: { maxLength: COMMUNITY_LIMITS.commentMaxLength, 'aria-label': 'Write a comment' },
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) submit(e);
        }}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={!content}
        endIcon={<SendIcon />}
        sx={{ flexShrink: 0 }}
      >
        Post
      </Button>
    </Box>
  );
}

function ReplyBox({
  to,
  draft,
  setDraft,
  onSend,
  onCancel,
}: {
  to: string;
  draft: string;
  setDraft: (text: string) => void;
  onSend: (content: string) => void;
  onCancel: () => void;
}) {
  const content = validContent(draft);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (content) onSend(content);
  };
  return (
    <Box component="form" onSubmit={submit} aria-label={`Reply to ${to}`} sx={{ mt: 1 }}>
      <TextField
        autoFocus
        placeholder="Write a reply..."
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        margin="none"
        size="small"
        multiline
        maxRows={4}
        slotProps={{
          htmlInput: { maxLength: COMMUNITY_LIMITS.commentMaxLength, 'aria-label': `Reply to ${to}` },
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) submit(e);
          if (e.key === 'Escape') onCancel();
        }}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
        <Button size="small" color="inherit" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="small" type="submit" variant="contained" disabled={!content}>
          Send Reply
        </Button>
      </Stack>
    </Box>
  );
}
