import { CHAT_LIMITS } from '@pawhaven/contracts';
import { dayKey } from './labels';
import type { ChatMessage } from './merge';

/** A run of consecutive messages of one sender, on one day, each within the window of the one before. */
export type MessageGroup = { key: string; senderId: string; day: string; messages: ChatMessage[] };

/** Where a bubble sits in its group: its corners, its spacing and whether it carries the time follow from it. */
export type GroupPosition = 'single' | 'first' | 'middle' | 'last';

const at = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Groups a conversation's messages (oldest first) as WhatsApp does: consecutive messages of one sender stay together
 * while each follows the previous one within `windowMs` (5 minutes) on the same day; another sender, a longer gap or
 * a new day starts a new group. The order of the messages is kept.
 */
export function groupMessages(
  messages: readonly ChatMessage[],
  windowMs: number = CHAT_LIMITS.messageGroupWindowMs,
): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let current: MessageGroup | null = null;
  for (const m of messages) {
    const day = dayKey(m.createdAt);
    const previous = current?.messages[current.messages.length - 1];
    const joins =
      current !== null &&
      previous !== undefined &&
      current.senderId === m.senderId &&
      current.day === day &&
      Math.abs(at(m.createdAt) - at(previous.createdAt)) <= windowMs;
    if (joins) current!.messages.push(m);
    else {
      current = { key: m.clientMessageId || m._id, senderId: m.senderId, day, messages: [m] };
      groups.push(current);
    }
  }
  return groups;
}

/** The position of the `index`-th message of a group of `size`. */
export const groupPosition = (index: number, size: number): GroupPosition =>
  size === 1 ? 'single' : index === 0 ? 'first' : index === size - 1 ? 'last' : 'middle';
