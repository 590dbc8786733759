import type { Knex } from 'knex';
import { CHAT_EVENT_TYPES, type ChatEvent } from '@pawhaven/contracts';
import { defineProjection, type Notices } from '@pawhaven/platform';

/** Rows as `apply` leaves them, every column included (defaults from migration 0130). */
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
};

/**
 * A conversation in the fold, with everything that leaves with it. Its messages are numbered 1, 2, … in order
 * (`messages[i].seq === i + 1`); `seqsBySender` lists each sender's numbers in order, so an unread count is a
 * subtraction and a binary search rather than a count over the conversation.
 */
type FoldedConversation = {
  row: ConversationRow;
  members: Map<string, MemberRow>;
  messages: MessageRow[];
  seqsBySender: Map<string, number[]>;
};

/** How many of the ascending `seqs` are above `seq`. */
function countAbove(seqs: readonly number[], seq: number): number {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seqs[mid]! > seq) hi = mid;
    else lo = mid + 1;
  }
  return seqs.length - lo;
}

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
 * a 'conversation-removed' notice names each (the realtime gateway pushes it to the other member).
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
  fold: () => {
    const conversations = new Map<string, FoldedConversation>();
    /** Every message by id: receipts name theirs without its conversation (`seqOf`). */
    const messages = new Map<string, MessageRow>();
    /** User id → the conversations they are a member of, for UserDeleted. */
    const conversationsOf = new Map<string, Set<string>>();

    const addMember = (c: FoldedConversation, userId: string, otherId: string) => {
      if (c.members.has(userId)) return;
      const conversationId = c.row.id;
      c.members.set(userId, {
        user_id: userId,
        conversation_id: conversationId,
        other_id: otherId,
        delivered_seq: 0,
        read_seq: 0,
        unread_count: 0,
      });
      const ids = conversationsOf.get(userId);
      if (ids) ids.add(conversationId);
      else conversationsOf.set(userId, new Set<string>().add(conversationId));
    };

    const forgetUser = (userId: string) => {
      for (const id of [...(conversationsOf.get(userId) ?? [])]) {
        const c = conversations.get(id)!;
        conversations.delete(id);
        for (const m of c.messages) messages.delete(m.id);
        for (const member of c.members.values()) {
          const ids = conversationsOf.get(member.user_id)!;
          ids.delete(id);
          if (ids.size === 0) conversationsOf.delete(member.user_id);
        }
      }
    };

    return {
      apply(recorded) {
        if (recorded.type === 'UserDeleted') {
          forgetUser((recorded.data as { userId: string }).userId);
          return;
        }
        const event = recorded as unknown as ChatEvent;
        switch (event.type) {
          case 'ConversationStarted': {
            const d = event.data;
            const [a, b] = d.memberIds;
            let c = conversations.get(d.conversationId);
            if (!c) {
              c = {
                row: {
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
                },
                members: new Map(),
                messages: [],
                seqsBySender: new Map(),
              };
              conversations.set(d.conversationId, c);
            }
            // The members are inserted even when the conversation was there already, each unless present.
            addMember(c, a, b);
            addMember(c, b, a);
            return;
          }
          case 'ConversationAboutAd': {
            const c = conversations.get(event.data.conversationId);
            if (c) c.row.ad_id = event.data.adId;
            return;
          }
          case 'MessageSent': {
            const d = event.data;
            const c = conversations.get(d.conversationId);
            if (!c) return;
            // `apply` fails on this one (chat_messages' primary key), and so does the rebuild.
            if (messages.has(d.messageId))
              throw new Error(`chat: message ${d.messageId} is in the log twice`);
            const row = c.row;
            const seq = ++row.message_count;
            row.updated_at = d.sentAt;
            row.last_message_id = d.messageId;
            row.last_text = d.text;
            row.last_sender_id = d.senderId;
            row.last_at = d.sentAt;
            const message: MessageRow = {
              id: d.messageId,
              conversation_id: d.conversationId,
              seq,
              sender_id: d.senderId,
              recipient_id: d.recipientId,
              text: d.text,
              client_message_id: d.clientMessageId,
              created_at: d.sentAt,
            };
            c.messages.push(message);
            messages.set(d.messageId, message);
            const seqs = c.seqsBySender.get(d.senderId);
            if (seqs) seqs.push(seq);
            else c.seqsBySender.set(d.senderId, [seq]);
            const recipient = c.members.get(d.recipientId);
            if (recipient) recipient.unread_count += 1;
            return;
          }
          case 'MessagesDelivered':
          case 'MessagesRead': {
            const d = event.data;
            // The message may be of another conversation: `seqOf` looks it up by id alone.
            const seq = messages.get(d.upToMessageId)?.seq;
            if (seq === undefined) return;
            const c = conversations.get(d.conversationId);
            const member = c?.members.get(d.userId);
            if (!c || !member) return;
            member.delivered_seq = Math.max(member.delivered_seq, seq);
            if (event.type === 'MessagesRead') member.read_seq = Math.max(member.read_seq, seq);
            // The other member's messages after what is read: all after it, less the member's own.
            const after = Math.max(0, c.messages.length - member.read_seq);
            const own = c.seqsBySender.get(member.user_id);
            member.unread_count = after - (own ? countAbove(own, member.read_seq) : 0);
            return;
          }
          default: {
            const _exhaustive: never = event;
            return;
          }
        }
      },
      rows: () => ({
        conversations: {
          *[Symbol.iterator]() {
            for (const c of conversations.values()) yield c.row;
          },
        },
        conversation_members: {
          *[Symbol.iterator]() {
            for (const c of conversations.values()) yield* c.members.values();
          },
        },
        chat_messages: { [Symbol.iterator]: () => messages.values() },
      }),
    };
  },
});
