import { describe, expect, it } from 'vitest';
import { chatProjection } from './chat.projection';
import { AB, A, B, chatScenario, chatScenarioRows, comparable } from './chat-scenario.testing';
import type { RecordedEvent } from '@pawhaven/platform';

/** The rows the model holds after `events`, evolved in memory (as a rebuild does). */
function fold(events: RecordedEvent[]) {
  const folded = chatProjection.fold!();
  for (const event of events) folded.apply(event);
  return comparable(folded.rows());
}

describe('the chat read model, evolved in memory', () => {
  it("numbers each message in its conversation and its sender's, and counts unread from what each member read", () => {
    expect(fold(chatScenario())).toEqual(chatScenarioRows);
  });

  it('counts a receipt from the messages before and after what is read, whoever sent them', () => {
    // B reads ab2 (B's own, number 2): A's ab1 is read; ab3, ab4 and ab6 are not.
    const events = chatScenario();
    const upTo = events.findIndex((e) => e.type === 'MessagesDelivered');
    const more = structuredClone(
      events.filter((e) => e.type === 'MessageSent' && (e.data as { messageId: string }).messageId === 'ab6'),
    );
    const readOwn = structuredClone(events[upTo]!);
    readOwn.type = 'MessagesRead';
    readOwn.data = { ...(readOwn.data as object), upToMessageId: 'ab2' };
    const rows = fold([...events.slice(0, upTo), ...more, readOwn]);
    expect(rows.conversation_members.find((m) => m.user_id === B && m.conversation_id === AB)).toMatchObject({
      delivered_seq: 2,
      read_seq: 2,
      unread_count: 3,
    });
    expect(rows.conversation_members.find((m) => m.user_id === A && m.conversation_id === AB)).toMatchObject({
      read_seq: 0,
      unread_count: 2,
    });
    // Each message knows its sender's how-many-th message it is: the counts are read off them.
    expect(rows.chat_messages.filter((m) => m.conversation_id === AB).map((m) => m.sender_count)).toEqual([
      1, 1, 2, 3, 2, 4,
    ]);
  });
});
