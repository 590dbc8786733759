import DynamicFeedIcon from '@mui/icons-material/DynamicFeed';
import { PostList } from './PostList';

export { UserPostList } from './PostList';

/** Posts: the list (per-user list with inline comments: a child route). */
export default { list: PostList, icon: DynamicFeedIcon };
