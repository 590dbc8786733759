import { CHAT_LIMITS, type ConversationDto, type MessageDto, type MessagePage } from '@pawhaven/contracts';
import { queryOptions, type InfiniteData } from '@tanstack/react-query';
import { ApiError, api } from '../shared/api';
import { parseConversation, parseMessage } from './parse';

/** The chat's HTTP calls. Every command answer carries `position` (the client sends it back on reads). */

const enc = encodeURIComponent;

export type SendBody = {
  conversationId: string;
  senderId: string;
  text: string;
  clientMessageId: string;
  timestamp: string;
};

/** The socket's answer to `sendMessage`. */
export type SendAck = { ok: true; message: MessageDto } | { ok: false; status?: number; message?: string };

export type MessagesData = InfiniteData<MessagePage, number>;

const listOf = (raw: unknown): ConversationDto[] => {
  const data = (raw as { data?: unknown })?.data ?? raw;
  return Array.isArray(data)
    ? data.map(parseConversation).filter((c): c is ConversationDto => c !== null)
    : [];
};

const oneOf = (raw: unknown): ConversationDto | null =>
  parseConversation((raw as { data?: unknown })?.data ?? raw);

function messagePageOf(raw: unknown, page: number, limit: number): MessagePage {
  const body = raw as Partial<MessagePage> | unknown[] | null;
  const list = Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : [];
  const data = list.map(parseMessage).filter((m): m is MessageDto => m !== null);
  const pagination = !Array.isArray(body) ? body?.pagination : undefined;
  return {
    success: true,
    data,
    pagination: {
      page: pagination?.page ?? page,
      limit: pagination?.limit ?? limit,
      total: pagination?.total ?? data.length,
      hasMore: Boolean(pagination?.hasMore),
    },
  };
}

export const chatApi = {
  health: (signal?: AbortSignal) =>
    api.get('/api/health', { auth: false, retry: false, timeoutMs: CHAT_LIMITS.healthTimeoutMs, signal }),

  conversations: async (userId: string, signal?: AbortSignal) =>
    listOf(
      await api.get(`/api/conversations/${enc(userId)}`, { timeoutMs: CHAT_LIMITS.listTimeoutMs, signal }),
    ),

  /** The conversation of the two users, or null (404) when they have none. */
  find: async (firstUserId: string, secondUserId: string, signal?: AbortSignal) => {
    try {
      return oneOf(
        await api.get(`/api/conversations/find/${enc(firstUserId)}/${enc(secondUserId)}`, { signal }),
      );
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },

  /** Find-or-create; with `adId` the conversation is (now) about that ad. */
  start: async (senderId: string, receiverId: string, adId: string | null) => {
    const res = await api.post('/api/conversations', {
      senderId,
      receiverId,
      ...(adId ? { adId } : {}),
    });
    const conversation = oneOf(res);
    if (!conversation) throw new Error('The server did not return the conversation');
    return conversation;
  },

  messages: async (conversationId: string, page: number, signal?: AbortSignal) => {
    const limit = CHAT_LIMITS.messagesPageDefault;
    const raw = await api.get(`/api/messages/${enc(conversationId)}?page=${page}&limit=${limit}`, {
      timeoutMs: CHAT_LIMITS.listTimeoutMs,
      signal,
    });
    return messagePageOf(raw, page, limit);
  },

  /** POST /api/messages; the client id doubles as the idempotency key so a retry never sends twice. */
  send: async (body: SendBody) => {
    const res = await api.post('/api/messages', body, { idempotencyKey: body.clientMessageId });
    const message = parseMessage((res as { data?: unknown })?.data ?? res);
    if (!message) throw new Error('The server did not return the message');
    return message;
  },

  read: (conversationId: string, upToMessageId: string) =>
    api.post(`/api/conversations/${enc(conversationId)}/read`, { upToMessageId }),

  delivered: (conversationId: string, upToMessageId: string) =>
    api.post(`/api/conversations/${enc(conversationId)}/delivered`, { upToMessageId }),
};

export const chatKeys = {
  all: ['chat'] as const,
  health: () => ['chat', 'health'] as const,
  conversations: (me: string) => ['chat', 'conversations', me] as const,
  messages: (conversationId: string) => ['chat', 'messages', conversationId] as const,
  /** The lookup of two users' conversation (null: none yet). */
  find: (me: string, other: string) => ['chat', 'find', me, other] as const,
  /** The conversation with a recipient from the URL (found, else started). */
  withUser: (me: string, other: string, adId: string | null) => ['chat', 'with', me, other, adId] as const,
};

/**
 * The one way the frontend asks whether two users have a conversation (GET /api/conversations/find/…): one query key,
 * so the profile's Message button and the chat page it opens share one answer; 404 is the answer "none yet" (null),
 * not a failure, and nothing retries it.
 */
export const findConversationQuery = (me: string, other: string) =>
  queryOptions({
    queryKey: chatKeys.find(me, other),
    queryFn: ({ signal }) => chatApi.find(me, other, signal),
    retry: false,
    staleTime: 60_000,
  });
