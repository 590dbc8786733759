import { userStream } from '@pawhaven/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  handleCommand,
  HttpError,
  loadState,
  type Config,
  type EventStore,
  type LogPosition,
  type Pseudonyms,
} from '@pawhaven/platform';
import {
  claimEmail,
  confirmUsername,
  holdExpiry,
  holdUsername,
  migrateLegacyUsernameClaims,
  releaseUsername,
} from './claims';
import { hashPassword } from './secrets';
import { userDecider } from './user';
import { usernameClaimKeys } from './username-keys';

/**
 * Makes sure the admin account exists. Answers the credentials only when it was created just now, so they are
 * printed once; a generated password is never stored anywhere but as its hash.
 *
 * Every start first runs the one-time migration of the first version's username claims (a no-op once done), so
 * existing names — the admin's and the demo accounts' among them — are claimed under their new keys before
 * anybody can sign up with a look-alike.
 */
export async function ensureAdmin(
  store: EventStore,
  config: Config,
  pseudonyms: Pseudonyms,
  /** The last event committed before start (see migrateLegacyUsernameClaims); without it, the visible head. */
  logEnd?: LogPosition,
): Promise<{ email: string; password: string } | null> {
  await migrateLegacyUsernameClaims(store, new Date(), logEnd);
  const email = config.ADMIN_EMAIL.toLowerCase();
  const userId = await claimEmail(store, email, randomUUID());
  if ((await loadState(store, userStream(userId), userDecider)).state.status !== 'unregistered') return null;
  const now = new Date();
  const registrationId = randomUUID();
  let username = config.ADMIN_USERNAME;
  const hold = (name: string) =>
    holdUsername(store, {
      userId,
      registrationId,
      username: name,
      keys: usernameClaimKeys(pseudonyms, name),
      expiresAt: holdExpiry(now.toISOString()),
      now,
    });
  try {
    await hold(username);
  } catch (e) {
    if (!(e instanceof HttpError && e.status === 409)) throw e;
    username = `${config.ADMIN_USERNAME}-${userId.slice(0, 4)}`;
    await hold(username);
  }
  const keys = usernameClaimKeys(pseudonyms, username);
  const password = config.ADMIN_PASSWORD ?? `${randomBytes(12).toString('base64url')}A1!`;
  let recorded;
  try {
    recorded = await handleCommand(
      store,
      userStream(userId),
      userDecider,
      {
        type: 'BootstrapAdmin',
        data: {
          userId,
          username,
          usernameKeys: keys,
          email,
          passwordHash: await hashPassword(password),
          now,
        },
      },
      { actorId: 'system' },
    );
  } catch (e) {
    await releaseUsername(store, { userId, registrationId, keys, reason: 'not-registered' });
    throw e;
  }
  // Another process starting at the same moment created it first: its password is the one, not this one.
  if (recorded.events.length === 0) return null;
  await confirmUsername(store, { userId, username, keys });
  return { email, password };
}
