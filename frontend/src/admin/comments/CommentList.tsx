import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Datagrid, FunctionField, List } from 'react-admin';
import { useParams } from 'react-router-dom';
import { ADMIN_DEFAULT_SORT, ADMIN_LIMITS, ADMIN_MESSAGES, type AdminCommentRow } from '@pawhaven/contracts';
import { DateCell, UserCell } from '../components/Cells';
import { DeleteRowButton } from '../components/DeleteRowButton';
import { ImageThumb } from '../components/ImageThumb';
import { EmptyText, ListError, PageHeading, listSx } from '../components/ListParts';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT.comments;

type Scope = { userId?: string; postId?: string };

/**
 * Post comments, one column each: Content, User, Post (caption and thumbnail), Created, Delete. Used whole, per user,
 * per post, and inline under a user's post.
 */
export function CommentsTable({ userId, postId, inline = false }: Scope & { inline?: boolean }) {
  const filter = { ...(userId ? { userId } : {}), ...(postId ? { postId } : {}) };
  const scoped = Boolean(userId || postId);
  return (
    <List<AdminCommentRow>
      resource="comments"
      title={false}
      filter={scoped ? filter : undefined}
      sort={{ field: sortField, order: sortOrder }}
      perPage={inline ? 10 : ADMIN_LIMITS.pageSizeDefault}
      storeKey={scoped ? `comments.${userId ?? ''}.${postId ?? ''}` : undefined}
      disableSyncWithLocation={scoped}
      empty={false}
      actions={false}
      error={<ListError fallback={ADMIN_MESSAGES.fetchCommentsFailed} />}
      sx={listSx}
      component={inline ? Box : undefined}
    >
      <Datagrid bulkActionButtons={false} rowClick={false} empty={<EmptyText>No comments found.</EmptyText>}>
        <FunctionField<AdminCommentRow>
          label="Content"
          sortable={false}
          render={(r) => (
            <Typography variant="body2" sx={{ minWidth: 160, whiteSpace: 'pre-wrap' }}>
              {r.content}
            </Typography>
          )}
        />
        <FunctionField<AdminCommentRow>
          label="User"
          sortable={false}
          render={(r) => <UserCell user={r.userId} />}
        />
        {!inline && (
          <FunctionField<AdminCommentRow>
            label="Post"
            sortable={false}
            render={(r) =>
              r.postId ? (
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', minWidth: 140 }}>
                  <ImageThumb src={r.postId.imageUrl} alt={r.postId.caption || 'Post image'} size={40} />
                  <Typography variant="body2">{r.postId.caption}</Typography>
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary" fontStyle="italic">
                  deleted post
                </Typography>
              )
            }
          />
        )}
        <DateCell source="createdAt" label="Created" />
        <FunctionField<AdminCommentRow>
          label="Delete"
          sortable={false}
          render={() => <DeleteRowButton kind="comment" />}
        />
      </Datagrid>
    </List>
  );
}

export const CommentList = () => (
  <>
    <PageHeading>{ADMIN_MESSAGES.allComments}</PageHeading>
    <CommentsTable />
  </>
);

/** comments/user/{userId} */
export function UserCommentList() {
  const { userId } = useParams();
  return (
    <>
      <PageHeading>{ADMIN_MESSAGES.userComments}</PageHeading>
      <CommentsTable key={userId} userId={userId} />
    </>
  );
}

/** comments/post/{postId} */
export function PostCommentList() {
  const { postId } = useParams();
  return (
    <>
      <PageHeading>{ADMIN_MESSAGES.postComments}</PageHeading>
      <CommentsTable key={postId} postId={postId} />
    </>
  );
}
