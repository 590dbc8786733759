import { describe, it } from 'vitest';
import type { ContactEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { contactMessageDecider, type ContactMessageCommand } from './contact-message';

const spec = deciderSpec(contactMessageDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const receive: ContactMessageCommand = {
  type: 'ReceiveContactMessage',
  data: {
    messageId: 'b7d9b0f4-3c52-4d7e-9a55-6c1d2e3f4a5b',
    name: 'Ayesha',
    email: 'ayesha@example.com',
    message: 'Hello',
    userId: null,
    now,
  },
};
const received: ContactEvent = {
  type: 'ContactMessageReceived',
  data: {
    messageId: receive.data.messageId,
    name: 'Ayesha',
    email: 'ayesha@example.com',
    message: 'Hello',
    userId: null,
    receivedAt: now.toISOString(),
  },
};

describe('a contact message', () => {
  it('is received once', () => {
    spec().when(receive).then([received]);
  });

  it('records nothing more when the same message (a retry) arrives again', () => {
    spec(received).when(receive).thenNothing();
  });
});
