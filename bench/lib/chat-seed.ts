import { conversationStream, type ChatEvent, type UserEvent } from '@pawhaven/contracts';
import { conversationIdFor } from '@pawhaven/command-api';
import type { NewEvent } from '@pawhaven/platform';

/**
 * What the chat benches append straight to a log, as the command side records it: a user signed up with Google, and
 * a conversation between two users. `at` is the seeding time, the same for every event.
 */
export function userRegistered(
  userId: string,
  username: string,
  at: string,
): { streamId: string; event: NewEvent } {
  const e: UserEvent = {
    type: 'UserRegistered',
    data: {
      userId,
      username,
      email: `${username}@gmail.com`,
      passwordHash: null,
      isVeterinarian: false,
      isAdmin: false,
      via: 'google',
      registeredAt: at,
    },
  };
  return { streamId: `user-${userId}`, event: { type: e.type, data: e.data, metadata: { actorId: userId } } };
}

export function conversationStarted(
  a: string,
  b: string,
  at: string,
): { id: string; streamId: string; event: NewEvent } {
  const id = conversationIdFor(a, b);
  const e: ChatEvent = {
    type: 'ConversationStarted',
    data: { conversationId: id, memberIds: [a, b], startedBy: a, adId: null, startedAt: at },
  };
  return {
    id,
    streamId: conversationStream(id),
    event: { type: e.type, data: e.data, metadata: { actorId: a } },
  };
}
