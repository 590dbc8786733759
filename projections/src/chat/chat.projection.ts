import { CHAT_EVENT_TYPES, type ChatEvent, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel, type RowTable } from '@pawhaven/platform';

/** Rows with every column (defaults from the chat migrations). */
type ConversationRow = {
  id: string;
  started_by: string;
  ad_id: string | null;
  created_at: string;
  updated_at: string;
  last_message_id: string | null;
  last_text: string | null;
  last_sender_id: string | null;
  last_at: string | null;
  message_count: number;
};
type MemberRow = {
  user_id: string;
  conversation_id: string;
  other_id: string;
  delivered_seq: number;
  read_seq: number;
  unread_count: number;
};
type MessageRow = {
  id: string;
  conversation_id: string;
  seq: number;
  sender_id: string;
  recipient_id: string;
  text: string;
  client_message_id: string;
  created_at: string;
  /** The sender's how-many-th message of the conversation this is (1 for their first). */
  sender_count: number;
};

type Handled = ChatEvent | Extract<UserEvent, { type: 'UserDeleted' }>;

/**
 * How many of a conversation's messages numbered 1 … `seq` `userId` sent, read off the message numbered `seq`: its
 * sender sent `sender_count` of them, and the other member the rest (a conversation's messages are its two
 * members', as the command side records them).
 */
function sentUpTo(messages: RowTable<MessageRow>, conversationId: string, userId: string, seq: number) {
  if (seq <= 0) return 0;
  const message = messages.get(conversationId, seq);
  if (!message) return 0;
  return message.sender_id === userId ? message.sender_count : seq - message.sender_count;
}

/**
 * A member's unread count once they have read up to `readSeq`: the other member's messages after it, that is every
 * message after it less the member's own. `count` is the conversation's number of messages.
 */
function unreadAfter(
  messages: RowTable<MessageRow>,
  conversationId: string,
  userId: string,
  readSeq: number,
  count: number,
) {
  if (readSeq >= count) return 0;
  const own =
    sentUpTo(messages, conversationId, userId, count) - sentUpTo(messages, conversationId, userId, readSeq);
  return count - Math.max(readSeq, 0) - own;
}

/**
 * Conversations, their members' receipts and unread counts, and messages. A message is numbered by its order in
 * the conversation (`seq`, from 1: messages are found by conversation and number, and by id); its ticks follow from
 * the recipient's `delivered_seq` / `read_seq`. Every change sends a notice so the socket gateway pushes the
 * message, or the new ticks, the moment they are committed.
 */
export const chatProjection = defineReadModel<{
  conversations: ConversationRow;
  conversation_members: MemberRow;
  chat_messages: MessageRow;
}>({
  name: 'chat',
  tables: {
    conversations: { key: ['id'] },
    conversation_members: { key: ['user_id', 'conversation_id'], lookups: ['user_id', 'conversation_id'] },
    chat_messages: { key: ['conversation_id', 'seq'], lookups: ['id'] },
  },
  handles: [...CHAT_EVENT_TYPES, 'UserDeleted'],
  evolve({ conversations, conversation_members: members, chat_messages: messages }, recorded, notices) {
    const event = recorded as unknown as Handled;
    switch (event.type) {
      case 'UserDeleted': {
        // A deleted user's conversations vanish for both members, with every message in them (a conversation is the
        // two of them: half of it would show replies to nobody). The other member is told of each
        // ('conversation-removed': the realtime gateway pushes it), and loses it from their list and unread counts.
        for (const mine of members.find('user_id', event.data.userId)) {
          const id = mine.conversation_id;
          for (let seq = conversations.get(id)?.message_count ?? 0; seq > 0; seq--) messages.delete(id, seq);
          for (const member of members.find('conversation_id', id)) members.delete(member.user_id, id);
          conversations.delete(id);
          notices.push({ kind: 'conversation-removed', conversationId: id, userId: mine.other_id });
        }
        return;
      }
      case 'ConversationStarted': {
        const d = event.data;
        const [a, b] = d.memberIds;
        if (!conversations.get(d.conversationId))
          conversations.put({
            id: d.conversationId,
            started_by: d.startedBy,
            ad_id: d.adId ?? null,
            created_at: d.startedAt,
            updated_at: d.startedAt,
            last_message_id: null,
            last_text: null,
            last_sender_id: null,
            last_at: null,
            message_count: 0,
          });
        // The members are added even when the conversation was there already, each unless present.
        for (const [userId, otherId] of [
          [a, b],
          [b, a],
        ] as const)
          if (!members.get(userId, d.conversationId))
            members.put({
              user_id: userId,
              conversation_id: d.conversationId,
              other_id: otherId,
              delivered_seq: 0,
              read_seq: 0,
              unread_count: 0,
            });
        notices.push({ kind: 'conversation', conversationId: d.conversationId, userId: b, otherId: a });
        return;
      }
      case 'ConversationAboutAd': {
        const conversation = conversations.get(event.data.conversationId);
        if (conversation) conversations.put({ ...conversation, ad_id: event.data.adId });
        return;
      }
      case 'MessageSent': {
        const d = event.data;
        const conversation = conversations.get(d.conversationId);
        if (!conversation) return; // a conversation the log never started: nothing to attach it to
        // A message id is the message's primary key: a log holding one twice cannot be projected.
        if (messages.find('id', d.messageId).length > 0)
          throw new Error(`chat: message ${d.messageId} is in the log twice`);
        const seq = conversation.message_count + 1;
        conversations.put({
          ...conversation,
          message_count: seq,
          updated_at: d.sentAt,
          last_message_id: d.messageId,
          last_text: d.text,
          last_sender_id: d.senderId,
          last_at: d.sentAt,
        });
        messages.put({
          id: d.messageId,
          conversation_id: d.conversationId,
          seq,
          sender_id: d.senderId,
          recipient_id: d.recipientId,
          text: d.text,
          client_message_id: d.clientMessageId,
          created_at: d.sentAt,
          sender_count: sentUpTo(messages, d.conversationId, d.senderId, seq - 1) + 1,
        });
        const recipient = members.get(d.recipientId, d.conversationId);
        if (recipient) members.put({ ...recipient, unread_count: recipient.unread_count + 1 });
        notices.push({
          kind: 'message',
          conversationId: d.conversationId,
          messageId: d.messageId,
          senderId: d.senderId,
          recipientId: d.recipientId,
        });
        return;
      }
      case 'MessagesDelivered':
      case 'MessagesRead': {
        const d = event.data;
        // The message is found by its id alone: one of another conversation moves the receipts to its number.
        const [upTo] = messages.find('id', d.upToMessageId);
        if (!upTo) return;
        const read = event.type === 'MessagesRead';
        const member = members.get(d.userId, d.conversationId);
        if (member) {
          const readSeq = read ? Math.max(member.read_seq, upTo.seq) : member.read_seq;
          const count = conversations.get(d.conversationId)?.message_count ?? 0;
          members.put({
            ...member,
            delivered_seq: Math.max(member.delivered_seq, upTo.seq),
            read_seq: readSeq,
            unread_count: unreadAfter(messages, d.conversationId, d.userId, readSeq, count),
          });
        }
        notices.push({
          kind: 'receipt',
          conversationId: d.conversationId,
          userId: d.userId,
          senderId: member?.other_id ?? null,
          upToMessageId: d.upToMessageId,
          status: read ? 'read' : 'delivered',
        });
        return;
      }
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
  },
});
