/**
 * Events of a one-to-one conversation (stream `conversation-{conversationId}`), version 1. The conversation id is
 * derived from its two members (conversationIdFor), so two people opening a chat with each other at the same moment
 * land on one stream and the second start is simply a no-op. Messages and their receipts live in the same stream:
 * a retried send is recognised by the sender's client id, and receipts name the message they reach up to.
 */
export type ChatEvent =
  | {
      type: 'ConversationStarted';
      data: {
        conversationId: string;
        /** Exactly two distinct user ids, in the order the conversation was started (starter first). */
        memberIds: [string, string];
        startedBy: string;
        /** The adoption ad the chat was opened from, if any. */
        adId: string | null;
        startedAt: string;
      };
    }
  | {
      /** The chat was opened again from an adoption card: the conversation is now about that ad. */
      type: 'ConversationAboutAd';
      data: { conversationId: string; adId: string; by: string; at: string };
    }
  | {
      type: 'MessageSent';
      data: {
        conversationId: string;
        messageId: string;
        senderId: string;
        recipientId: string;
        text: string;
        /** The sender's own id for the message: a retried send with the same id is the same message. */
        clientMessageId: string;
        sentAt: string;
      };
    }
  | {
      /** The recipient's client has received every message up to and including `upToMessageId`. */
      type: 'MessagesDelivered';
      data: { conversationId: string; userId: string; upToMessageId: string; at: string };
    }
  | {
      /** The recipient has seen every message up to and including `upToMessageId` (opening the conversation). */
      type: 'MessagesRead';
      data: { conversationId: string; userId: string; upToMessageId: string; at: string };
    };

export type ChatEventType = ChatEvent['type'];

export const CHAT_EVENT_TYPES = [
  'ConversationStarted',
  'ConversationAboutAd',
  'MessageSent',
  'MessagesDelivered',
  'MessagesRead',
] as const satisfies readonly ChatEventType[];

export const conversationStream = (conversationId: string) => `conversation-${conversationId}`;
export const conversationIdOfStream = (streamId: string) => streamId.slice('conversation-'.length);
