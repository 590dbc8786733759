import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeNotice, RecordedEvent } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { chatProjection } from './chat.projection';
import { AB, AC, A, B, BC, chatScenario, chatScenarioRows, comparable } from './chat-scenario.testing';
import { chatSenderCountsMigration } from './migration';

/**
 * The chat read model live, over the real tables: whatever the batches, the scenario leaves the rows the same
 * `evolve` leaves in memory, with the notices the realtime gateway pushes; and the migration that numbers each
 * sender's messages numbers those already in the tables.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await db.drop();
});

const TABLES = ['conversations', 'conversation_members', 'chat_messages'] as const;

/** Projects `events` live in batches of `size` (each batch one transaction, as the projector runs them). */
async function projectLive(events: RecordedEvent[], size: number) {
  await db.knex.raw(`TRUNCATE ${TABLES.join(', ')}`);
  const notices: ChangeNotice[] = [];
  for (let i = 0; i < events.length; i += size)
    await db.knex.transaction((tx) =>
      chatProjection.applyBatch!(tx, events.slice(i, i + size), { push: (n) => void notices.push(n) }),
    );
  const rows = Object.fromEntries(
    await Promise.all(
      TABLES.map(async (table) => [table, (await db.pool.query(`SELECT * FROM ${table}`)).rows] as const),
    ),
  );
  return { rows: comparable(rows), notices };
}

const conversation = (conversationId: string, userId: string, otherId: string) => ({
  kind: 'conversation',
  conversationId,
  userId,
  otherId,
});
const message = (conversationId: string, messageId: string, senderId: string, recipientId: string) => ({
  kind: 'message',
  conversationId,
  messageId,
  senderId,
  recipientId,
});
const receipt = (
  conversationId: string,
  userId: string,
  senderId: string | null,
  upToMessageId: string,
  status: 'read' | 'delivered',
) => ({ kind: 'receipt', conversationId, userId, senderId, upToMessageId, status });

/** What the scenario tells the realtime gateway, in order ('conversation-removed' apart: its order is the rows'). */
const NOTICES = [
  conversation(AB, B, A),
  message(AB, 'ab1', A, B),
  message(AB, 'ab2', B, A),
  message(AB, 'ab3', A, B),
  message(AB, 'ab4', A, B),
  message(AB, 'ab5', B, A),
  conversation(AC, 'user-c', A),
  message(AC, 'ac1', 'user-c', A),
  message(AC, 'ac2', 'user-c', A),
  message(AC, 'ac3', A, 'user-c'),
  message(AC, 'ac4', 'user-c', A),
  conversation(BC, B, 'user-c'),
  message(BC, 'bc1', 'user-c', B),
  receipt(AB, B, A, 'ab4', 'delivered'),
  receipt(AB, B, A, 'ab3', 'read'),
  receipt(AB, B, A, 'ab1', 'read'),
  receipt(AB, A, B, 'ab2', 'read'),
  message(AB, 'ab6', A, B),
  receipt(AB, B, A, 'ab6', 'delivered'),
  receipt(AB, A, B, 'ac4', 'read'),
  receipt(BC, B, 'user-c', 'ac1', 'delivered'),
  // Nothing for the unknown message and the conversation never started; no sender for a non-member's receipt.
  receipt(AB, 'user-x', null, 'ab6', 'read'),
  conversation(AB, A, B),
  conversation(AC, 'user-c', A),
  message(AC, 'again1', A, 'user-c'),
  message(AC, 'again2', 'user-c', A),
  message(AC, 'again3', 'user-c', A),
  receipt(AC, A, 'user-c', 'again2', 'read'),
];

describe('the chat read model, live', () => {
  it.each([1, 4, 1000])(
    'leaves the rows the rebuild leaves and tells each change once, in batches of %i',
    async (size) => {
      const { rows, notices } = await projectLive(chatScenario(), size);
      expect(rows).toEqual(chatScenarioRows);
      expect(notices.filter((n) => n.kind !== 'conversation-removed')).toEqual(NOTICES);
      // C's deletion: each other member is told of the conversation they lost.
      expect(notices.filter((n) => n.kind === 'conversation-removed')).toEqual(
        expect.arrayContaining([
          { kind: 'conversation-removed', conversationId: AC, userId: A },
          { kind: 'conversation-removed', conversationId: BC, userId: B },
        ]),
      );
      expect(notices.filter((n) => n.kind === 'conversation-removed')).toHaveLength(2);
    },
  );

  it('refuses a batch holding a message twice, writing nothing of it', async () => {
    const events = chatScenario();
    await projectLive(events.slice(0, 3), 10);
    const again = events.slice(1, 3).map((e, i) => ({ ...e, position: BigInt(100 + i) }));
    await expect(
      db.knex.transaction((tx) => chatProjection.applyBatch!(tx, [events[3]!, ...again], { push() {} })),
    ).rejects.toThrow(/message ab1 is in the log twice/);
    // The rebuild refuses that log too.
    const folded = chatProjection.fold!();
    expect(() => [...events.slice(0, 4), ...again].forEach((e) => folded.apply(e))).toThrow(
      /in the log twice/,
    );
    expect((await db.pool.query('SELECT id FROM chat_messages ORDER BY seq')).rows).toEqual([
      { id: 'ab1' },
      { id: 'ab2' },
    ]);
  });
});

describe("the migration numbering each sender's messages", () => {
  it('numbers the messages already in the tables, per conversation and sender, in their order', async () => {
    await db.knex.raw(`TRUNCATE ${TABLES.join(', ')}; ALTER TABLE chat_messages DROP COLUMN sender_count`);
    const rows = chatScenarioRows.chat_messages;
    // Inserted in another order than their numbers.
    for (const { sender_count: _, ...row } of [...rows].reverse())
      await db.knex('chat_messages').insert({ ...row, created_at: new Date() });
    await chatSenderCountsMigration.up(db.knex);
    expect(
      (await db.pool.query('SELECT id, sender_count FROM chat_messages ORDER BY conversation_id, seq')).rows,
    ).toEqual(rows.map((r) => ({ id: r.id, sender_count: r.sender_count })));
    // The column is required from then on, as the model writes it.
    await expect(
      db
        .knex('chat_messages')
        .insert({ ...rows[0]!, id: 'other', seq: 99, sender_count: null, created_at: new Date() }),
    ).rejects.toThrow(/null value/);
  });
});
