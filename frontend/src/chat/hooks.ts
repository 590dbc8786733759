import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  CHAT_LIMITS,
  CHAT_MESSAGES,
  type ConversationDto,
  type MessageDto,
  type SocketEvents,
} from '@pawhaven/contracts';
import { emitWithAck, useRealtime, useSocketEvent } from '../realtime';
import { ApiError } from '../shared/api';
import {
  chatApi,
  chatKeys,
  findConversationQuery,
  type MessagesData,
  type SendAck,
  type SendBody,
} from './api';
import { upsertConversation, withIncomingMessage, withUnread, unreadConversations } from './conversations';
import { insertIntoPages, newClientMessageId, optimisticMessage, type ChatMessage } from './merge';
import { parseMessage } from './parse';
import { applyReceiptToPages, markOthersRead, readReceiptTarget } from './receipts';

/** How often lists are refreshed while the socket is down (the 'polling' state). */
export const POLL_CONVERSATIONS_MS = 10_000;
export const POLL_MESSAGES_MS = 5_000;
/** `userTyping` is emitted at most once a second while typing. */
export const TYPING_THROTTLE_MS = 1000;

// ---------- page facts ----------

const subscribeVisibility = (cb: () => void) => {
  document.addEventListener('visibilitychange', cb);
  return () => document.removeEventListener('visibilitychange', cb);
};
const isVisible = () => document.visibilityState === 'visible';

/** Is the tab visible? Read receipts wait for it. */
export const usePageVisible = () => useSyncExternalStore(subscribeVisibility, isVisible, () => true);

/** One pane at a time at 1024 px and below. */
export const useIsMobile = () =>
  useMediaQuery(`(max-width:${CHAT_LIMITS.mobileBreakpointPx}px)`, { noSsr: true });

// ---------- cache ----------

export function patchConversations(
  qc: QueryClient,
  me: string,
  fn: (list: ConversationDto[]) => ConversationDto[],
) {
  qc.setQueryData<ConversationDto[]>(chatKeys.conversations(me), (list) => (list ? fn(list) : list));
}

export function patchMessagePages(
  qc: QueryClient,
  conversationId: string,
  fn: (pages: MessagesData['pages']) => MessagesData['pages'],
) {
  qc.setQueryData<MessagesData>(chatKeys.messages(conversationId), (d) => {
    if (!d) return d;
    const pages = fn(d.pages);
    return pages === d.pages ? d : { ...d, pages };
  });
}

/** Fetches the newest page again and merges it in (polling, reconnection), keeping older pages and optimism. */
export async function refreshNewest(qc: QueryClient, conversationId: string) {
  if (!qc.getQueryData(chatKeys.messages(conversationId))) return;
  try {
    const page = await chatApi.messages(conversationId, 1);
    patchMessagePages(qc, conversationId, (pages) => insertIntoPages(pages, page.data));
  } catch (err) {
    console.warn('Could not refresh the messages', err);
  }
}

// ---------- queries ----------

const conversationsQuery = (me: string) =>
  queryOptions({
    queryKey: chatKeys.conversations(me),
    queryFn: ({ signal }) => chatApi.conversations(me, signal),
    // At most 10 s of 'Loading your messages...': a refusal shows the error state, a lost answer an empty list.
    retry: false,
    staleTime: 30_000,
  });

/**
 * The signed-in user's conversations (one cache for the chat page and the header's Inbox badge), kept live by
 * `useConversationListLive`, which is mounted once for the whole app.
 */
export function useConversations(me: string) {
  return useQuery(conversationsQuery(me));
}

/** GET /api/health; a failure shows 'Cannot connect to chat server'. */
export function useChatHealth() {
  return useQuery({
    queryKey: chatKeys.health(),
    queryFn: ({ signal }) => chatApi.health(signal),
    retry: false,
    staleTime: 60_000,
  });
}

/**
 * The conversation with the recipient of the URL: looked up first, started (POST) when there is
 * none. Opened from an adoption ad (`adId`) it is started or re-pointed at that ad.
 */
export function useConversationWith(me: string, recipientId: string | null, adId: string | null) {
  const qc = useQueryClient();
  const enabled = Boolean(recipientId) && recipientId !== me;
  return useQuery({
    queryKey: chatKeys.withUser(me, recipientId ?? '', adId),
    queryFn: async () => {
      // The lookup the Message button may have made a moment ago is not asked again.
      const found = await qc.fetchQuery(findConversationQuery(me, recipientId!));
      if (found && (!adId || found.ad?._id === adId)) return found;
      const started = await chatApi.start(me, recipientId!, adId);
      qc.setQueryData(chatKeys.find(me, recipientId!), started);
      return started;
    },
    enabled,
    retry: false,
    staleTime: 60_000,
    refetchOnMount: false,
  });
}

/** The messages of a conversation, newest page first; 'Load older messages' asks for the next page. */
export function useMessages(conversationId: string | null) {
  return useInfiniteQuery({
    queryKey: chatKeys.messages(conversationId ?? ''),
    queryFn: ({ pageParam, signal }) => chatApi.messages(conversationId!, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.page + 1 : undefined),
    enabled: Boolean(conversationId),
    // Kept fresh by the socket (or polling): a refetch would drop what arrived meanwhile.
    staleTime: Infinity,
    retry: 1,
  });
}

// ---------- typing ----------

/** Conversations where the other member typed in the last 3 seconds. */
export function useTypingIn(me: string) {
  const [typing, setTyping] = useState<Record<string, true>>({});
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const stop = useCallback((conversationId: string) => {
    clearTimeout(timers.current.get(conversationId));
    timers.current.delete(conversationId);
    setTyping((t) => {
      if (!t[conversationId]) return t;
      const next = { ...t };
      delete next[conversationId];
      return next;
    });
  }, []);

  useSocketEvent('userTyping', ({ userId, conversationId }) => {
    if (!conversationId || userId === me) return;
    clearTimeout(timers.current.get(conversationId));
    timers.current.set(
      conversationId,
      setTimeout(() => stop(conversationId), CHAT_LIMITS.typingIndicatorMs),
    );
    setTyping((t) => (t[conversationId] ? t : { ...t, [conversationId]: true }));
  });

  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const t of all.values()) clearTimeout(t);
      all.clear();
    };
  }, []);

  return { typing, stop };
}

/** Emits `userTyping` for the open conversation, at most once a second. */
export function useTypingEmitter(conversationId: string | null) {
  const { socket, status } = useRealtime();
  const last = useRef(0);
  return useCallback(() => {
    if (!conversationId || !socket || status !== 'realtime') return;
    const now = Date.now();
    if (now - last.current < TYPING_THROTTLE_MS) return;
    last.current = now;
    socket.emit('userTyping', { conversationId });
  }, [conversationId, socket, status]);
}

// ---------- presence ----------

/** Is the other member online? Asked when the conversation opens, then followed by `presence` pushes. */
export function usePresence(userId: string | null) {
  const { status } = useRealtime();
  const [online, setOnline] = useState<Record<string, boolean>>({});
  useSocketEvent('presence', (p) => {
    if (p?.userId) setOnline((o) => (o[p.userId] === p.online ? o : { ...o, [p.userId]: p.online }));
  });
  useEffect(() => {
    if (!userId || status !== 'realtime') return;
    let live = true;
    emitWithAck<{ online?: boolean }>('presence', userId).then(
      (ack) => live && setOnline((o) => ({ ...o, [userId]: Boolean(ack?.online) })),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [userId, status]);
  return userId ? online[userId] === true : false;
}

// ---------- sending ----------

type SendFailure = { status: number | null; message: string };

class SendRefused extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Optimistic sending: a temporary message shows at once, the server's message replaces it on success,
 * it is removed on failure. Through the socket while it is connected (the ack carries the message), else (or when
 * the ack does not come) POST /api/messages with the same client id, so a retry never doubles the message.
 */
export function useSendMessage(me: string, onFailure: (failure: SendFailure) => void) {
  const qc = useQueryClient();
  const { status } = useRealtime();
  const statusRef = useRef(status);
  statusRef.current = status;
  const [pending, setPending] = useState<Record<string, ChatMessage[]>>({});

  const dropPending = useCallback((temp: ChatMessage) => {
    setPending((p) => ({
      ...p,
      [temp.conversationId]: (p[temp.conversationId] ?? []).filter((m) => m._id !== temp._id),
    }));
  }, []);

  const send = useCallback(
    async (conversation: ConversationDto, text: string): Promise<boolean> => {
      const clientMessageId = newClientMessageId();
      const temp = optimisticMessage(conversation._id, me, text, clientMessageId);
      setPending((p) => ({ ...p, [conversation._id]: [...(p[conversation._id] ?? []), temp] }));
      const body: SendBody = {
        conversationId: conversation._id,
        senderId: me,
        text,
        clientMessageId,
        timestamp: temp.createdAt,
      };
      try {
        let message: MessageDto | null = null;
        if (statusRef.current === 'realtime') {
          try {
            const ack = await emitWithAck<SendAck>('sendMessage', body);
            if (ack?.ok) message = parseMessage(ack.message);
            else if (ack && ack.status && ack.status < 500)
              throw new SendRefused(ack.status, ack.message || CHAT_MESSAGES.sendFailed);
          } catch (err) {
            if (err instanceof SendRefused) throw err;
            // No answer on the socket: the same message (same client id) over HTTP.
          }
        }
        message ??= await chatApi.send(body);
        commitMessage(qc, me, message, conversation);
        return true;
      } catch (err) {
        console.error('Failed to send the message', err);
        onFailure(
          err instanceof SendRefused
            ? { status: err.status, message: err.message }
            : err instanceof ApiError
              ? {
                  status: err.status || null,
                  message:
                    err.kind === 'http'
                      ? (err.serverMessage ?? CHAT_MESSAGES.sendFailed)
                      : CHAT_MESSAGES.sendFailed,
                }
              : { status: null, message: CHAT_MESSAGES.sendFailed },
        );
        return false;
      } finally {
        dropPending(temp);
      }
    },
    [me, qc, onFailure, dropPending],
  );

  return { pending, send };
}

/** The server's copy of my message: into the messages cache and to the top of the list. */
function commitMessage(qc: QueryClient, me: string, message: MessageDto, conversation: ConversationDto) {
  patchMessagePages(qc, message.conversationId, (pages) => insertIntoPages(pages, [message]));
  let known = true;
  patchConversations(qc, me, (list) => {
    const r = withIncomingMessage(list, message, me, { seen: true, fallback: conversation });
    known = r.known;
    return r.list;
  });
  if (!known) void qc.invalidateQueries({ queryKey: chatKeys.conversations(me) });
}

/** How many conversations have unread messages, from the list `useConversationListLive` keeps (it asks nothing). */
export function useUnreadConversations(me: string | null) {
  const { data } = useQuery({
    ...conversationsQuery(me ?? ''),
    enabled: false,
    select: (list) => unreadConversations(list, me),
  });
  return me ? (data ?? 0) : 0;
}

// ---------- pushes and receipts ----------

type OpenFacts = { conversation: ConversationDto | null; visible: boolean };

/** The conversation the chat page shows, and whether its tab is visible: a message there is read, not unread. */
const openNow: { current: OpenFacts } = { current: { conversation: null, visible: false } };

/**
 * The conversation list, live, for the whole app (mounted once, by the header's Inbox): every page shows the
 * unread conversations and /chat opens on a current list.
 * - `getMessage` puts the message into its conversation's entry and moves it to the top; the other member's message
 *   counts as unread unless its conversation is open in a visible tab; an unknown conversation reloads the list;
 * - `messagesStatus` of mine ('read' in another tab) clears that conversation's unread count;
 * - `conversationRemoved` (the other member's account was deleted) drops it;
 * - while the socket is down (status 'polling' or 'offline') the list is read every 10 s, and once it is back, again.
 */
export function useConversationListLive(me: string | null) {
  const qc = useQueryClient();
  const { status } = useRealtime();
  useQuery({
    ...conversationsQuery(me ?? ''),
    enabled: Boolean(me),
    refetchInterval: status === 'realtime' ? false : POLL_CONVERSATIONS_MS,
  });

  useSocketEvent('getMessage', (raw: SocketEvents['getMessage']) => {
    const message = me ? parseMessage(raw) : null;
    if (!me || !message) return;
    const { conversation, visible } = openNow.current;
    const isOpen = conversation?._id === message.conversationId;
    let known = true;
    patchConversations(qc, me, (list) => {
      const r = withIncomingMessage(list, message, me, {
        seen: message.senderId === me || (isOpen && visible),
        fallback: isOpen ? conversation : null,
      });
      known = r.known;
      return r.list;
    });
    if (!known || !qc.getQueryData(chatKeys.conversations(me)))
      void qc.invalidateQueries({ queryKey: chatKeys.conversations(me) });
  });

  useSocketEvent('messagesStatus', (receipt) => {
    // My other tab read this conversation.
    if (me && receipt?.conversationId && receipt.userId === me && receipt.status === 'read')
      patchConversations(qc, me, (l) => withUnread(l, receipt.conversationId, 0));
  });

  useSocketEvent('conversationRemoved', (removed) => {
    if (me && removed?.conversationId)
      patchConversations(qc, me, (list) => list.filter((c) => c._id !== removed.conversationId));
  });

  // Back on the socket after a gap: what it did not bring meanwhile.
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (me && status === 'realtime' && was !== 'realtime')
      void qc.invalidateQueries({ queryKey: chatKeys.conversations(me) });
  }, [status, qc, me]);
}

/**
 * The chat page's side of the socket's pushes (the list's side is `useConversationListLive`): a message
 * goes into its conversation's cached pages, stops the typing indicator and is receipted as delivered when its
 * conversation is not being looked at; receipts move my ticks. On reconnection, what was missed is fetched.
 */
export function useChatPushes(me: string, open: OpenFacts, stopTyping: (conversationId: string) => void) {
  const qc = useQueryClient();
  const { status } = useRealtime();
  const openRef = useRef(open);
  openRef.current = open;
  useLayoutEffect(() => {
    openNow.current = open;
  });
  useEffect(
    () => () => {
      openNow.current = { conversation: null, visible: false };
    },
    [],
  );

  useSocketEvent('getMessage', (raw: SocketEvents['getMessage']) => {
    const message = parseMessage(raw);
    if (!message) return;
    const { conversation, visible } = openRef.current;
    const isOpen = conversation?._id === message.conversationId;
    patchMessagePages(qc, message.conversationId, (pages) => insertIntoPages(pages, [message]));
    if (message.senderId !== me) {
      stopTyping(message.conversationId);
      // Looked at now: the read receipt follows from the open window; otherwise it has at least arrived.
      if (!(isOpen && visible))
        chatApi
          .delivered(message.conversationId, message._id)
          .catch((err) => console.warn('Could not send the delivery receipt', err));
    }
  });

  useSocketEvent('messagesStatus', (receipt) => {
    if (!receipt?.conversationId || receipt.userId === me) return;
    patchMessagePages(qc, receipt.conversationId, (pages) => applyReceiptToPages(pages, receipt, me));
  });

  // The other member's account was deleted: its messages are gone for me too (the list drops it by itself).
  useSocketEvent('conversationRemoved', (removed) => {
    if (!removed?.conversationId) return;
    qc.removeQueries({ queryKey: chatKeys.messages(removed.conversationId) });
    qc.removeQueries({ queryKey: ['chat', 'find', me] });
    if (openRef.current.conversation?._id === removed.conversationId)
      void qc.invalidateQueries({ queryKey: ['chat', 'with', me] });
  });

  // Back on the socket after a gap (or polling meanwhile): fetch what the open conversation missed.
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (status === 'realtime' && was !== 'realtime') {
      const id = openRef.current.conversation?._id;
      if (id) void refreshNewest(qc, id);
    }
  }, [status, qc]);

  // While the socket is down the open conversation is polled.
  const openId = open.conversation?._id ?? null;
  useEffect(() => {
    if (status === 'realtime' || !openId) return;
    const timer = setInterval(() => void refreshNewest(qc, openId), POLL_MESSAGES_MS);
    return () => clearInterval(timer);
  }, [status, openId, qc]);
}

/**
 * Read receipts: when a conversation is open in a visible tab, everything the other member sent up to their newest
 * message is read (POST .../read); its unread badge goes to 0.
 */
export function useReadReceipts(
  me: string,
  conversation: ConversationDto | null,
  confirmed: readonly ChatMessage[],
  loaded: boolean,
  visible: boolean,
) {
  const qc = useQueryClient();
  const sent = useRef(new Map<string, string>());
  const id = conversation?._id ?? null;
  const unread = conversation?.unreadCount ?? 0;
  const target = readReceiptTarget(confirmed, me, unread);
  const targetId = target?._id ?? null;

  useEffect(() => {
    if (!id || !loaded || !visible) return;
    if (unread > 0) patchConversations(qc, me, (l) => withUnread(l, id, 0));
    if (!targetId || sent.current.get(id) === targetId) return;
    sent.current.set(id, targetId);
    patchMessagePages(qc, id, (pages) =>
      pages.map((p) => ({ ...p, data: markOthersRead(p.data, me, targetId) })),
    );
    chatApi.read(id, targetId).catch((err) => {
      sent.current.delete(id);
      console.warn('Could not send the read receipt', err);
    });
  }, [id, loaded, visible, targetId, unread, qc, me]);
}

/** Puts a conversation found or started from the URL into the list (it may be new). */
export function useRememberConversation(me: string, conversation: ConversationDto | undefined) {
  const qc = useQueryClient();
  useEffect(() => {
    if (conversation) patchConversations(qc, me, (l) => upsertConversation(l, conversation));
  }, [conversation, qc, me]);
}
