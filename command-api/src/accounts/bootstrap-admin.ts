import { randomBytes, randomUUID } from 'node:crypto';
import { handleCommand, loadState, type Config, type EventStore } from '@pawhaven/platform';
import { claim, claimOwner, emailClaimStream, usernameClaimStream } from './claims';
import { hashPassword } from './secrets';
import { userDecider, userStream } from './user';

/**
 * Makes sure the admin account exists. Answers the credentials only when it was created just now, so they are
 * printed once; a generated password is never stored anywhere but as its hash.
 */
export async function ensureAdmin(
  store: EventStore,
  config: Config,
): Promise<{ email: string; password: string } | null> {
  const email = config.ADMIN_EMAIL.toLowerCase();
  const existing = await claimOwner(store, emailClaimStream(email));
  if (existing) {
    const { state } = await loadState(store, userStream(existing), userDecider);
    if (state.status !== 'unregistered') return null;
  }
  const userId = existing ?? randomUUID();
  if ((await claim(store, emailClaimStream(email), 'EmailClaimed', userId)) !== userId) return null;
  let username = config.ADMIN_USERNAME;
  if ((await claim(store, usernameClaimStream(username), 'UsernameClaimed', userId)) !== userId) {
    username = `${config.ADMIN_USERNAME}-${userId.slice(0, 4)}`;
    await claim(store, usernameClaimStream(username), 'UsernameClaimed', userId);
  }
  const password = config.ADMIN_PASSWORD ?? `${randomBytes(12).toString('base64url')}A1!`;
  await handleCommand(
    store,
    userStream(userId),
    userDecider,
    {
      type: 'BootstrapAdmin',
      data: { userId, username, email, passwordHash: await hashPassword(password), now: new Date() },
    },
    { actorId: 'system' },
  );
  return { email, password };
}
