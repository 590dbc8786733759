import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { AuthResponse } from '@pawhaven/contracts';
import { sessionStore } from '../shared/session-store';

/** After any successful sign-in: keep the session (persistently when asked, always for admins) and go on. */
export function useCompleteSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (auth: AuthResponse, persistent: boolean) => {
    sessionStore.start(auth.token, auth.user, persistent || auth.user.isAdmin);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' });
    navigate(auth.user.isAdmin ? '/admin-dashboard' : '/', { replace: true });
  };
}
