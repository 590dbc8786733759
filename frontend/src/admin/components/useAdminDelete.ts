import { HttpError, useDelete, useNotify, useRefresh, type RaRecord } from 'react-admin';
import { ADMIN_MESSAGES } from '@pawhaven/contracts';

/**
 * The admin's five deletions (user, ad, request, post, comment): the resource whose `delete` the data provider
 * sends to its command route, the browser confirmation, the failure alert and the success note.
 */
const ADMIN_DELETIONS = {
  user: {
    resource: 'users',
    confirm: ADMIN_MESSAGES.confirmDeleteUser,
    failed: ADMIN_MESSAGES.deleteUserFailed,
    done: 'User deleted',
  },
  adoption: {
    resource: 'adoptions',
    confirm: ADMIN_MESSAGES.confirmDeleteAdoption,
    failed: ADMIN_MESSAGES.deleteAdoptionFailed,
    done: 'Adoption post deleted',
  },
  request: {
    resource: 'adoption-requests',
    confirm: ADMIN_MESSAGES.confirmDeleteRequest,
    failed: ADMIN_MESSAGES.deleteRequestFailed,
    done: 'Adoption request deleted',
  },
  post: {
    resource: 'posts',
    confirm: ADMIN_MESSAGES.confirmDeletePost,
    failed: ADMIN_MESSAGES.deletePostFailed,
    done: 'Post deleted',
  },
  comment: {
    resource: 'comments',
    confirm: ADMIN_MESSAGES.confirmDeleteComment,
    failed: ADMIN_MESSAGES.deleteCommentFailed,
    done: 'Comment deleted',
  },
} as const;
export type AdminDeletion = keyof typeof ADMIN_DELETIONS;

/**
 * Asks the browser's confirmation with the exact text of the deletion, then deletes through react-admin's
 * `useDelete`, pessimistically: the row leaves the lists only once the server has deleted it, so a refused
 * deletion leaves it where it was and says why in an alert (a 401/403 has already ended the session, which leads
 * to /signin). After a deletion every list is read again (the answer's position makes those reads include it).
 * react-admin's own DeleteButton is not used: it confirms in a dialog of its own, not the browser's.
 */
export function useAdminDelete(kind: AdminDeletion) {
  const refresh = useRefresh();
  const notify = useNotify();
  const [deleteOne, { isPending }] = useDelete();
  const { resource, confirm, failed, done } = ADMIN_DELETIONS[kind];

  const remove = (record: RaRecord) => {
    if (isPending || !window.confirm(confirm)) return;
    void deleteOne(
      resource,
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(done, { type: 'success' });
          refresh();
        },
        onError: (err) => {
          const status = err instanceof HttpError ? err.status : 0;
          if (status !== 401 && status !== 403)
            window.alert(err instanceof HttpError && err.message ? `${failed}: ${err.message}` : failed);
        },
      },
    );
  };
  return { remove, busy: isPending };
}
