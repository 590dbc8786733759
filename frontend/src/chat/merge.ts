import type { MessageDto, MessagePage, MessageStatus } from '@pawhaven/contracts';
import { time } from './labels';

/** The message list: optimistic, server and socket copies of one message merged into one, across the cached pages. */

/** A message as the window shows it: `pending` while the optimistic copy waits for the server. */
export type ChatMessage = MessageDto & { pending?: boolean };

export const TEMP_PREFIX = 'temp-';

export const STATUSES: readonly MessageStatus[] = ['sent', 'delivered', 'read'];
const statusRank = (s: MessageStatus | undefined) => (s ? STATUSES.indexOf(s) : 0);

/** The further of two statuses: a receipt never moves a message back. */
export const laterStatus = (a: MessageStatus | undefined, b: MessageStatus | undefined): MessageStatus =>
  statusRank(a) >= statusRank(b) ? (a ?? 'sent') : (b ?? 'sent');

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
