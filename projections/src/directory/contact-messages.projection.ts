import { CONTACT_EVENT_TYPES, type ContactEvent } from '@pawhaven/contracts';
import { defineProjection, type RecordedEvent } from '@pawhaven/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A `contact_messages` row, every column included. */
type ContactMessageRow = {
  id: string;
  name: string;
  email: string;
  message: string;
  user_id: string | null;
  received_at: string;
};

/** The row a ContactMessageReceived inserts; null for any other event, or a message id that is not a UUID. */
function messageRow(recorded: RecordedEvent): ContactMessageRow | null {
  const event = { type: recorded.type, data: recorded.data ?? {} } as ContactEvent;
  if (event.type !== 'ContactMessageReceived') return null;
  const d: Partial<ContactEvent['data']> = event.data;
  const id = str(d.messageId);
  if (!UUID.test(id)) return null;
  return {
    id,
    name: str(d.name),
    email: str(d.email),
    message: str(d.message),
    user_id: str(d.userId) || null,
    received_at:
      typeof d.receivedAt === 'string' && !Number.isNaN(Date.parse(d.receivedAt))
        ? d.receivedAt
        : recorded.createdAt.toISOString(),
  };
}

/** The user whose account a UserDeleted removes ('' when it names none). */
const deletedUserId = (recorded: RecordedEvent) =>
  str((recorded.data as { userId?: unknown } | null)?.userId);

/** `contact_messages`: every message of the contact form, for the team's inbox (newest first). */
export const contactMessagesProjection = defineProjection({
  name: 'contact-messages',
  tables: ['contact_messages'],
  handles: [...CONTACT_EVENT_TYPES, 'UserDeleted'],
  async apply(tx, recorded) {
    // A signed-in sender's messages go with their account; a visitor's (no user id) stay as written.
    if (recorded.type === 'UserDeleted') {
      const userId = deletedUserId(recorded);
      if (userId) await tx('contact_messages').where({ user_id: userId }).delete();
      return;
    }
    const row = messageRow(recorded);
    if (row) await tx('contact_messages').insert(row).onConflict('id').ignore();
  },
  fold: () => {
    const messages = new Map<string, ContactMessageRow>();
    // Each signed-in sender's messages, so deleting their account costs only those.
    const bySender = new Map<string, ContactMessageRow[]>();
    return {
      apply(recorded) {
        if (recorded.type === 'UserDeleted') {
          const userId = deletedUserId(recorded);
          if (!userId) return;
          for (const m of bySender.get(userId) ?? []) messages.delete(m.id);
          bySender.delete(userId);
          return;
        }
        const row = messageRow(recorded);
        if (!row || messages.has(row.id)) return; // ON CONFLICT DO NOTHING
        messages.set(row.id, row);
        if (row.user_id !== null) {
          const own = bySender.get(row.user_id);
          if (own) own.push(row);
          else bySender.set(row.user_id, [row]);
        }
      },
      rows: () => ({ contact_messages: messages.values() }),
    };
  },
});
