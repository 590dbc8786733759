import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '@pawhaven/contracts';
import { ME, AMNA, BILAL, conv } from './chat.fixture';
import {
  otherMemberId,
  otherParticipant,
  visibleConversations,
  searchConversations,
  truncatePreview,
  previewOf,
  unreadBadge,
  unreadConversations,
  unreadConversationsText,
  withIncomingMessage,
  upsertConversation,
  withUnread,
} from './conversations';

describe('conversation list rules', () => {
  it('sorts newest first and collapses duplicates of one pair to the most recently updated', () => {
    const list = visibleConversations(
      [
        conv('old-amna', AMNA, '2026-01-01T10:00:00Z'),
        conv('bilal', BILAL, '2026-01-02T10:00:00Z'),
        conv('new-amna', AMNA, '2026-01-03T10:00:00Z', { members: [AMNA, ME] }),
      ],
      ME,
    );
    expect(list.map((c) => c._id)).toEqual(['new-amna', 'bilal']);
  });

  it('uses the last message time when it is later than the update time', () => {
    const a = conv('a', AMNA, '2026-01-01T10:00:00Z', {
      lastMessage: { text: 'late', senderId: AMNA, createdAt: '2026-01-05T10:00:00Z' },
    });
    const b = conv('b', BILAL, '2026-01-04T10:00:00Z');
    expect(visibleConversations([b, a], ME).map((c) => c._id)).toEqual(['a', 'b']);
  });

  it('hides a conversation still on the placeholder unless the current user started it', () => {
    const mine = conv('mine', AMNA, '2026-01-01T10:00:00Z', { last: null, startedBy: ME });
    const theirs = conv('theirs', BILAL, '2026-01-02T10:00:00Z', { last: null, startedBy: BILAL });
    const placeholderText = conv('text', BILAL, '2026-01-03T10:00:00Z', {
      last: CHAT_MESSAGES.placeholderLastMessage,
      startedBy: BILAL,
      members: [BILAL, 'carol-000001'],
    });
    const talked = conv('talked', 'dan-00000001', '2026-01-01T09:00:00Z', { startedBy: 'dan-00000001' });
    expect(visibleConversations([mine, theirs, placeholderText, talked], ME).map((c) => c._id)).toEqual([
      'mine',
      'talked',
    ]);
    expect(previewOf(mine)).toBe('Start a conversation...');
  });

  it('truncates previews at 35 characters', () => {
    expect(truncatePreview('a'.repeat(35))).toBe('a'.repeat(35));
    expect(truncatePreview('a'.repeat(36))).toBe(`${'a'.repeat(35)}...`);
    expect(truncatePreview('line one\nline   two')).toBe('line one line two');
    expect(
      previewOf(
        conv('x', AMNA, '2026-01-01T10:00:00Z', { last: 'Is Bruno still looking for a home in Lahore?' }),
      ),
    ).toBe('Is Bruno still looking for a home i...');
  });

  it("shows unread badges up to 9, then '9+'", () => {
    expect(unreadBadge(0)).toBeNull();
    expect(unreadBadge(undefined)).toBeNull();
    expect(unreadBadge(1)).toBe('1');
    expect(unreadBadge(9)).toBe('9');
    expect(unreadBadge(10)).toBe('9+');
    expect(unreadBadge(250)).toBe('9+');
  });

  it('the Inbox counts conversations with unread messages, not messages; its words for screen readers', () => {
    const list = [
      conv('c1', AMNA, '2026-01-01T10:00:00Z', { unreadCount: 3 }),
      conv('c2', BILAL, '2026-01-01T11:00:00Z', { unreadCount: 0 }),
      // The same pair again, older: it collapses into c1 and is not counted twice.
      conv('c0', AMNA, '2026-01-01T09:00:00Z', { unreadCount: 1 }),
    ];
    expect(unreadConversations(list, ME)).toBe(1);
    expect(unreadConversations(withUnread(list, 'c2', 2), ME)).toBe(2);
    expect(unreadConversations(withUnread(list, 'c1', 0), ME)).toBe(0);
    expect(unreadConversations([], ME)).toBe(0);
    expect(unreadConversationsText(1)).toBe('1 unread conversation');
    expect(unreadConversationsText(12)).toBe('12 unread conversations');
  });

  it('finds the other member and searches by name, message or ad', () => {
    const c = conv('c', AMNA, '2026-01-01T10:00:00Z', {
      last: 'About the kitten',
      ad: { _id: 'ad', name: 'Bruno', imageUrl: null },
    });
    expect(otherMemberId(c, ME)).toBe(AMNA);
    expect(otherParticipant(c, ME).username).toBe('Amna');
    expect(otherParticipant({ members: [ME, 'ghost'], participants: [] }, ME).username).toBe('Unknown User');
    expect(searchConversations([c], 'amn', ME)).toHaveLength(1);
    expect(searchConversations([c], 'KITTEN', ME)).toHaveLength(1);
    expect(searchConversations([c], 'bruno', ME)).toHaveLength(1);
    expect(searchConversations([c], 'zzz', ME)).toHaveLength(0);
    expect(searchConversations([c], '  ', ME)).toHaveLength(1);
  });

  it('moves a conversation with a new message to the top and counts unread only when not seen', () => {
    const list = [conv('a', AMNA, '2026-01-02T10:00:00Z'), conv('b', BILAL, '2026-01-01T10:00:00Z')];
    const incoming = { conversationId: 'b', senderId: BILAL, text: 'hi!', createdAt: '2026-01-03T10:00:00Z' };
    const unseen = withIncomingMessage(list, incoming, ME, { seen: false });
    expect(unseen.known).toBe(true);
    expect(unseen.list.map((c) => c._id)).toEqual(['b', 'a']);
    expect(unseen.list[0]!.lastMessage?.text).toBe('hi!');
    expect(unseen.list[0]!.updatedAt).toBe('2026-01-03T10:00:00Z');
    expect(unseen.list[0]!.unreadCount).toBe(1);
    expect(withIncomingMessage(list, incoming, ME, { seen: true }).list[0]!.unreadCount).toBe(0);
    // My own message never counts as unread.
    expect(
      withIncomingMessage(list, { ...incoming, senderId: ME }, ME, { seen: false }).list[0]!.unreadCount,
    ).toBe(0);
  });

  it('adds an unknown conversation at the top when the caller has it, else reports it unknown', () => {
    const list = [conv('a', AMNA, '2026-01-02T10:00:00Z')];
    const fresh = conv('n', BILAL, '2026-01-01T00:00:00Z', { last: null });
    const incoming = { conversationId: 'n', senderId: ME, text: 'first', createdAt: '2026-01-04T10:00:00Z' };
    const added = withIncomingMessage(list, incoming, ME, { seen: true, fallback: fresh });
    expect(added.list.map((c) => c._id)).toEqual(['n', 'a']);
    expect(added.list[0]!.lastMessage?.text).toBe('first');
    const unknown = withIncomingMessage(list, { ...incoming, conversationId: 'zz' }, ME, { seen: false });
    expect(unknown.known).toBe(false);
    expect(unknown.list.map((c) => c._id)).toEqual(['a']);
  });

  it('keeps the newer last message when a conversation is put in again', () => {
    const inList = conv('a', AMNA, '2026-01-05T10:00:00Z', { last: 'newest' });
    const fromLookup = conv('a', AMNA, '2026-01-01T10:00:00Z', {
      last: 'old',
      ad: { _id: 'ad', name: 'Bruno', imageUrl: null },
    });
    const [merged] = upsertConversation([inList], fromLookup);
    expect(merged!.lastMessage?.text).toBe('newest');
    expect(merged!.ad?.name).toBe('Bruno');
    expect(upsertConversation([inList], conv('b', BILAL, '2026-01-01T10:00:00Z')).map((c) => c._id)).toEqual([
      'b',
      'a',
    ]);
  });
});
