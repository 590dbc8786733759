import { describe, expect, it } from 'vitest';
import { ME, AMNA, msg, page } from './chat.fixture';
import { mergeMessages, withPending, flattenPages, insertIntoPages, optimisticMessage } from './merge';
import { tickOf } from './receipts';

describe('messages: optimistic, server and socket copies', () => {
  it('replaces the optimistic copy with the server one (same client id), keeping it once', () => {
    const temp = optimisticMessage('c1', ME, 'hi', 'cid-1', new Date('2026-01-01T10:00:05Z'));
    expect(temp.pending).toBe(true);
    expect(tickOf(temp, ME)).toBe('sending');
    const server = msg('m1', ME, '2026-01-01T10:00:04Z', { clientMessageId: 'cid-1', text: 'hi' });
    const merged = mergeMessages([temp], [server]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!._id).toBe('m1');
    expect(merged[0]!.pending).toBeUndefined();
    // A late optimistic copy does not displace the server's.
    expect(mergeMessages([server], [temp])[0]!._id).toBe('m1');
  });

  it('dedupes the socket echo and the ack of one message, keeping the further status', () => {
    const fromAck = msg('m1', ME, '2026-01-01T10:00:00Z', { status: 'sent' });
    const fromSocket = msg('m1', ME, '2026-01-01T10:00:00Z', { status: 'delivered' });
    const list = mergeMessages(mergeMessages([], [fromSocket]), [fromAck]);
    expect(list).toHaveLength(1);
    expect(list[0]!.status).toBe('delivered');
  });

  it('orders confirmed messages by time and keeps pending ones last', () => {
    const temp = optimisticMessage('c1', ME, 'typing...', 'cid-9', new Date('2026-01-01T09:00:00Z'));
    const list = mergeMessages(
      [msg('b', AMNA, '2026-01-01T10:00:02Z'), temp],
      [msg('a', AMNA, '2026-01-01T10:00:01Z'), msg('c', ME, '2026-01-01T10:00:03Z')],
    );
    expect(list.map((m) => m._id)).toEqual(['a', 'b', 'c', temp._id]);
  });

  it('shows pending messages until the server copy is there', () => {
    const temp = optimisticMessage('c1', ME, 'hi', 'cid-1');
    const other = optimisticMessage('c1', ME, 'second', 'cid-2');
    const confirmed = [msg('m1', ME, '2026-01-01T10:00:00Z', { clientMessageId: 'cid-1' })];
    expect(withPending(confirmed, [temp, other]).map((m) => m._id)).toEqual(['m1', other._id]);
  });

  it('flattens pages (page 1 newest) without the overlap new messages cause', () => {
    const older = page([msg('a', AMNA, '2026-01-01T10:00:01Z'), msg('b', ME, '2026-01-01T10:00:02Z')], 2);
    const newest = page(
      [msg('b', ME, '2026-01-01T10:00:02Z'), msg('c', AMNA, '2026-01-01T10:00:03Z')],
      1,
      true,
    );
    expect(flattenPages([newest, older]).map((m) => m._id)).toEqual(['a', 'b', 'c']);
  });

  it('puts new messages into the newest page and updates known ones where they are', () => {
    const pages = [
      page([msg('c', AMNA, '2026-01-01T10:00:03Z')], 1, true),
      page([msg('a', ME, '2026-01-01T10:00:01Z')], 2),
    ];
    const next = insertIntoPages(pages, [
      msg('a', ME, '2026-01-01T10:00:01Z', { status: 'read' }),
      msg('d', ME, '2026-01-01T10:00:04Z'),
    ]);
    expect(next[0]!.data.map((m) => m._id)).toEqual(['c', 'd']);
    expect(next[1]!.data[0]!.status).toBe('read');
    expect(pages[0]!.data).toHaveLength(1); // not mutated
    expect(insertIntoPages([], [msg('x', ME, '2026-01-01T10:00:00Z')])).toEqual([]);
  });
});
