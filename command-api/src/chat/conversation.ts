import { CHAT_MESSAGES as M, type ChatEvent } from '@pawhaven/contracts';
import { badRequest, forbidden, nameUuid, notFound } from '@pawhaven/platform';

/**
 * A one-to-one conversation, stream `conversation-{conversationId}`, with its messages and receipts inside. Its id
 * comes from its two members (conversationIdFor), so find-or-create is one stream whatever the order or timing of
 * the two starts: the second StartConversation finds it started and records nothing.
 */

export type ConversationCommand =
  | {
      type: 'StartConversation';
      data: {
        conversationId: string;
        starterId: string;
        otherId: string;
        /** The other user exists (the route looked them up). */
        otherExists: boolean;
        adId: string | null;
        now: Date;
      };
    }
  | {
      type: 'SendMessage';
      data: { senderId: string; messageId: string; clientMessageId: string; text: string; now: Date };
    }
  | { type: 'MarkDelivered'; data: { userId: string; upToMessageId: string; now: Date } }
  | { type: 'MarkRead'; data: { userId: string; upToMessageId: string; now: Date } };

type MessageState = { seq: number; senderId: string; messageId: string; text: string; sentAt: string };

export type ConversationState = {
  started: boolean;
  conversationId: string;
  memberIds: string[];
  startedBy: string;
  adId: string | null;
  startedAt: string;
  /** Every message by id, numbered in order (1, 2, …). */
  messages: Record<string, MessageState>;
  /** `${senderId}:${clientMessageId}` → message id: a retried send finds its message. */
  byClientId: Record<string, string>;
  messageCount: number;
  /** Per member: the highest message number received / read (of the other member's messages). */
  delivered: Record<string, number>;
  read: Record<string, number>;
};

const initialConversationState = (): ConversationState => ({
  started: false,
  conversationId: '',
  memberIds: [],
  startedBy: '',
  adId: null,
  startedAt: '',
  messages: {},
  byClientId: {},
  messageCount: 0,
  delivered: {},
  read: {},
});

/** The same id for the same two people, whichever of them starts it (a UUID-shaped SHA-1 of the sorted pair). */
export function conversationIdFor(a: string, b: string): string {
  const [x, y] = [a, b].sort();
  return nameUuid(`pawhaven-conversation:${x}:${y}`);
}

function evolveConversation(state: ConversationState, event: ChatEvent): ConversationState {
  switch (event.type) {
    case 'ConversationStarted': {
      const d = event.data;
      return {
        ...state,
        started: true,
        conversationId: d.conversationId,
        memberIds: [...d.memberIds],
        startedBy: d.startedBy,
        adId: d.adId,
        startedAt: d.startedAt,
      };
    }
    case 'ConversationAboutAd':
      return { ...state, adId: event.data.adId };
    case 'MessageSent': {
      const d = event.data;
      const seq = state.messageCount + 1;
      return {
        ...state,
        messageCount: seq,
        messages: {
          ...state.messages,
          [d.messageId]: {
            seq,
            senderId: d.senderId,
            messageId: d.messageId,
            text: d.text,
            sentAt: d.sentAt,
          },
        },
        byClientId: { ...state.byClientId, [`${d.senderId}:${d.clientMessageId}`]: d.messageId },
      };
    }
    case 'MessagesDelivered': {
      const seq = state.messages[event.data.upToMessageId]?.seq ?? 0;
      const user = event.data.userId;
      return {
        ...state,
        delivered: { ...state.delivered, [user]: Math.max(state.delivered[user] ?? 0, seq) },
      };
    }
    case 'MessagesRead': {
      const seq = state.messages[event.data.upToMessageId]?.seq ?? 0;
      const user = event.data.userId;
      return {
        ...state,
        read: { ...state.read, [user]: Math.max(state.read[user] ?? 0, seq) },
        delivered: { ...state.delivered, [user]: Math.max(state.delivered[user] ?? 0, seq) },
      };
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

const isMember = (state: ConversationState, userId: string) => state.memberIds.includes(userId);

/** The newest message of the other member up to `upToMessageId`: receipts only ever cover what they sent. */
function receiptTarget(state: ConversationState, userId: string, upToMessageId: string): MessageState | null {
  if (!state.started) throw notFound(M.conversationNotFound);
  if (!isMember(state, userId)) throw forbidden(M.notMember);
  const upTo = state.messages[upToMessageId];
  if (!upTo) throw notFound(M.messageNotFound);
  let target: MessageState | null = null;
  for (const m of Object.values(state.messages))
    if (m.senderId !== userId && m.seq <= upTo.seq && (!target || m.seq > target.seq)) target = m;
  return target;
}

function decideConversation(command: ConversationCommand, state: ConversationState): ChatEvent[] {
  switch (command.type) {
    case 'StartConversation': {
      const { conversationId, starterId, otherId, otherExists, adId, now } = command.data;
      if (starterId === otherId) throw badRequest(M.notYourself);
      if (!otherExists) throw notFound(M.userNotFound);
      if (state.started) {
        // Opened again from an ad card: the conversation is now about that ad.
        return adId && adId !== state.adId
          ? [
              {
                type: 'ConversationAboutAd',
                data: { conversationId, adId, by: starterId, at: now.toISOString() },
              },
            ]
          : [];
      }
      return [
        {
          type: 'ConversationStarted',
          data: {
            conversationId,
            memberIds: [starterId, otherId],
            startedBy: starterId,
            adId,
            startedAt: now.toISOString(),
          },
        },
      ];
    }
    case 'SendMessage': {
      const { senderId, messageId, clientMessageId, text, now } = command.data;
      if (!state.started) throw notFound(M.conversationNotFound);
      if (!isMember(state, senderId)) throw forbidden(M.notMember);
      // A retry of a send that was recorded: the same message, nothing new.
      if (state.byClientId[`${senderId}:${clientMessageId}`]) return [];
      const trimmed = text.trim();
      if (trimmed === '') throw badRequest(M.textRequired);
      return [
        {
          type: 'MessageSent',
          data: {
            conversationId: state.conversationId,
            messageId,
            senderId,
            recipientId: state.memberIds.find((id) => id !== senderId)!,
            text: trimmed,
            clientMessageId,
            sentAt: now.toISOString(),
          },
        },
      ];
    }
    case 'MarkDelivered': {
      const { userId, upToMessageId, now } = command.data;
      const target = receiptTarget(state, userId, upToMessageId);
      if (!target || target.seq <= (state.delivered[userId] ?? 0)) return [];
      return [
        {
          type: 'MessagesDelivered',
          data: {
            conversationId: state.conversationId,
            userId,
            upToMessageId: target.messageId,
            at: now.toISOString(),
          },
        },
      ];
    }
    case 'MarkRead': {
      const { userId, upToMessageId, now } = command.data;
      const target = receiptTarget(state, userId, upToMessageId);
      if (!target || target.seq <= (state.read[userId] ?? 0)) return [];
      return [
        {
          type: 'MessagesRead',
          data: {
            conversationId: state.conversationId,
            userId,
            upToMessageId: target.messageId,
            at: now.toISOString(),
          },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const conversationDecider = {
  initialState: initialConversationState,
  evolve: evolveConversation,
  decide: decideConversation,
};

/** The message a send recorded (or, for a retry, recorded before). */
export const sentMessage = (state: ConversationState, senderId: string, clientMessageId: string) => {
  const id = state.byClientId[`${senderId}:${clientMessageId}`];
  return id ? (state.messages[id] ?? null) : null;
};
