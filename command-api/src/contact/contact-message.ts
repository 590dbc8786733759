import type { ContactEvent } from '@pawhaven/contracts';
import type { Decider } from '@pawhaven/platform';

/** A contact-form message (stream `contact-message-{messageId}`): received once. */
export type ContactMessageState = { received: boolean };

export type ContactMessageCommand = {
  type: 'ReceiveContactMessage';
  data: { messageId: string; name: string; email: string; message: string; userId: string | null; now: Date };
};

/**
 * The message's id comes from the request (derived from its Idempotency-Key when it has one), so a retry that runs
 * again after its first answer was lost finds the message already received and records nothing more.
 */
export const contactMessageDecider: Decider<ContactMessageState, ContactMessageCommand, ContactEvent> = {
  initialState: () => ({ received: false }),
  evolve: (state, event) => (event.type === 'ContactMessageReceived' ? { received: true } : state),
  decide: (command, state) => {
    if (state.received) return [];
    const { messageId, name, email, message, userId, now } = command.data;
    return [
      {
        type: 'ContactMessageReceived',
        data: { messageId, name, email, message, userId, receivedAt: now.toISOString() },
      },
    ];
  },
};
