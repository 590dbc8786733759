import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CHAT_MESSAGES } from '@pawhaven/contracts';
import { useSession } from '../../shared/session';
import { chatKeys } from '../api';
import { userIdOf } from '../../shared/user-id';
import { userIdProblem } from '../format';
import { ChatErrorBoundary, ChatLoading, SignInRequired } from './ChatStates';
import { useChatToast } from './ChatToast';
import { ChatWorkspace, Frame, type ChatWorkspaceProps } from './ChatWorkspace';

/**
 * Chat needs a signed-in user with a usable id: visitors get 'You need to sign in to access
 * chat'; a stored user without an id, or with one that is too short, gets a toast and nothing loads. An uncaught
 * error inside shows the error state with its message.
 */
export function ChatGate(props: Omit<ChatWorkspaceProps, 'me'>) {
  const { user, ready } = useSession();
  const queryClient = useQueryClient();
  const toast = useChatToast();
  const problem = userIdProblem(user);
  const me = userIdOf(user);
  const showToast = toast.show;

  useEffect(() => {
    if (problem)
      showToast({ title: CHAT_MESSAGES.errorToastTitle, description: problem, variant: 'destructive' });
  }, [problem, showToast]);

  if (!ready)
    return (
      <Frame>
        <ChatLoading label={CHAT_MESSAGES.loading} testId="chat-loading" />
      </Frame>
    );
  if (!user || !me || problem)
    return (
      <Frame>
        <SignInRequired message={problem ?? CHAT_MESSAGES.signInRequired} />
        {toast.element}
      </Frame>
    );
  return (
    <ChatErrorBoundary onReset={() => void queryClient.invalidateQueries({ queryKey: chatKeys.all })}>
      <ChatWorkspace me={me} {...props} />
    </ChatErrorBoundary>
  );
}
