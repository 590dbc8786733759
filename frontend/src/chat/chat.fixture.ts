import type { ConversationDto, MessageDto } from '@pawhaven/contracts';
import type { ChatMessage } from './merge';

/** Conversations, messages and pages as the chat's unit tests build them. */

export const ME = 'me-0000000001';
export const AMNA = 'amna-00000001';
export const BILAL = 'bilal-0000001';

const user = (id: string, username: string) => ({
  _id: id,
  id,
  username,
  profileImage: null,
  isVeterinarian: false,
});

export const conv = (
  id: string,
  other: string,
  updatedAt: string,
  opts: Partial<ConversationDto> & { last?: string | null } = {},
): ConversationDto => {
  const { last = 'hello', ...rest } = opts;
  return {
    _id: id,
    id,
    members: [ME, other],
    participants: [user(ME, 'me'), user(other, other === AMNA ? 'Amna' : 'Bilal')],
    startedBy: ME,
    lastMessage: last === null ? null : { text: last, senderId: other, createdAt: updatedAt },
    updatedAt,
    createdAt: '2026-01-01T00:00:00Z',
    unreadCount: 0,
    ad: null,
    ...rest,
  };
};

export const msg = (
  id: string,
  senderId: string,
  at: string,
  extra: Partial<ChatMessage> = {},
): ChatMessage => ({
  _id: id,
  id,
  conversationId: 'c1',
  senderId,
  text: `text ${id}`,
  clientMessageId: `client-${id}`,
  createdAt: at,
  status: 'sent',
  ...extra,
});

export const page = (data: MessageDto[], pageNo = 1, hasMore = false) => ({
  success: true as const,
  data,
  pagination: { page: pageNo, limit: 50, total: data.length, hasMore },
});
