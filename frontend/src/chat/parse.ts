import {
  conversationAnswer,
  messageAnswer,
  type ConversationDto,
  type MessageDto,
} from '@pawhaven/contracts';

/** The server's and the socket's answers read by the contracts' schemas: what does not parse is null. */
export const parseMessage = (raw: unknown): MessageDto | null => messageAnswer.safeParse(raw).data ?? null;

export const parseConversation = (raw: unknown): ConversationDto | null =>
  conversationAnswer.safeParse(raw).data ?? null;
