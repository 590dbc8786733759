import { describe, expect, it } from 'vitest';
import { ME, AMNA } from './chat.fixture';
import { parseMessage, parseConversation } from './parse';

describe('answers read by the contracts schemas', () => {
  it('normalises alternative field names', () => {
    expect(
      parseMessage({
        id: 'm',
        conversationId: 'c',
        senderId: { _id: ME },
        content: 'hello',
        timestamp: Date.parse('2026-01-01T10:00:00Z'),
      }),
    ).toMatchObject({
      _id: 'm',
      id: 'm',
      senderId: ME,
      text: 'hello',
      createdAt: '2026-01-01T10:00:00.000Z',
      status: 'sent',
    });
    expect(parseMessage({ text: 'no ids' })).toBeNull();
    const c = parseConversation({
      _id: 'c',
      participants: [
        { _id: ME, username: 'me' },
        { _id: AMNA, username: 'Amna' },
      ],
      lastMessage: { content: 'yo', createdAt: '2026-01-01T10:00:00Z' },
      updatedAt: '2026-01-01T10:00:00Z',
      unreadCount: 3,
    });
    expect(c?.members).toEqual([ME, AMNA]);
    expect(c?.lastMessage?.text).toBe('yo');
    expect(c?.unreadCount).toBe(3);
    expect(c?.startedBy).toBe(ME);
  });
});
