import { Admin, CustomRoutes, Resource, defaultTheme, memoryStore } from 'react-admin';
import { Route } from 'react-router-dom';
import { QueryClient } from '@tanstack/react-query';
import { themeOptions } from '../theme';
import { authProvider } from './authProvider';
import { dataProvider } from './dataProvider';
import { AdminLayout } from './layout/AdminLayout';
import { Overview } from './overview';
import { ProjectionsPage } from './projections';
import users, { ManageUsers } from './users';
import adoptions, { UserAdoptionList } from './adoptions';
import adoptionRequests, { UserRequestList } from './adoption-requests';
import posts, { UserPostList } from './posts';
import comments, { PostCommentList, UserCommentList } from './comments';
import events from './events';

/** Admin data is cached for 5 minutes; deletions and rebuilds refresh what they change. */
const ADMIN_CACHE_MS = 5 * 60_000;
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: ADMIN_CACHE_MS, retry: false, refetchOnWindowFocus: false },
  },
});

const theme = {
  ...defaultTheme,
  ...themeOptions,
  components: { ...defaultTheme.components, ...themeOptions.components },
  // Wide enough for 'Show Adoption Requests' in full.
  sidebar: { width: 270, closedWidth: 55 },
};

/**
 * The administrator dashboard under /admin-dashboard. Its routes:
 *   (empty)                             overview
 *   manage-users                        Manage Users
 *   adoptions, adoptions/user/{userId}  (and adoptions/{id}/show: an ad's audit history)
 *   adoption-requests, adoption-requests/user/{userId}
 *   posts, posts/user/{userId}
 *   comments, comments/user/{userId}, comments/post/{postId}
 *   streams, streams/{id}/show          event browser
 *   projections                         read models and rebuilds
 */
export function AdminApp() {
  return (
    <Admin
      basename="/admin-dashboard"
      title="Admin Dashboard"
      dataProvider={dataProvider}
      authProvider={authProvider}
      queryClient={queryClient}
      store={memoryStore()}
      layout={AdminLayout}
      dashboard={Overview}
      theme={theme}
      requireAuth
      disableTelemetry
    >
      <CustomRoutes>
        <Route path="/manage-users" element={<ManageUsers />} />
        <Route path="/projections" element={<ProjectionsPage />} />
      </CustomRoutes>
      <Resource name="users" {...users} />
      <Resource name="adoptions" {...adoptions}>
        <Route path="user/:userId" element={<UserAdoptionList />} />
      </Resource>
      <Resource name="adoption-requests" {...adoptionRequests}>
        <Route path="user/:userId" element={<UserRequestList />} />
      </Resource>
      <Resource name="posts" {...posts}>
        <Route path="user/:userId" element={<UserPostList />} />
      </Resource>
      <Resource name="comments" {...comments}>
        <Route path="user/:userId" element={<UserCommentList />} />
        <Route path="post/:postId" element={<PostCommentList />} />
      </Resource>
      <Resource name="streams" {...events} />
    </Admin>
  );
}
