import { normalizeEmail } from '@pawhaven/contracts';
import { ConcurrencyError, type EventStore } from '@pawhaven/platform';

/**
 * Unique e-mails and usernames, kept by the event store itself: a claim stream per value, created with
 * expected revision no_stream, so two sign-ups racing for one value cannot both win.
 */
export const emailClaimStream = (email: string) => `user-email-${normalizeEmail(email)}`;
export const usernameClaimStream = (username: string) => `username-${username.trim().toLowerCase()}`;

export async function claimOwner(store: EventStore, stream: string): Promise<string | null> {
  for await (const e of store.readStream(stream, { maxCount: 1 }))
    return (e.data as { userId: string }).userId;
  return null;
}

/** Claims `stream` for `userId`; answers the owner afterwards (the caller, or whoever won the race). */
export async function claim(
  store: EventStore,
  stream: string,
  type: 'EmailClaimed' | 'UsernameClaimed',
  userId: string,
) {
  const owner = await claimOwner(store, stream);
  if (owner) return owner;
  try {
    await store.append(stream, [{ type, data: { userId }, metadata: { actorId: userId } }], 'no_stream');
    return userId;
  } catch (e) {
    if (e instanceof ConcurrencyError) return (await claimOwner(store, stream)) ?? userId;
    throw e;
  }
}
