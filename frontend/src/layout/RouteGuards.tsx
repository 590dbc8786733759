import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useCurrentUser } from '../shared/session';
import { sessionStore } from '../shared/session-store';
import { PageLoader } from '../shared/ui/PageLoader';
import { isAdminPath } from './navigation';

/**
 * Admin confinement: an administrator is sent to /admin-dashboard from any other path, and a non-admin or visitor
 * entering the dashboard is sent to /.
 */
export function AdminConfinement() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const admin = Boolean(user?.isAdmin);
  if (admin && !isAdminPath(pathname)) return <Navigate to="/admin-dashboard" replace />;
  // An admin whose session just ended (sign-out, lost credentials) goes to /signin, others to /.
  if (!admin && isAdminPath(pathname))
    return <Navigate to={sessionStore.justEnded() ? '/signin' : '/'} replace />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
