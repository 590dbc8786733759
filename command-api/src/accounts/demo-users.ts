import { randomUUID } from 'node:crypto';
import { ACCOUNT_LIMITS, emailClaimStream, userStream } from '@pawhaven/contracts';
import { handleCommand, HttpError, type EventStore, type Pseudonyms } from '@pawhaven/platform';
import { claimEmail, claimOwner, confirmUsername, holdExpiry, holdUsername } from './claims';
import { hashRegistrationToken, newRegistrationToken } from './registration-token';
import { CodeHasher, hashPassword } from './secrets';
import { userDecider } from './user';
import { usernameClaimKeys } from './username-keys';

export const DEMO_PASSWORD = 'PawHaven#2026';

const DEMO_USERS = [
  {
    username: 'Dr Ayesha Khan',
    email: 'ayesha.vet@gmail.com',
    isVeterinarian: true,
    city: 'Lahore',
    phone: '+92 300 1234567',
    about:
      'Small-animal vet at a Lahore clinic. Happy to answer questions about vaccinations and first visits.',
  },
  {
    username: 'Bilal Ahmed',
    email: 'bilal.rescue@gmail.com',
    isVeterinarian: false,
    city: 'Karachi',
    phone: '+92 321 7654321',
    about: 'Street-cat rescuer and foster parent in Karachi.',
  },
  {
    username: 'Sana Malik',
    email: 'sana.adopts@gmail.com',
    isVeterinarian: false,
    city: 'Islamabad',
    phone: '',
    about: 'Looking to adopt a calm senior dog.',
  },
];

/**
 * Demo accounts for the embedded default, made through the same commands a real sign-up goes through.
 * Answers the accounts created by this call (none when they exist already).
 */
export async function ensureDemoUsers(
  store: EventStore,
  pseudonyms: Pseudonyms,
): Promise<{ email: string; username: string }[]> {
  const created: { email: string; username: string }[] = [];
  const codes = new CodeHasher(randomUUID());
  for (const demo of DEMO_USERS) {
    if (await claimOwner(store, emailClaimStream(demo.email))) continue;
    const userId = randomUUID();
    if ((await claimEmail(store, demo.email, userId)) !== userId) continue;
    const keys = usernameClaimKeys(pseudonyms, demo.username);
    const registrationId = randomUUID();
    const now = new Date();
    const registrationExpiresAt = new Date(now.getTime() + ACCOUNT_LIMITS.registrationSeconds * 1000);
    const held = await holdUsername(store, {
      userId,
      registrationId,
      username: demo.username,
      keys,
      expiresAt: holdExpiry(registrationExpiresAt.toISOString()),
      now,
    }).then(
      () => true,
      (e: unknown) => {
        if (e instanceof HttpError && e.status === 409) return false; // someone has that name: no such demo
        throw e;
      },
    );
    if (!held) continue;
    const run = (command: Parameters<typeof userDecider.decide>[0]) =>
      handleCommand(store, userStream(userId), userDecider, command, { actorId: 'system' });
    const code = codes.newCode();
    const tokenHash = hashRegistrationToken(newRegistrationToken());
    await run({
      type: 'RegisterUser',
      data: {
        userId,
        registrationId,
        username: demo.username,
        usernameKeys: keys,
        email: demo.email,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        isVeterinarian: demo.isVeterinarian,
        codeHash: codes.hash('registration', userId, code),
        tokenHash,
        now,
      },
    });
    await run({
      type: 'VerifyEmail',
      data: { codeHash: codes.hash('registration', userId, code), tokenHash, now },
    });
    await confirmUsername(store, { userId, username: demo.username, keys });
    await run({ type: 'UpdateProfile', data: { phone: demo.phone, city: demo.city, about: demo.about } });
    created.push({ email: demo.email, username: demo.username });
  }
  return created;
}
