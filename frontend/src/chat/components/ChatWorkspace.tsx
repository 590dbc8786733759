import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { CHAT_MESSAGES, type ConversationDto } from '@pawhaven/contracts';
import { useRealtime } from '../../realtime';
import { ApiError } from '../../shared/api';
import { otherMemberId, searchConversations, visibleConversations } from '../conversations';
import { flattenPages, withPending } from '../merge';
import {
  useChatHealth,
  useChatPushes,
  useConversations,
  useConversationWith,
  useIsMobile,
  useMessages,
  usePageVisible,
  usePresence,
  useReadReceipts,
  useRememberConversation,
  useSendMessage,
  useTypingEmitter,
  useTypingIn,
} from '../hooks';
import { ChatEmpty, ChatError, ChatLoading, ChatOpenFailed } from './ChatStates';
import { useChatToast } from './ChatToast';
import { ChatWindow } from './ChatWindow';
import { ConversationList } from './ConversationList';

export type ChatWorkspaceProps = {
  me: string;
  /** The user to chat with, from the URL (/chat/{recipientId}, /messages?recipientId=). */
  recipientId: string | null;
  /** The adoption ad the chat was opened from (`?adId=`). */
  adId: string | null;
  /** Where selecting a conversation goes while a recipient is in the URL (/chat or /messages, as entered). */
  basePath: '/chat' | '/messages';
};

type NavState = { conversationId?: string } | null;

/**
 * The two panes of the chat: the conversation list and the open conversation; at 1024 px and
 * below only one shows at a time, with a back action. Loading, error and empty states, the recipient from the URL
 * (found, else started), optimistic sending, the socket's pushes, typing, presence and receipts.
 */
export function ChatWorkspace({ me, recipientId, adId, basePath }: ChatWorkspaceProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const mobile = useIsMobile();
  const visible = usePageVisible();
  const { status, error: realtimeError } = useRealtime();
  const toast = useChatToast();

  const stateId = (location.state as NavState)?.conversationId ?? null;
  const [selectedId, setSelectedId] = useState<string | null>(stateId);
  // Small screens show one pane: the conversation list, unless a conversation is asked for (/chat/{userId}, or one
  // chosen while a recipient was in the URL). The empty state's 'View Conversations' remains for a conversation that
  // went away while open.
  const [mobilePane, setMobilePane] = useState<'list' | 'chat'>(stateId || recipientId ? 'chat' : 'list');
  const [search, setSearch] = useState('');

  // A conversation chosen while a recipient was in the URL arrives through the navigation state.
  useEffect(() => {
    if (stateId) {
      setSelectedId(stateId);
      setMobilePane('chat');
    }
  }, [stateId]);
  useEffect(() => {
    if (recipientId) setMobilePane('chat');
  }, [recipientId]);

  // ---------- data ----------
  const health = useChatHealth();
  const conversations = useConversations(me);
  const withRecipient = useConversationWith(me, recipientId, adId);
  useRememberConversation(me, withRecipient.data);

  const all = useMemo(() => conversations.data ?? [], [conversations.data]);
  const listed = useMemo(() => visibleConversations(all, me), [all, me]);
  const shown = useMemo(() => searchConversations(listed, search, me), [listed, search, me]);

  const openId = recipientId ? (withRecipient.data?._id ?? null) : selectedId;
  // The list's copy is the freshest (last message, unread); the lookup's copy until the list has it.
  const open: ConversationDto | null =
    (openId && all.find((c) => c._id === openId)) || (recipientId ? (withRecipient.data ?? null) : null);

  const messages = useMessages(open?._id ?? null);
  const confirmed = useMemo(() => flattenPages(messages.data?.pages ?? []), [messages.data]);

  // ---------- failures shown as toasts ----------
  const showToast = toast.show;
  const onSendFailure = useCallback(
    (f: { status: number | null; message: string }) =>
      f.status === 429
        ? showToast({
            title: CHAT_MESSAGES.rateLimitedTitle,
            description: CHAT_MESSAGES.rateLimited,
            variant: 'destructive',
          })
        : showToast({ title: CHAT_MESSAGES.errorToastTitle, description: f.message, variant: 'destructive' }),
    [showToast],
  );

  const listError = conversations.error;
  const listHttpError = listError instanceof ApiError && listError.kind === 'http' ? listError : null;
  const listErrorText = listHttpError
    ? listHttpError.status === 429
      ? CHAT_MESSAGES.rateLimited
      : (listHttpError.serverMessage ?? CHAT_MESSAGES.loadUsersFailed)
    : listError && !(listError instanceof ApiError)
      ? listError.message || CHAT_MESSAGES.loadUsersFailed
      : null;
  const hasList = conversations.data !== undefined;
  useEffect(() => {
    if (!listErrorText || hasList) return;
    if (listHttpError?.status === 429)
      showToast({
        title: CHAT_MESSAGES.rateLimitedTitle,
        description: CHAT_MESSAGES.rateLimited,
        variant: 'destructive',
      });
    else
      showToast({ title: CHAT_MESSAGES.errorToastTitle, description: listErrorText, variant: 'destructive' });
  }, [conversations.errorUpdatedAt, listErrorText, listHttpError, hasList, showToast]);

  // ---------- live ----------
  const { typing, stop: stopTyping } = useTypingIn(me);
  useChatPushes(me, { conversation: open, visible }, stopTyping);
  const { pending, send } = useSendMessage(me, onSendFailure);
  const display = useMemo(
    () => (open ? withPending(confirmed, pending[open._id] ?? []) : []),
    [open, confirmed, pending],
  );
  useReadReceipts(me, open, confirmed, messages.isSuccess, visible);
  const emitTyping = useTypingEmitter(open?._id ?? null);
  const online = usePresence(open ? otherMemberId(open, me) : null);

  // ---------- actions ----------
  const select = (c: ConversationDto) => {
    setSelectedId(c._id);
    setMobilePane('chat');
    if (recipientId) navigate(basePath, { state: { conversationId: c._id } });
  };
  const backToList = () => setMobilePane('list');
  const retry = () => {
    void conversations.refetch();
    void health.refetch();
  };

  // ---------- states ----------
  // The list loads for at most 10 s; a lost answer ends with an empty list.
  if (conversations.isPending && conversations.fetchStatus === 'fetching')
    return (
      <Frame>
        <ChatLoading label={CHAT_MESSAGES.loading} testId="chat-loading" />
        {toast.element}
      </Frame>
    );
  if (!hasList && listErrorText)
    return (
      <Frame>
        <ChatError message={listErrorText} onRetry={retry} />
        {toast.element}
      </Frame>
    );

  const banner = health.isError
    ? CHAT_MESSAGES.cannotConnect
    : realtimeError && status !== 'realtime'
      ? CHAT_MESSAGES.socketFailed
      : null;

  const showList = !mobile || mobilePane === 'list';
  const showWindow = !mobile || mobilePane === 'chat';

  let windowPane;
  if (recipientId && recipientId === me) {
    windowPane = <ChatOpenFailed message={CHAT_MESSAGES.notYourself} onBack={() => navigate(basePath)} />;
  } else if (recipientId && withRecipient.isError) {
    const err = withRecipient.error;
    windowPane = (
      <ChatOpenFailed
        message={err instanceof ApiError ? err.message : CHAT_MESSAGES.conversationNotFound}
        onBack={() => navigate(basePath)}
      />
    );
  } else if (recipientId && !open) {
    windowPane = <ChatLoading label={CHAT_MESSAGES.loadingConversation} testId="conversation-loading" />;
  } else if (open) {
    windowPane = (
      <ChatWindow
        key={open._id}
        conversation={open}
        me={me}
        messages={display}
        loading={messages.isPending && messages.fetchStatus === 'fetching'}
        loadFailed={messages.isError}
        onRetryLoad={() => void messages.refetch()}
        hasOlder={Boolean(messages.hasNextPage)}
        loadingOlder={messages.isFetchingNextPage}
        onLoadOlder={() => void messages.fetchNextPage()}
        typing={Boolean(typing[open._id])}
        online={online}
        onSend={(text) => send(open, text)}
        onTyping={emitTyping}
        onBack={mobile ? backToList : undefined}
        autoFocus={!mobile}
      />
    );
  } else {
    windowPane = <ChatEmpty onViewConversations={mobile ? backToList : undefined} />;
  }

  return (
    <Frame>
      {banner && (
        <Alert severity="warning" data-testid="chat-connection-banner" sx={{ borderRadius: 0, py: 0 }}>
          {banner}
        </Alert>
      )}
      <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
        {showList && (
          <Box
            sx={{
              width: mobile ? '100%' : { xs: 320, lg: 360, xl: 400 },
              flexShrink: 0,
              borderRight: mobile ? 0 : 1,
              borderColor: 'divider',
              bgcolor: 'background.paper',
              minHeight: 0,
            }}
          >
            <ConversationList
              conversations={shown}
              me={me}
              selectedId={open?._id ?? null}
              search={search}
              onSearch={setSearch}
              onSelect={select}
              totalCount={listed.length}
            />
          </Box>
        )}
        {showWindow && (
          <Box sx={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
            {windowPane}
          </Box>
        )}
      </Box>
      {toast.element}
    </Frame>
  );
}

/** The chat fills the window below the header (the footer is hidden on /chat). */
export function Frame({ children }: { children: ReactNode }) {
  return (
    <Box
      data-testid="chat-page"
      sx={{
        height: { xs: 'calc(100dvh - 61px)', md: 'calc(100dvh - 69px)' },
        minHeight: 420,
        display: 'flex',
        flexDirection: 'column',
        bgcolor: 'background.default',
        overflow: 'hidden',
      }}
    >
      {children}
    </Box>
  );
}
