import { CONTACT_EVENT_TYPES, type ContactEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** `contact_messages`: every message of the contact form, for the team's inbox (newest first). */
export const contactMessagesProjection = defineProjection({
  name: 'contact-messages',
  tables: ['contact_messages'],
  handles: [...CONTACT_EVENT_TYPES, 'UserDeleted'],
  async apply(tx, recorded) {
    // A signed-in sender's messages go with their account; a visitor's (no user id) stay as written.
    if (recorded.type === 'UserDeleted') {
      const userId = str((recorded.data as { userId?: unknown } | null)?.userId);
      if (userId) await tx('contact_messages').where({ user_id: userId }).delete();
      return;
    }
    const event = { type: recorded.type, data: recorded.data ?? {} } as ContactEvent;
    if (event.type !== 'ContactMessageReceived') return;
    const d: Partial<ContactEvent['data']> = event.data;
    if (!UUID.test(str(d.messageId))) return;
    const receivedAt =
      typeof d.receivedAt === 'string' && !Number.isNaN(Date.parse(d.receivedAt))
        ? d.receivedAt
        : recorded.createdAt.toISOString();
    await tx('contact_messages')
      .insert({
        id: d.messageId,
        name: str(d.name),
        email: str(d.email),
        message: str(d.message),
        user_id: str(d.userId) || null,
        received_at: receivedAt,
      })
      .onConflict('id')
      .ignore();
  },
});
