import { randomUUID } from 'node:crypto';
import { handleCommand, type EventStore } from '@pawhaven/platform';
import { claim, claimOwner, emailClaimStream, usernameClaimStream } from './claims';
import { CodeHasher, hashPassword } from './secrets';
import { userDecider, userStream } from './user';

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
export async function ensureDemoUsers(store: EventStore): Promise<{ email: string; username: string }[]> {
  const created: { email: string; username: string }[] = [];
  const codes = new CodeHasher(randomUUID());
  for (const demo of DEMO_USERS) {
    if (await claimOwner(store, emailClaimStream(demo.email))) continue;
    const userId = randomUUID();
    if ((await claim(store, emailClaimStream(demo.email), 'EmailClaimed', userId)) !== userId) continue;
    await claim(store, usernameClaimStream(demo.username), 'UsernameClaimed', userId);
    const run = (command: Parameters<typeof userDecider.decide>[0]) =>
      handleCommand(store, userStream(userId), userDecider, command, { actorId: 'system' });
    const code = codes.newCode();
    const now = new Date();
    await run({
      type: 'RegisterUser',
      data: {
        userId,
        username: demo.username,
        email: demo.email,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        isVeterinarian: demo.isVeterinarian,
        codeHash: codes.hash('registration', userId, code),
        now,
      },
    });
    await run({ type: 'VerifyEmail', data: { codeHash: codes.hash('registration', userId, code), now } });
    await run({ type: 'UpdateProfile', data: { phone: demo.phone, city: demo.city, about: demo.about } });
    created.push({ email: demo.email, username: demo.username });
  }
  return created;
}
