import { CHAT_LIMITS, CHAT_MESSAGES, type ConversationDto, type MessageDto } from '@pawhaven/contracts';
import { time } from './labels';

/** The conversation list: the other member, duplicates, hidden placeholders, order, search, previews, badges, and a
 * new message's or a found conversation's place in it. */

/** The other user is the member who is not the current user. */
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

/** When a conversation last changed: its update time, or its last message when that is later. */
export const activityTime = (c: Pick<ConversationDto, 'updatedAt' | 'lastMessage'>) =>
  Math.max(time(c.updatedAt), time(c.lastMessage?.createdAt));

/** Does the conversation still show the placeholder (no message yet, or the placeholder text itself)? */
export const isPlaceholder = (c: Pick<ConversationDto, 'lastMessage'>) =>
  !c.lastMessage || c.lastMessage.text === CHAT_MESSAGES.placeholderLastMessage;

const pairKey = (c: Pick<ConversationDto, 'members' | '_id'>) =>
  c.members.length >= 2 ? [...c.members].sort().join('|') : `id:${c._id}`;

/**
 * The list as shown: duplicates between the same two members collapse to the most recently updated;
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

/** A preview cut at 35 characters, with '...' when it was longer. */
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

/** The unread badge: nothing at 0, the count up to 9, then '9+'. */
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
