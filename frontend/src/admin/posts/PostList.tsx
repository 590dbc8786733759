import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Datagrid, FunctionField, Link, List, useCreatePath, useRecordContext } from 'react-admin';
import { useParams } from 'react-router-dom';
import { ADMIN_DEFAULT_SORT, ADMIN_LIMITS, ADMIN_MESSAGES, type AdminPostRow } from '@pawhaven/contracts';
import { CommentsTable } from '../comments';
import { DateCell, UserCell } from '../components/Cells';
import { DeleteRowButton } from '../components/DeleteRowButton';
import { ImageThumb } from '../components/ImageThumb';
import { EmptyText, ListError, PageHeading, listSx } from '../components/ListParts';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT.posts;

/** The comment count with a Show button to that post's comments (comments/post/{postId}). */
function CommentsCell({ post }: { post: AdminPostRow }) {
  const createPath = useCreatePath();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography variant="body2">{post.commentCount}</Typography>
      <Button
        size="small"
        component={Link}
        to={`${createPath({ resource: 'comments', type: 'list' })}/post/${encodeURIComponent(post.id)}`}
        aria-label={`Show comments of ${post.caption || 'post'}`}
      >
        Show
      </Button>
    </Box>
  );
}

/** A user's post, expanded: its comments inline, each with Delete. */
function InlineComments() {
  const record = useRecordContext<AdminPostRow>();
  return record ? <CommentsTable postId={record.id} inline /> : null;
}

/**
 * Posts, one column each: Image, Caption, User, Created, Comments (count + Show), Delete. The per-user page expands
 * an inline comment list instead of linking away.
 */
function PostsTable({ userId }: { userId?: string }) {
  const perUser = Boolean(userId);
  const title = perUser ? ADMIN_MESSAGES.userPosts : ADMIN_MESSAGES.allPosts;
  return (
    <>
      <PageHeading>{title}</PageHeading>
      <List<AdminPostRow>
        resource="posts"
        title={title}
        filter={perUser ? { userId } : undefined}
        sort={{ field: sortField, order: sortOrder }}
        perPage={ADMIN_LIMITS.pageSizeDefault}
        storeKey={perUser ? `posts.user.${userId}` : undefined}
        disableSyncWithLocation={perUser}
        empty={false}
        actions={false}
        error={<ListError fallback={ADMIN_MESSAGES.fetchPostsFailed} />}
        sx={listSx}
      >
        <Datagrid
          bulkActionButtons={false}
          rowClick={perUser ? 'expand' : false}
          expand={perUser ? <InlineComments /> : undefined}
          empty={<EmptyText>No posts found.</EmptyText>}
        >
          <FunctionField<AdminPostRow>
            label="Image"
            sortable={false}
            render={(r) => <ImageThumb src={r.imageUrl} alt={r.caption || 'Post image'} />}
          />
          <FunctionField<AdminPostRow>
            label="Caption"
            sortable={false}
            render={(r) => (
              <Typography variant="body2" sx={{ minWidth: 140 }}>
                {r.caption}
              </Typography>
            )}
          />
          {!perUser && (
            <FunctionField<AdminPostRow>
              label="User"
              sortable={false}
              render={(r) => <UserCell user={r.userId} />}
            />
          )}
          <DateCell source="createdAt" label="Created" />
          <FunctionField<AdminPostRow>
            label="Comments"
            sortBy="commentCount"
            render={(r) =>
              perUser ? <Typography variant="body2">{r.commentCount}</Typography> : <CommentsCell post={r} />
            }
          />
          <FunctionField<AdminPostRow>
            label="Delete"
            sortable={false}
            render={() => <DeleteRowButton kind="post" />}
          />
        </Datagrid>
      </List>
    </>
  );
}

export const PostList = () => <PostsTable />;

/** posts/user/{userId} */
export function UserPostList() {
  const { userId } = useParams();
  return <PostsTable key={userId} userId={userId} />;
}
