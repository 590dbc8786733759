import { describe, expect, it } from 'vitest';
import { ME, AMNA, msg, page } from './chat.fixture';
import { laterStatus, flattenPages } from './merge';
import { tickOf, readReceiptTarget, applyReceiptToPages } from './receipts';

describe('ticks and receipts', () => {
  it('shows ticks only on my messages: sending, sent, delivered, read', () => {
    expect(tickOf(msg('a', AMNA, '2026-01-01T10:00:00Z'), ME)).toBeNull();
    expect(tickOf(msg('a', ME, '2026-01-01T10:00:00Z'), ME)).toBe('sent');
    expect(tickOf(msg('a', ME, '2026-01-01T10:00:00Z', { status: 'delivered' }), ME)).toBe('delivered');
    expect(tickOf(msg('a', ME, '2026-01-01T10:00:00Z', { status: 'read' }), ME)).toBe('read');
  });

  it('never moves a status back', () => {
    expect(laterStatus('read', 'delivered')).toBe('read');
    expect(laterStatus('sent', 'delivered')).toBe('delivered');
    expect(laterStatus(undefined, 'sent')).toBe('sent');
  });

  it('marks my messages up to the receipted one, across pages', () => {
    const pages = [
      page([msg('c', ME, '2026-01-01T10:00:03Z'), msg('d', ME, '2026-01-01T10:00:04Z')], 1, true),
      page([msg('a', ME, '2026-01-01T10:00:01Z'), msg('b', AMNA, '2026-01-01T10:00:02Z')], 2),
    ];
    const read = applyReceiptToPages(pages, { upToMessageId: 'c', status: 'read' }, ME);
    const statuses = Object.fromEntries(flattenPages(read).map((m) => [m._id, m.status]));
    expect(statuses).toEqual({ a: 'read', b: 'sent', c: 'read', d: 'sent' });
    // A 'delivered' after 'read' changes nothing.
    expect(applyReceiptToPages(read, { upToMessageId: 'c', status: 'delivered' }, ME)).toBe(read);
    // A receipt for a message not loaded yet covers all of mine.
    const all = applyReceiptToPages(pages, { upToMessageId: 'zz', status: 'delivered' }, ME);
    expect(
      flattenPages(all)
        .filter((m) => m.senderId === ME)
        .map((m) => m.status),
    ).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it("reads up to the other member's newest message unless it is read and nothing is unread", () => {
    const list = [
      msg('a', AMNA, '2026-01-01T10:00:01Z'),
      msg('b', AMNA, '2026-01-01T10:00:02Z'),
      msg('c', ME, '2026-01-01T10:00:03Z'),
    ];
    expect(readReceiptTarget(list, ME, 0)?._id).toBe('b');
    const read = list.map((m) => (m.senderId === AMNA ? { ...m, status: 'read' as const } : m));
    expect(readReceiptTarget(read, ME, 0)).toBeNull();
    expect(readReceiptTarget(read, ME, 2)?._id).toBe('b');
    expect(readReceiptTarget([msg('c', ME, '2026-01-01T10:00:03Z')], ME, 0)).toBeNull();
  });
});
