import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from '../shared/session';
import { findConversationQuery } from './api';
import { userIdOf } from '../shared/user-id';

/**
 * The Message / Chat buttons of profiles and posts: check for an existing conversation, then go
 * to /chat/{userId}; a failed check is only logged and still goes there. Visitors go to /signin; nobody chats with
 * themselves. The answer (a conversation, or none yet) is the chat page's too: it does not ask again.
 */
export function useOpenChat() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const me = userIdOf(user);
  const [checking, setChecking] = useState(false);
  const busy = useRef(false);

  const openChat = useCallback(
    async (userId: string) => {
      if (!me) {
        navigate('/signin');
        return;
      }
      if (!userId || userId === me || busy.current) return;
      busy.current = true;
      setChecking(true);
      try {
        await queryClient.fetchQuery(findConversationQuery(me, userId));
      } catch (err) {
        console.error('Failed to check for an existing conversation', err);
      } finally {
        busy.current = false;
        setChecking(false);
      }
      navigate(`/chat/${encodeURIComponent(userId)}`);
    },
    [me, navigate, queryClient],
  );

  return { openChat, checking };
}
