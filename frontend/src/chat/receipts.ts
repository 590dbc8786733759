import type { MessageDto, MessagePage, MessageStatus } from '@pawhaven/contracts';
import { type ChatMessage, laterStatus, flattenPages } from './merge';

/** Ticks and receipts: what a message's ticks show, what opening a conversation marks read, a receipt over the pages. */

/** What the ticks of a message show; null for the other member's messages. */
export type Tick = 'sending' | MessageStatus | null;

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
