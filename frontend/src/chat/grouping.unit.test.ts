import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS } from '@pawhaven/contracts';
import type { ChatMessage } from './merge';
import { groupMessages, groupPosition } from './grouping';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
let n = 0;
const msg = (senderId: string, createdAt: Date, extra: Partial<ChatMessage> = {}): ChatMessage => {
  const id = `m${++n}`;
  return {
    _id: id,
    id,
    conversationId: 'c1',
    senderId,
    text: id,
    clientMessageId: '',
    createdAt: createdAt.toISOString(),
    status: 'sent',
    ...extra,
  };
};
// Local times, so the day boundary is the viewer's (the day separators use the same).
const t = (h: number, m: number, s = 0, day = 5) => new Date(2026, 0, day, h, m, s);
const texts = (groups: ReturnType<typeof groupMessages>) => groups.map((g) => g.messages.map((m) => m.text));

describe('groupMessages', () => {
  it('keeps quick consecutive messages of one sender in one group, in order', () => {
    const list = [msg(A, t(10, 0)), msg(A, t(10, 0, 30)), msg(A, t(10, 2))];
    const groups = groupMessages(list);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.senderId).toBe(A);
    expect(groups[0]!.messages).toEqual(list);
  });

  it('the window is five minutes from the previous message: exactly 5 min joins, a longer gap splits', () => {
    expect(CHAT_LIMITS.messageGroupWindowMs).toBe(5 * 60_000);
    const list = [msg(A, t(10, 0)), msg(A, t(10, 5)), msg(A, t(10, 10, 1)), msg(A, t(10, 14))];
    expect(texts(groupMessages(list))).toEqual([
      [list[0]!.text, list[1]!.text],
      [list[2]!.text, list[3]!.text],
    ]);
  });

  it('a chain of messages each within the window stays one group even when it lasts longer', () => {
    const list = [msg(A, t(10, 0)), msg(A, t(10, 4)), msg(A, t(10, 8)), msg(A, t(10, 12))];
    expect(groupMessages(list)).toHaveLength(1);
  });

  it('another sender splits, and the first sender starts a new group after them', () => {
    const list = [msg(A, t(10, 0)), msg(B, t(10, 0, 10)), msg(B, t(10, 0, 20)), msg(A, t(10, 0, 30))];
    const groups = groupMessages(list);
    expect(groups.map((g) => g.senderId)).toEqual([A, B, A]);
    expect(texts(groups)).toEqual([[list[0]!.text], [list[1]!.text, list[2]!.text], [list[3]!.text]]);
  });

  it('a new day splits even within the window', () => {
    const list = [msg(A, t(23, 58, 0, 5)), msg(A, t(0, 1, 0, 6))];
    const groups = groupMessages(list);
    expect(groups).toHaveLength(2);
    expect(groups[0]!.day).not.toBe(groups[1]!.day);
  });

  it('a message being sent joins its sender group; keys survive the server copy replacing it', () => {
    const sent = msg(A, t(10, 0), { clientMessageId: 'client-1' });
    const pending = msg(A, t(10, 1), { clientMessageId: 'client-2', pending: true });
    const groups = groupMessages([sent, pending]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.key).toBe('client-1');
    expect(groupMessages([])).toEqual([]);
  });
});

describe('groupPosition', () => {
  it('single, first, middle, last', () => {
    expect(groupPosition(0, 1)).toBe('single');
    expect([0, 1, 2].map((i) => groupPosition(i, 3))).toEqual(['first', 'middle', 'last']);
    expect([0, 1].map((i) => groupPosition(i, 2))).toEqual(['first', 'last']);
  });
});
