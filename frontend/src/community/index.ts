/**
 * The community capability: the feed, create post, own posts, the single post page.
 *
 * Pages are default exports of their own files so App.tsx can lazy-load each as its own chunk:
 *   lazy(() => import('./community/PostsPage'))
 * The panel is for the profile page's 'My Posts' view.
 */
export { default as PostsPage } from './PostsPage';
export { default as CreatePostPage } from './CreatePostPage';
export { default as MyPostsPage } from './MyPostsPage';
export { default as PostPage } from './PostPage';
export { MyPostsPanel } from './MyPostsPanel';
