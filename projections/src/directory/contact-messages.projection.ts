import { CONTACT_EVENT_TYPES, type ContactEvent, isLowerCaseUuid } from '@pawhaven/contracts';
import { defineReadModel, type RecordedEvent } from '@pawhaven/platform';

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
  if (!isLowerCaseUuid(id)) return null;
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
export const contactMessagesProjection = defineReadModel<{ contact_messages: ContactMessageRow }>({
  name: 'contact-messages',
  tables: { contact_messages: { key: ['id'], lookups: ['user_id'] } },
  handles: [...CONTACT_EVENT_TYPES, 'UserDeleted'],
  evolve({ contact_messages: messages }, recorded) {
    // A signed-in sender's messages go with their account; a visitor's (no user id) stay as written.
    if (recorded.type === 'UserDeleted') {
      const userId = deletedUserId(recorded);
      if (userId) for (const m of messages.find('user_id', userId)) messages.delete(m.id);
      return;
    }
    const row = messageRow(recorded);
    if (row && !messages.get(row.id)) messages.put(row); // received once
  },
});
