import { conversationStream, type ChatEvent } from '@pawhaven/contracts';
import type { RecordedEvent } from '@pawhaven/platform';

/**
 * For the chat read model's tests: a history with the cases a receipt's unread count must get right (receipts
 * going backwards, naming a message of another conversation, an unknown message, sent by a non-member; messages
 * after what is read; a member's deletion; a conversation started again), the events as the log records them and
 * the rows they leave.
 */
export const A = 'user-a';
export const B = 'user-b';
const C = 'user-c';
const X = 'user-x';
/** A and B; A and C; B and C. */
export const AB = 'conv-ab';
export const AC = 'conv-ac';
export const BC = 'conv-bc';

const at = (n: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, n)).toISOString();

type Data<T extends ChatEvent['type']> = Extract<ChatEvent, { type: T }>['data'];

export function chatScenario() {
  const events: RecordedEvent[] = [];
  const record = (type: string, data: Record<string, unknown>) => {
    const position = BigInt(events.length + 1);
    const conversationId = (data.conversationId as string | undefined) ?? 'none';
    events.push({
      eventId: `event-${position}`,
      streamId: conversationStream(conversationId),
      streamRevision: 0n,
      type,
      data,
      metadata: {},
      position,
      transactionId: position,
      createdAt: new Date(at(events.length)),
    });
  };
  const start = (conversationId: string, starter: string, other: string, adId: string | null = null) =>
    record('ConversationStarted', {
      conversationId,
      memberIds: [starter, other],
      startedBy: starter,
      adId,
      startedAt: at(events.length),
    } satisfies Data<'ConversationStarted'>);
  const send = (conversationId: string, messageId: string, from: string, to: string) =>
    record('MessageSent', {
      conversationId,
      messageId,
      senderId: from,
      recipientId: to,
      text: `text of ${messageId}`,
      clientMessageId: `client-${messageId}`,
      sentAt: at(events.length),
    } satisfies Data<'MessageSent'>);
  const receipt = (
    type: 'MessagesDelivered' | 'MessagesRead',
    conversationId: string,
    userId: string,
    upToMessageId: string,
  ) =>
    record(type, {
      conversationId,
      userId,
      upToMessageId,
      at: at(events.length),
    } satisfies Data<'MessagesRead'>);

  start(AB, A, B);
  send(AB, 'ab1', A, B);
  send(AB, 'ab2', B, A);
  send(AB, 'ab3', A, B);
  send(AB, 'ab4', A, B);
  send(AB, 'ab5', B, A);
  start(AC, A, C, 'ad-1');
  send(AC, 'ac1', C, A);
  send(AC, 'ac2', C, A);
  send(AC, 'ac3', A, C);
  send(AC, 'ac4', C, A);
  start(BC, C, B);
  send(BC, 'bc1', C, B);
  // B: delivered up to ab4 (3 of A's unread), read up to ab3 (ab4 left: ab5 is B's own), then backwards (nothing).
  receipt('MessagesDelivered', AB, B, 'ab4');
  receipt('MessagesRead', AB, B, 'ab3');
  receipt('MessagesRead', AB, B, 'ab1');
  // A: read up to ab2 (ab3, ab4 are A's own: ab5 is unread).
  receipt('MessagesRead', AB, A, 'ab2');
  // A sends again: B has ab4 and ab6 unread; a delivery receipt counts again from what B read.
  send(AB, 'ab6', A, B);
  receipt('MessagesDelivered', AB, B, 'ab6');
  // Receipts naming a message of another conversation move to its number: ac4 is number 4, so A has read ab1 … ab4
  // of AB (ab5 stays unread); C delivered up to number 1 in BC by AC's ac1.
  receipt('MessagesRead', AB, A, 'ac4');
  receipt('MessagesDelivered', BC, B, 'ac1');
  // An unknown message, a conversation never started, a receipt by someone not a member, started again: no change.
  receipt('MessagesRead', AB, B, 'unknown');
  send('conv-never', 'lost', A, B);
  receipt('MessagesRead', AB, X, 'ab6');
  start(AB, B, A);
  record('ConversationAboutAd', { conversationId: AB, adId: 'ad-2', by: B, at: at(events.length) });
  record('ConversationAboutAd', { conversationId: 'conv-never', adId: 'ad-3', by: B, at: at(events.length) });
  // C leaves: AC and BC go with their messages; a message to AC after that is lost, then AC is started again.
  record('UserDeleted', { userId: C });
  send(AC, 'late', A, C);
  receipt('MessagesRead', AB, A, 'ac1');
  start(AC, A, C);
  send(AC, 'again1', A, C);
  send(AC, 'again2', C, A);
  send(AC, 'again3', C, A);
  receipt('MessagesRead', AC, A, 'again2');
  return events;
}

const message = (id: string, conversationId: string, seq: number, from: string, to: string, n: number) => ({
  id,
  conversation_id: conversationId,
  seq,
  sender_id: from,
  recipient_id: to,
  text: `text of ${id}`,
  client_message_id: `client-${id}`,
  sender_count: n,
});

/** The rows `chatScenario` leaves (times left out), each table in a fixed order. */
export const chatScenarioRows = {
  conversations: [
    { id: AB, started_by: A, ad_id: 'ad-2', last_message_id: 'ab6', message_count: 6 },
    { id: AC, started_by: A, ad_id: null, last_message_id: 'again3', message_count: 3 },
  ],
  conversation_members: [
    { user_id: A, conversation_id: AB, other_id: B, delivered_seq: 4, read_seq: 4, unread_count: 1 },
    { user_id: A, conversation_id: AC, other_id: C, delivered_seq: 2, read_seq: 2, unread_count: 1 },
    { user_id: B, conversation_id: AB, other_id: A, delivered_seq: 6, read_seq: 3, unread_count: 2 },
    { user_id: C, conversation_id: AC, other_id: A, delivered_seq: 0, read_seq: 0, unread_count: 1 },
  ],
  chat_messages: [
    message('ab1', AB, 1, A, B, 1),
    message('ab2', AB, 2, B, A, 1),
    message('ab3', AB, 3, A, B, 2),
    message('ab4', AB, 4, A, B, 3),
    message('ab5', AB, 5, B, A, 2),
    message('ab6', AB, 6, A, B, 4),
    message('again1', AC, 1, A, C, 1),
    message('again2', AC, 2, C, A, 1),
    message('again3', AC, 3, C, A, 2),
  ],
};

type Rows = Record<string, Iterable<Record<string, unknown>>>;

/** Rows in `chatScenarioRows`' shape: timestamps dropped, sorted by their key. */
export function comparable(rows: Rows) {
  const drop = (row: Record<string, unknown>, columns: string[]) =>
    Object.fromEntries(Object.entries(row).filter(([c]) => !columns.includes(c)));
  const sorted = <R extends Record<string, unknown>>(list: R[], key: (r: R) => string) =>
    list.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  return {
    conversations: sorted(
      [...rows.conversations!].map((r) =>
        drop(r, ['created_at', 'updated_at', 'last_text', 'last_sender_id', 'last_at']),
      ),
      (r) => String(r.id),
    ),
    conversation_members: sorted(
      [...rows.conversation_members!].map((r) => ({ ...r })),
      (r) => `${String(r.user_id)} ${String(r.conversation_id)}`,
    ),
    chat_messages: sorted(
      [...rows.chat_messages!].map((r) => drop(r, ['created_at'])),
      (r) => `${String(r.conversation_id)} ${String(r.seq).padStart(6, '0')}`,
    ),
  };
}
