import type { Knex } from 'knex';
import { CHAT_EVENT_TYPES, type ChatEvent } from '@pawhaven/contracts';
import { defineProjection, type Notices } from '@pawhaven/platform';

/** The number of a message in its conversation, or null when the log names a message we never saw. */
async function seqOf(tx: Knex.Transaction, messageId: string): Promise<number | null> {
  const row = await tx('chat_messages').where({ id: messageId }).first<{ seq: number } | undefined>('seq');
  return row?.seq ?? null;
}

/** A member's receipts moved to `seq`: unread is what the other member sent after what they have read. */
async function moveReceipts(
  tx: Knex.Transaction,
  conversationId: string,
  userId: string,
  seq: number,
  read: boolean,
) {
  await tx.raw(
    `UPDATE conversation_members m SET
       delivered_seq = greatest(m.delivered_seq, ?),
       read_seq = CASE WHEN ? THEN greatest(m.read_seq, ?) ELSE m.read_seq END,
       unread_count = (SELECT count(*) FROM chat_messages c
                       WHERE c.conversation_id = m.conversation_id AND c.sender_id <> m.user_id
                         AND c.seq > CASE WHEN ? THEN greatest(m.read_seq, ?) ELSE m.read_seq END)
     WHERE m.conversation_id = ? AND m.user_id = ?`,
    [seq, read, seq, read, seq, conversationId, userId],
  );
}

/**
 * A deleted user's conversations vanish for both members, with every message in them (a conversation is the two of
 * them: half of it would show replies to nobody). The other member's list and unread counts lose them with the rows;
 * a 'conversation-removed' notice names each (the realtime gateway may push it; today it ignores the kind).
 */
async function forgetUser(tx: Knex.Transaction, userId: string, notices: Notices) {
  const members: { conversation_id: string; other_id: string }[] = await tx('conversation_members')
    .where({ user_id: userId })
    .select('conversation_id', 'other_id');
  const ids = members.map((m) => m.conversation_id);
  if (ids.length === 0) return;
  await tx('chat_messages').whereIn('conversation_id', ids).delete();
  await tx('conversation_members').whereIn('conversation_id', ids).delete();
  await tx('conversations').whereIn('id', ids).delete();
  for (const m of members)
    notices.push({ kind: 'conversation-removed', conversationId: m.conversation_id, userId: m.other_id });
}

/**
 * Conversations, their members' receipts and unread counts, and messages. A message is numbered by its order in
 * the conversation (`seq`); its ticks follow from the recipient's `delivered_seq` / `read_seq`. Every change sends
 * a notice so the socket gateway pushes the message, or the new ticks, the moment they are committed.
 */
export const chatProjection = defineProjection({
  name: 'chat',
  tables: ['conversations', 'conversation_members', 'chat_messages'],
  handles: [...CHAT_EVENT_TYPES, 'UserDeleted'],
  async apply(tx, recorded, notices: Notices) {
    if (recorded.type === 'UserDeleted') {
      await forgetUser(tx, (recorded.data as { userId: string }).userId, notices);
      return;
    }
    const event = { type: recorded.type, data: recorded.data } as ChatEvent;
    switch (event.type) {
      case 'ConversationStarted': {
        const d = event.data;
        const [a, b] = d.memberIds;
        await tx('conversations')
          .insert({
            id: d.conversationId,
            started_by: d.startedBy,
            ad_id: d.adId,
            created_at: d.startedAt,
            updated_at: d.startedAt,
          })
          .onConflict('id')
          .ignore();
        await tx('conversation_members')
          .insert([
            { user_id: a, conversation_id: d.conversationId, other_id: b },
            { user_id: b, conversation_id: d.conversationId, other_id: a },
          ])
          .onConflict(['user_id', 'conversation_id'])
          .ignore();
        notices.push({ kind: 'conversation', conversationId: d.conversationId, userId: b, otherId: a });
        return;
      }
      case 'ConversationAboutAd':
        await tx('conversations').where({ id: event.data.conversationId }).update({ ad_id: event.data.adId });
        return;
      case 'MessageSent': {
        const d = event.data;
        const seq = await tx('conversations')
          .where({ id: d.conversationId })
          .update({
            message_count: tx.raw('message_count + 1'),
            updated_at: d.sentAt,
            last_message_id: d.messageId,
            last_text: d.text,
            last_sender_id: d.senderId,
            last_at: d.sentAt,
          })
          .returning<{ message_count: number }[]>('message_count');
        const n = seq[0]?.message_count;
        if (n === undefined) return; // a conversation the log never started: nothing to attach it to
        await tx('chat_messages').insert({
          id: d.messageId,
          conversation_id: d.conversationId,
          seq: n,
          sender_id: d.senderId,
          recipient_id: d.recipientId,
          text: d.text,
          client_message_id: d.clientMessageId,
          created_at: d.sentAt,
        });
        await tx('conversation_members')
          .where({ conversation_id: d.conversationId, user_id: d.recipientId })
          .increment('unread_count', 1);
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
        const seq = await seqOf(tx, d.upToMessageId);
        if (seq === null) return;
        const read = event.type === 'MessagesRead';
        await moveReceipts(tx, d.conversationId, d.userId, seq, read);
        const other = await tx('conversation_members')
          .where({ conversation_id: d.conversationId, user_id: d.userId })
          .first<{ other_id: string } | undefined>('other_id');
        notices.push({
          kind: 'receipt',
          conversationId: d.conversationId,
          userId: d.userId,
          senderId: other?.other_id ?? null,
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
