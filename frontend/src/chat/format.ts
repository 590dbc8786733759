import {
  CHAT_LIMITS,
  CHAT_MESSAGES,
  type ChatUserDto,
  type ConversationDto,
  type MessageDto,
  type MessagePage,
  type MessageStatus,
  type UserDto,
} from '@pawhaven/contracts';

/**
 * The pure rules of the chat screens (spec 001 §2, §3, §4, §9): normalising what the server and the socket send,
 * the conversation list (duplicates, hidden placeholders, order, previews, badges), the message list (optimistic,
 * server and socket copies of one message), ticks and receipts. No React, no I/O: all of it is unit-tested.
 */

/** A message as the window shows it: `pending` while the optimistic copy waits for the server. */
export type ChatMessage = MessageDto & { pending?: boolean };

/** What the ticks of a message show; null for the other member's messages. */
export type Tick = 'sending' | MessageStatus | null;

export const TEMP_PREFIX = 'temp-';

/** The signed-in user's id (responses carry both `_id` and `id`). */
export const userIdOf = (user: Pick<UserDto, 'id' | '_id'> | null | undefined) =>
  user ? user.id || user._id || null : null;

/** Why the signed-in user cannot chat (spec 001 §5), or null when the id is usable. */
export function userIdProblem(user: Pick<UserDto, 'id' | '_id'> | null | undefined): string | null {
  if (!user) return null;
  const id = userIdOf(user);
  if (!id) return CHAT_MESSAGES.userIncomplete;
  if (id.length < CHAT_LIMITS.minUserIdLength) return CHAT_MESSAGES.invalidUserId;
  return null;
}

// ---------- normalising ----------

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

const STATUSES: readonly MessageStatus[] = ['sent', 'delivered', 'read'];
const statusRank = (s: MessageStatus | undefined) => (s ? STATUSES.indexOf(s) : 0);

/** The further of two statuses: a receipt never moves a message back. */
export const laterStatus = (a: MessageStatus | undefined, b: MessageStatus | undefined): MessageStatus =>
  statusRank(a) >= statusRank(b) ? (a ?? 'sent') : (b ?? 'sent');

/** A message with its alternative field names normalised (text or content, createdAt or timestamp; spec 001 §3). */
export function normaliseMessage(raw: unknown): MessageDto | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  const id = str(m._id) ?? str(m.id);
  const conversationId = str(m.conversationId);
  if (!id || !conversationId) return null;
  const sender = m.senderId;
  const senderId =
    str(sender) ??
    (sender && typeof sender === 'object'
      ? (str((sender as Record<string, unknown>)._id) ?? str((sender as Record<string, unknown>).id))
      : null);
  const createdRaw = m.createdAt ?? m.timestamp;
  const createdAt =
    typeof createdRaw === 'number'
      ? new Date(createdRaw).toISOString()
      : (str(createdRaw) ?? new Date(0).toISOString());
  const status = STATUSES.includes(m.status as MessageStatus) ? (m.status as MessageStatus) : 'sent';
  return {
    _id: id,
    id,
    conversationId,
    senderId: senderId ?? '',
    text: typeof m.text === 'string' ? m.text : typeof m.content === 'string' ? m.content : '',
    clientMessageId: str(m.clientMessageId) ?? '',
    createdAt,
    status,
  };
}

/** A conversation with `members` filled from `members` or `participants` (spec 001 §3). */
export function normaliseConversation(raw: unknown): ConversationDto | null {
  if (!raw || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  const id = str(c._id) ?? str(c.id);
  if (!id) return null;
  const participants: ChatUserDto[] = Array.isArray(c.participants)
    ? (c.participants as unknown[])
        .filter((p): p is Record<string, unknown> => Boolean(p) && typeof p === 'object')
        .map((p) => {
          const pid = str(p._id) ?? str(p.id) ?? '';
          return {
            _id: pid,
            id: pid,
            username: str(p.username) ?? '',
            profileImage: str(p.profileImage),
            isVeterinarian: p.isVeterinarian === true,
          };
        })
    : [];
  const fromParticipants = Array.isArray(c.participants)
    ? (c.participants as unknown[]).map((p) =>
        typeof p === 'string'
          ? p
          : p && typeof p === 'object'
            ? (str((p as { _id?: unknown })._id) ?? '')
            : '',
      )
    : [];
  const members = (
    Array.isArray(c.members) ? (c.members as unknown[]).map((m) => str(m) ?? '') : fromParticipants
  ).filter(Boolean);
  const last = c.lastMessage as Record<string, unknown> | null | undefined;
  const lastText = last ? (typeof last.text === 'string' ? last.text : str(last.content)) : null;
  const updatedAt = str(c.updatedAt) ?? str(c.createdAt) ?? new Date(0).toISOString();
  const ad = c.ad as Record<string, unknown> | null | undefined;
  return {
    _id: id,
    id,
    members,
    participants,
    startedBy: str(c.startedBy) ?? members[0] ?? '',
    lastMessage:
      last && lastText !== null
        ? {
            text: lastText,
            senderId: str(last.senderId) ?? '',
            createdAt: str(last.createdAt) ?? str(last.timestamp) ?? updatedAt,
          }
        : null,
    updatedAt,
    createdAt: str(c.createdAt) ?? updatedAt,
    unreadCount: typeof c.unreadCount === 'number' && c.unreadCount > 0 ? Math.floor(c.unreadCount) : 0,
    ad:
      ad && str(ad._id) ? { _id: str(ad._id)!, name: str(ad.name) ?? '', imageUrl: str(ad.imageUrl) } : null,
  };
}

// ---------- conversations ----------

/** The other user is the member who is not the current user (spec 001 §4). */
export const otherMemberId = (c: Pick<ConversationDto, 'members'>, me: string | null) =>
  c.members.find((m) => m !== me) ?? null;

/** The other member's public fields ('Unknown User' when the server did not send them). */
export function otherParticipant(c: Pick<ConversationDto, 'members' | 'participants'>, me: string | null) {
  const id = otherMemberId(c, me);
  const found = c.participants.find((p) => (p._id || p.id) === id);
  return {
    id,
    username: found?.username?.trim() || 'Unknown User',
    profileImage: found?.profileImage ?? null,
    isVeterinarian: Boolean(found?.isVeterinarian),
  };
}

const time = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? 0 : t;
};

/** When a conversation last changed: its update time, or its last message when that is later. */
export const activityTime = (c: Pick<ConversationDto, 'updatedAt' | 'lastMessage'>) =>
  Math.max(time(c.updatedAt), time(c.lastMessage?.createdAt));

/** Does the conversation still show the placeholder (no message yet, or the placeholder text itself)? */
export const isPlaceholder = (c: Pick<ConversationDto, 'lastMessage'>) =>
  !c.lastMessage || c.lastMessage.text === CHAT_MESSAGES.placeholderLastMessage;

const pairKey = (c: Pick<ConversationDto, 'members' | '_id'>) =>
  c.members.length >= 2 ? [...c.members].sort().join('|') : `id:${c._id}`;

/**
 * The list as shown (spec 001 §4): duplicates between the same two members collapse to the most recently updated;
 * a conversation still on the placeholder is hidden unless the current user started it; newest first.
 */
export function visibleConversations(list: readonly ConversationDto[], me: string | null): ConversationDto[] {
  const byPair = new Map<string, ConversationDto>();
  for (const c of list) {
    const key = pairKey(c);
    const seen = byPair.get(key);
    if (!seen || activityTime(c) > activityTime(seen)) byPair.set(key, c);
  }
  return [...byPair.values()]
    .filter((c) => !isPlaceholder(c) || c.startedBy === me)
    .sort((a, b) => activityTime(b) - activityTime(a));
}

/** The search box 'Search conversations...': the other member's name or the last message. */
export function searchConversations(
  list: readonly ConversationDto[],
  query: string,
  me: string | null,
): ConversationDto[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter(
    (c) =>
      otherParticipant(c, me).username.toLowerCase().includes(q) ||
      (c.lastMessage?.text ?? '').toLowerCase().includes(q) ||
      (c.ad?.name ?? '').toLowerCase().includes(q),
  );
}

/** A preview cut at 35 characters (spec 001 §9), with '...' when it was longer. */
export function truncatePreview(text: string, max: number = CHAT_LIMITS.previewLength): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : flat;
}

/** The list preview: the last message, or the placeholder 'Start a conversation...'. */
export const previewOf = (c: Pick<ConversationDto, 'lastMessage'>) =>
  c.lastMessage && c.lastMessage.text.trim()
    ? truncatePreview(c.lastMessage.text)
    : CHAT_MESSAGES.placeholderLastMessage;

/** The unread badge: nothing at 0, the count up to 9, then '9+' (spec 001 §2). */
export function unreadBadge(count: number | null | undefined): string | null {
  if (!count || count <= 0) return null;
  return count > CHAT_LIMITS.unreadBadgeMax ? `${CHAT_LIMITS.unreadBadgeMax}+` : String(Math.floor(count));
}

/** How many conversations of the list (as shown) have unread messages: the Inbox badge's number. */
export const unreadConversations = (list: readonly ConversationDto[], me: string | null) =>
  visibleConversations(list, me).filter((c) => c.unreadCount > 0).length;

/** What the Inbox link adds to its name for screen readers: '1 unread conversation', '12 unread conversations'. */
export const unreadConversationsText = (unread: number) =>
  `${unread} unread conversation${unread === 1 ? '' : 's'}`;

/**
 * A message arrived (socket or our own send): its conversation's last message and update time change and it moves
 * to the top; unread grows for the other member's message in a conversation the user is not looking at. Unknown
 * conversations are added at the top when the caller has them (`fallback`, e.g. the open one), else `known` is false
 * and the caller reloads the list.
 */
export function withIncomingMessage(
  list: readonly ConversationDto[],
  message: Pick<MessageDto, 'conversationId' | 'senderId' | 'text' | 'createdAt'>,
  me: string | null,
  opts: { seen: boolean; fallback?: ConversationDto | null } = { seen: false },
): { list: ConversationDto[]; known: boolean } {
  const update = (c: ConversationDto): ConversationDto => {
    const newer = time(message.createdAt) >= time(c.lastMessage?.createdAt);
    return {
      ...c,
      lastMessage: newer
        ? { text: message.text, senderId: message.senderId, createdAt: message.createdAt }
        : c.lastMessage,
      updatedAt: newer && time(message.createdAt) > time(c.updatedAt) ? message.createdAt : c.updatedAt,
      unreadCount: message.senderId !== me && !opts.seen ? c.unreadCount + 1 : c.unreadCount,
    };
  };
  const index = list.findIndex((c) => c._id === message.conversationId);
  if (index >= 0) {
    const updated = update(list[index]!);
    return { list: [updated, ...list.filter((_, i) => i !== index)], known: true };
  }
  if (opts.fallback && opts.fallback._id === message.conversationId)
    return { list: [update(opts.fallback), ...list], known: true };
  return { list: [...list], known: false };
}

/** Puts a conversation in the list (replacing its older copy), e.g. one just found or started from a URL. */
export function upsertConversation(list: readonly ConversationDto[], c: ConversationDto): ConversationDto[] {
  const index = list.findIndex((x) => x._id === c._id);
  if (index < 0) return [c, ...list];
  const old = list[index]!;
  // Keep whichever last message is newer: the list may already know a message the lookup answer does not.
  const keepOld = activityTime(old) > activityTime(c);
  const merged = keepOld ? { ...c, lastMessage: old.lastMessage, updatedAt: old.updatedAt } : c;
  return list.map((x, i) => (i === index ? merged : x));
}

export const withUnread = (list: readonly ConversationDto[], conversationId: string, unreadCount: number) =>
  list.map((c) => (c._id === conversationId && c.unreadCount !== unreadCount ? { ...c, unreadCount } : c));

// ---------- messages ----------

const sameMessage = (a: MessageDto, b: MessageDto) =>
  a._id === b._id || (Boolean(a.clientMessageId) && a.clientMessageId === b.clientMessageId);

/** Oldest first; equal times keep their order (the server's order within a page). */
const byTime = (list: ChatMessage[]) =>
  list
    .map((m, i) => ({ m, i }))
    .sort((a, b) => time(a.m.createdAt) - time(b.m.createdAt) || a.i - b.i)
    .map((x) => x.m);

/**
 * Adds messages to a list without doubles: the same `_id`, or the same `clientMessageId` (the server's copy of an
 * optimistic message, or the echo of a message sent from another tab), is one message. The server's copy wins over
 * a pending one; copies of one message keep the further status. The result is oldest first.
 */
export function mergeMessages(list: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [...list];
  for (const m of incoming) {
    const index = out.findIndex((x) => sameMessage(x, m));
    if (index < 0) {
      out.push(m);
      continue;
    }
    const old = out[index]!;
    const winner = old.pending && !m.pending ? m : !old.pending && m.pending ? old : m;
    out[index] = { ...winner, status: laterStatus(old.status, m.status) };
  }
  // A server copy may have arrived under an id another entry already holds by client id: drop leftovers.
  const unique: ChatMessage[] = [];
  for (const m of out) {
    const i = unique.findIndex((x) => sameMessage(x, m));
    if (i < 0) unique.push(m);
    else if (unique[i]!.pending && !m.pending) unique[i] = m;
  }
  const confirmed = byTime(unique.filter((m) => !m.pending));
  // Optimistic messages stay at the bottom, in the order they were typed, until the server places them.
  const pending = unique.filter((m) => m.pending);
  return [...confirmed, ...pending];
}

/** The window's list: the server's messages and the optimistic ones the server has not confirmed yet. */
export const withPending = (confirmed: readonly ChatMessage[], pending: readonly ChatMessage[]) =>
  mergeMessages(
    confirmed,
    pending.filter((p) => !confirmed.some((c) => sameMessage(c, p))),
  );

/** The messages of the pages of GET /messages (page 1 is the newest) as one list, oldest first. */
export function flattenPages(pages: readonly Pick<MessagePage, 'data'>[]): ChatMessage[] {
  let out: ChatMessage[] = [];
  for (let i = pages.length - 1; i >= 0; i--) out = mergeMessages(out, pages[i]!.data);
  return out;
}

/**
 * Puts messages into the cached pages: a message already in a page is updated there (the further status wins), a
 * new one joins the newest page. Returns the same object when nothing changed.
 */
export function insertIntoPages<P extends Pick<MessagePage, 'data'>>(
  pages: readonly P[],
  incoming: MessageDto[],
) {
  if (pages.length === 0 || incoming.length === 0) return pages as P[];
  const result = pages.map((p) => ({ ...p, data: [...p.data] }));
  const fresh: MessageDto[] = [];
  for (const m of incoming) {
    let placed = false;
    for (const page of result) {
      const i = page.data.findIndex((x) => sameMessage(x, m));
      if (i >= 0) {
        const old = page.data[i]!;
        page.data[i] = { ...m, status: laterStatus(old.status, m.status) };
        placed = true;
      }
    }
    if (!placed) fresh.push(m);
  }
  if (fresh.length > 0) result[0]!.data = mergeMessages(result[0]!.data, fresh) as MessageDto[];
  return result;
}

/** The ticks of a message: none on the other member's, a clock while sending, then sent, delivered, read. */
export function tickOf(message: ChatMessage, me: string | null): Tick {
  if (message.senderId !== me) return null;
  if (message.pending) return 'sending';
  return message.status ?? 'sent';
}

/** The newest message from the other member (what a read receipt points at). */
export function newestFromOther(list: readonly ChatMessage[], me: string | null): ChatMessage | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i]!;
    if (!m.pending && m.senderId !== me) return m;
  }
  return null;
}

/**
 * What opening a conversation marks read: the other member's newest message, unless it is read already and the list
 * shows nothing unread.
 */
export function readReceiptTarget(
  list: readonly ChatMessage[],
  me: string | null,
  unreadCount: number,
): ChatMessage | null {
  const newest = newestFromOther(list, me);
  if (!newest) return null;
  return newest.status === 'read' && unreadCount === 0 ? null : newest;
}

/** The other member's messages up to `upTo` are read on this side too (after our read receipt). */
export const markOthersRead = <M extends MessageDto>(list: readonly M[], me: string | null, upTo: string) => {
  const limit = list.findIndex((m) => m._id === upTo);
  return list.map((m, i) =>
    m.senderId !== me && i <= limit && m.status !== 'read' ? { ...m, status: 'read' as const } : m,
  );
};

/** A chat message must have text once trimmed, and not too much of it (spec 001 §5). */
export function messageTextProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return CHAT_MESSAGES.textRequired;
  if (trimmed.length > CHAT_LIMITS.messageMaxLength) return CHAT_MESSAGES.textTooLong;
  return null;
}

/** A UUID v4 for `clientMessageId`; crypto.randomUUID needs a secure context, a phone on the LAN is not one. */
export function newClientMessageId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The optimistic copy of a message being sent. */
export function optimisticMessage(
  conversationId: string,
  senderId: string,
  text: string,
  clientMessageId: string,
  now = new Date(),
): ChatMessage {
  const id = `${TEMP_PREFIX}${clientMessageId}`;
  return {
    _id: id,
    id,
    conversationId,
    senderId,
    text,
    clientMessageId,
    createdAt: now.toISOString(),
    status: 'sent',
    pending: true,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `?adId=` is passed on only when it can be an ad id (the server refuses anything else). */
export const adIdParam = (value: string | null | undefined) =>
  value && UUID.test(value.trim()) ? value.trim() : null;

// ---------- times ----------

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** A message's time: '3:04 PM'. */
export function messageTime(iso: string | null | undefined): string {
  const t = time(iso);
  if (!t) return '';
  return new Date(t).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

/** The list's time: the clock time today, 'Yesterday', else 'Jan 5' (with the year when not this year). */
export function listTime(iso: string | null | undefined, now = new Date()): string {
  const t = time(iso);
  if (!t) return '';
  const d = new Date(t);
  if (sameDay(d, now)) return messageTime(iso);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Yesterday';
  return d.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** The separator above the first message of a day: 'Today', 'Yesterday', else 'Monday, January 5, 2026'. */
export function dayLabel(iso: string, now = new Date()): string {
  const t = time(iso);
  if (!t) return '';
  const d = new Date(t);
  if (sameDay(d, now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(d, yesterday)) return 'Yesterday';
  return d.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
}

export const dayKey = (iso: string) => {
  const t = time(iso);
  if (!t) return '';
  const d = new Date(t);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

/**
 * A receipt over the cached pages: my messages up to `upToMessageId` (in the merged order) are delivered or read;
 * all of mine when that message is not loaded. Returns the same pages when nothing changed.
 */
export function applyReceiptToPages<P extends Pick<MessagePage, 'data'>>(
  pages: readonly P[],
  receipt: { upToMessageId: string; status: 'delivered' | 'read' },
  me: string | null,
): P[] {
  const order = flattenPages(pages);
  const limit = order.findIndex((m) => m._id === receipt.upToMessageId);
  const covered = new Set(
    order.filter((m, i) => m.senderId === me && (limit < 0 || i <= limit)).map((m) => m._id),
  );
  let changed = false;
  const out = pages.map((p) => {
    let pageChanged = false;
    const data = p.data.map((m) => {
      if (!covered.has(m._id)) return m;
      const status = laterStatus(m.status, receipt.status);
      if (status === m.status) return m;
      pageChanged = true;
      return { ...m, status };
    });
    if (!pageChanged) return p;
    changed = true;
    return { ...p, data };
  });
  return changed ? out : (pages as P[]);
}
