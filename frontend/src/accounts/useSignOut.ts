import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, errorText } from '../shared/api';
import { sessionStore } from '../shared/session-store';
import { useToast } from '../shared/toast';
import { accountsApi } from './api';

/**
 * Sign-out: the server revokes the refresh session, the browser forgets the session in both storages and the
 * user lands on /signin. Failures keep the user signed in and say so.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  const finish = (message: string) => {
    sessionStore.clear();
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' });
    navigate('/signin', { replace: true });
    toast(message, 'success');
  };

  const signOut = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const res = await accountsApi.signout();
      finish(res?.message || 'Signed out successfully!');
    } catch (err) {
      // The session had already ended on the server: the user is signed out either way.
      if (err instanceof ApiError && err.status === 401) finish('Signed out successfully!');
      else
        toast(
          errorText(err, 'Failed to sign out. Please try again.', 'An error occurred while signing out.'),
          'error',
        );
    } finally {
      setBusy(false);
    }
  };

  return { signOut, busy };
}
