import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES, type ConversationDto, type MessageDto } from '@pawhaven/contracts';
import {
  adIdParam,
  applyReceiptToPages,
  flattenPages,
  insertIntoPages,
  laterStatus,
  listTime,
  mergeMessages,
  messageTextProblem,
  newClientMessageId,
  normaliseConversation,
  normaliseMessage,
  optimisticMessage,
  otherMemberId,
  otherParticipant,
  previewOf,
  readReceiptTarget,
  searchConversations,
  tickOf,
  truncatePreview,
  unreadBadge,
  unreadConversations,
  unreadConversationsText,
  upsertConversation,
  userIdProblem,
  visibleConversations,
  withIncomingMessage,
  withPending,
  withUnread,
  type ChatMessage,
} from './format';

const ME = 'me-0000000001';
const AMNA = 'amna-00000001';
const BILAL = 'bilal-0000001';

const user = (id: string, username: string) => ({
  _id: id,
  id,
  username,
  profileImage: null,
  isVeterinarian: false,
});

const conv = (
  id: string,
  other: string,
  updatedAt: string,
  opts: Partial<ConversationDto> & { last?: string | null } = {},
): ConversationDto => {
  const { last = 'hello', ...rest } = opts;
  return {
    _id: id,
    id,
    members: [ME, other],
    participants: [user(ME, 'me'), user(other, other === AMNA ? 'Amna' : 'Bilal')],
    startedBy: ME,
    lastMessage: last === null ? null : { text: last, senderId: other, createdAt: updatedAt },
    updatedAt,
    createdAt: '2026-01-01T00:00:00Z',
    unreadCount: 0,
    ad: null,
    ...rest,
  };
};

const msg = (id: string, senderId: string, at: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  _id: id,
  id,
  conversationId: 'c1',
  senderId,
  text: `text ${id}`,
  clientMessageId: `client-${id}`,
  createdAt: at,
  status: 'sent',
  ...extra,
});

const page = (data: MessageDto[], pageNo = 1, hasMore = false) => ({
  success: true as const,
  data,
  pagination: { page: pageNo, limit: 50, total: data.length, hasMore },
});

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

  it('normalises alternative field names', () => {
    expect(
      normaliseMessage({
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
    expect(normaliseMessage({ text: 'no ids' })).toBeNull();
    const c = normaliseConversation({
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

describe('input rules', () => {
  it('needs trimmed text within the limit', () => {
    expect(messageTextProblem('   ')).toBe(CHAT_MESSAGES.textRequired);
    expect(messageTextProblem(' hi ')).toBeNull();
    expect(messageTextProblem('x'.repeat(2001))).toBe(CHAT_MESSAGES.textTooLong);
  });

  it('makes UUID v4 client ids and passes only UUID ad ids', () => {
    const id = newClientMessageId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newClientMessageId()).not.toBe(id);
    expect(adIdParam(id)).toBe(id);
    expect(adIdParam('not-an-id')).toBeNull();
    expect(adIdParam(null)).toBeNull();
  });

  it('refuses unusable user ids', () => {
    expect(userIdProblem(null)).toBeNull();
    expect(userIdProblem({ id: '', _id: '' })).toBe(CHAT_MESSAGES.userIncomplete);
    expect(userIdProblem({ id: 'short', _id: 'short' })).toBe(CHAT_MESSAGES.invalidUserId);
    expect(userIdProblem({ id: ME, _id: ME })).toBeNull();
  });

  it('shows list times as a clock today, Yesterday, then a date', () => {
    const now = new Date('2026-03-10T15:00:00');
    expect(listTime('2026-03-10T09:05:00', now)).toBe('9:05 AM');
    expect(listTime('2026-03-09T09:05:00', now)).toBe('Yesterday');
    expect(listTime('2026-01-05T09:05:00', now)).toBe('Jan 5');
    expect(listTime('2025-01-05T09:05:00', now)).toBe('Jan 5, 2025');
    expect(listTime(null, now)).toBe('');
  });
});
