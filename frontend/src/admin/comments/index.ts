import CommentIcon from '@mui/icons-material/Comment';
import { CommentList } from './CommentList';

export { PostCommentList, UserCommentList, CommentsTable } from './CommentList';

/** Post comments: the list (per-user and per-post lists: child routes). */
export default { list: CommentList, icon: CommentIcon };
