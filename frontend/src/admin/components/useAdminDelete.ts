import { useState } from 'react';
import { HttpError, useNotify, useRefresh } from 'react-admin';
import { ADMIN_MESSAGES } from '@pawhaven/contracts';
import { adminFetch } from '../httpClient';

/** The admin's five deletions (user, ad, request, post, comment): path, browser confirmation, failure alert. */
const ADMIN_DELETIONS = {
  user: {
    path: (id: string) => `/user/${encodeURIComponent(id)}`,
    confirm: ADMIN_MESSAGES.confirmDeleteUser,
    failed: ADMIN_MESSAGES.deleteUserFailed,
    done: 'User deleted',
  },
  adoption: {
    path: (id: string) => `/adoptions/${encodeURIComponent(id)}`,
    confirm: ADMIN_MESSAGES.confirmDeleteAdoption,
    failed: ADMIN_MESSAGES.deleteAdoptionFailed,
    done: 'Adoption post deleted',
  },
  request: {
    path: (id: string) => `/adoption-requests/${encodeURIComponent(id)}`,
    confirm: ADMIN_MESSAGES.confirmDeleteRequest,
    failed: ADMIN_MESSAGES.deleteRequestFailed,
    done: 'Adoption request deleted',
  },
  post: {
    path: (id: string) => `/posts/${encodeURIComponent(id)}`,
    confirm: ADMIN_MESSAGES.confirmDeletePost,
    failed: ADMIN_MESSAGES.deletePostFailed,
    done: 'Post deleted',
  },
  comment: {
    path: (id: string) => `/comments/${encodeURIComponent(id)}`,
    confirm: ADMIN_MESSAGES.confirmDeleteComment,
    failed: ADMIN_MESSAGES.deleteCommentFailed,
    done: 'Comment deleted',
  },
} as const;
export type AdminDeletion = keyof typeof ADMIN_DELETIONS;

/**
 * Asks the browser's confirmation with the spec's exact text, deletes, then refreshes the lists (the answer's
 * position makes the next reads include the deletion). A failure is shown in an alert; a 401/403 has already
 * ended the session, which leads to /signin.
 */
export function useAdminDelete(kind: AdminDeletion) {
  const refresh = useRefresh();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const { path, confirm, failed, done } = ADMIN_DELETIONS[kind];

  const remove = async (id: string) => {
    if (busy || !window.confirm(confirm)) return false;
    setBusy(true);
    try {
      await adminFetch(path(id), { method: 'DELETE' });
      notify(done, { type: 'success' });
      refresh();
      return true;
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 0;
      if (status !== 401 && status !== 403)
        window.alert(err instanceof HttpError && err.message ? `${failed}: ${err.message}` : failed);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { remove, busy };
}
