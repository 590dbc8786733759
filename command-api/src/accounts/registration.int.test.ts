import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import cookieParser from 'cookie-parser';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import {
  connectDatabase,
  errorHandler,
  PostgresEventStore,
  RebuildRunner,
  resolvePseudonyms,
  START,
  TokenService,
  type Database,
} from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import {
  createApi,
  createGoogleTestKeys,
  GOOGLE_TEST_CLIENT_ID,
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';
import { createMailer } from '../mail/mailer';
import { googleVerifier, type GoogleVerifier } from './google';
import { HOLD_GRACE_SECONDS, USERNAME_MIGRATION_STREAM } from './claims';
import { DEMO_PASSWORD } from './demo-users';
import { accountRoutes } from './routes';
import { CodeHasher, hashPassword } from './secrets';

/**
 * Sign-up races and takeovers over real HTTP on the whole product (issue 6.5): one e-mail raced by twenty
 * sign-ups, usernames held only by sign-ups that can still complete, the code in the mailbox bound to whoever
 * chose the password, look-alike usernames, expiry, and the migration of the first version's claims.
 */

let t: TestApp;
let api: TestApi;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
});
afterAll(async () => {
  await t?.stop();
});

const gmail = (name: string) => `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}@gmail.com`;

const register = (username: string, email: string, password = TEST_PASSWORD, client: TestApi = api) =>
  client.post('/api/auth/register', { username, email, password, isVeterinarian: false });

const verify = (email: string, otp: string, registrationToken?: string, client: TestApi = api) =>
  client.post('/api/auth/verify-registration', { email, otp, registrationToken });

const signin = (email: string, password: string, client: TestApi = api) =>
  client.post('/api/auth/signin', { email, password });

/** Whether a username can be taken right now: a fresh address signs up with it (and keeps it, pending). */
async function usernameIsFree(username: string, client: TestApi = api): Promise<boolean> {
  const res = await register(username, gmail(uniqueName('probe')), TEST_PASSWORD, client);
  if (res.status === 201) return true;
  expect(res.body.message).toBe(ACCOUNT_MESSAGES.usernameTaken);
  return false;
}

describe('20 concurrent sign-ups of one e-mail', () => {
  it('leave one pending sign-up and one held username; the other names are free at once', async () => {
    const email = gmail(uniqueName('race'));
    const racers = Array.from({ length: 20 }, (_, i) => ({
      username: uniqueName(`racer${i}x`),
      password: `Race!${i}Passw0rd`,
    }));
    const answers = await Promise.all(racers.map((r) => register(r.username, email, r.password)));
    for (const a of answers) expect([201, 409], a.text).toContain(a.status);
    expect(answers.some((a) => a.status === 201)).toBe(true);

    // Exactly one sign-up survived: only its password knows the pending account (403), the others' are unknown.
    const signins = await Promise.all(racers.map((r) => signin(email, r.password)));
    expect(signins.map((s) => s.status).sort((a, b) => a - b)).toEqual([...Array<number>(19).fill(401), 403]);
    const winner = racers[signins.findIndex((s) => s.status === 403)]!;
    const pending = signins.find((s) => s.status === 403)!.body;

    // Its username is held; every other one is free again at once.
    expect(await usernameIsFree(winner.username)).toBe(false);
    const others = racers.filter((r) => r !== winner);
    expect(await Promise.all(others.map((r) => usernameIsFree(r.username)))).toEqual(others.map(() => true));

    // And it completes with the winner's details.
    const done = await verify(email, await api.readCode(email), pending.registrationToken);
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe(winner.username);
    expect((await signin(email, winner.password)).status).toBe(200);
  });

  it('20 concurrent sign-ups of one username: one takes it, the others are refused and may sign up again', async () => {
    const username = uniqueName('contested');
    const emails = Array.from({ length: 20 }, () => gmail(uniqueName('contender')));
    const answers = await Promise.all(emails.map((e) => register(username, e)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.message).toBe(ACCOUNT_MESSAGES.usernameTaken);
    }
    const loser = emails[answers.findIndex((a) => a.status === 409)]!;
    const again = await register(uniqueName('second'), loser);
    expect(again.status).toBe(201);
    expect((await verify(loser, await api.readCode(loser), again.body.registrationToken)).status).toBe(200);
  });
});

describe('a username is kept only by a sign-up that can still complete', () => {
  it('signing up again with another username frees the first at once', async () => {
    const email = gmail(uniqueName('typo'));
    const first = uniqueName('first');
    const second = uniqueName('second');
    expect((await register(first, email)).status).toBe(201);
    expect((await register(second, email)).status).toBe(201);
    expect(await usernameIsFree(first)).toBe(true);
    expect(await usernameIsFree(second)).toBe(false);
  });

  it('a verified username is kept for good', async () => {
    const user = await api.registerVerifiedUser();
    expect(await usernameIsFree(user.username)).toBe(false);
    expect(await usernameIsFree(user.username.toUpperCase())).toBe(false);
  });

  it('a sign-up refused for its username leaves nothing behind: no claim of the e-mail, no event', async () => {
    const holder = await api.registerVerifiedUser();
    const count = async () =>
      Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
    const before = await count();
    const email = gmail(uniqueName('nothing'));
    expect((await register(holder.username, email)).status).toBe(409);
    expect(await count()).toBe(before);
  });
});

describe("re-registering someone else's unverified e-mail (takeover)", () => {
  it("the owner's mailed code cannot verify the attacker's password; the owner signs up again and wins", async () => {
    const email = gmail(uniqueName('victim'));
    const ownerName = uniqueName('owner');
    const attackerName = uniqueName('attacker');
    const ownerPassword = 'Owner!Passw0rd';
    const attackerPassword = 'Attack3r!Pass';

    const owner = await register(ownerName, email, ownerPassword);
    expect(owner.status).toBe(201);
    // The attacker re-registers the address with his own username and password…
    const attacker = await register(attackerName, email, attackerPassword);
    expect(attacker.status).toBe(201);
    expect(attacker.body.registrationToken).not.toBe(owner.body.registrationToken);

    // The owner types the newest code from the inbox: their page's token no longer verifies, with a clear text.
    const code = await api.readCode(email);
    const refused = await verify(email, code, owner.body.registrationToken);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(ACCOUNT_MESSAGES.registrationReplaced);
    // The code alone (no token) verifies nothing either.
    const bare = await verify(email, code);
    expect(bare.status).toBe(403);
    expect(bare.body.message).toBe(ACCOUNT_MESSAGES.registrationTokenMissing);
    // Nothing was verified: the attacker's password still only finds a pending account.
    expect((await signin(email, attackerPassword)).status).toBe(403);

    // The attacker holds a token but not the code: guessing is counted and refused.
    const guess = await verify(
      email,
      code === '000000' ? '111111' : '000000',
      attacker.body.registrationToken,
    );
    expect(guess.status).toBe(400);

    // The owner signs up again (their name, which the attacker's sign-up had freed) and verifies.
    const again = await register(ownerName, email, ownerPassword);
    expect(again.status).toBe(201);
    const done = await verify(email, await api.readCode(email), again.body.registrationToken);
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe(ownerName);

    // The attacker's password opens nothing, his token verifies nothing, his username is free again.
    expect((await signin(email, attackerPassword)).status).toBe(401);
    expect((await signin(email, ownerPassword)).status).toBe(200);
    // (A verified address answers like one nobody has: there is no sign-up of it to verify.)
    const late = await verify(email, code, attacker.body.registrationToken);
    expect([late.status, late.body.message]).toEqual([400, ACCOUNT_MESSAGES.noPendingVerification]);
    expect(await usernameIsFree(attackerName)).toBe(true);
  });

  it('the owner on another device signs in with their password to get a token, then verifies there', async () => {
    const email = gmail(uniqueName('travel'));
    const reg = await register(uniqueName('traveller'), email);
    expect(reg.status).toBe(201);
    const pending = await signin(email, TEST_PASSWORD);
    expect(pending.status).toBe(403);
    expect(pending.body).toMatchObject({ needsVerification: true, email });
    const done = await verify(email, await api.readCode(email), pending.body.registrationToken);
    expect(done.status).toBe(200);
  });
});

describe('look-alike usernames', () => {
  it.each([
    ['Cyrillic а', '\u0430dmin'],
    ['Cyrillic а and і', '\u0430dm\u0456n'],
    ['upper case', 'ADMIN'],
    ['full-width letters', 'ａｄｍｉｎ'],
    ["'rn' for 'm'", 'adrnin'],
  ])('refuses %s for the admin account\'s "admin"', async (_case, lookAlike) => {
    const res = await register(lookAlike, gmail(uniqueName('mimic')));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(ACCOUNT_MESSAGES.usernameTaken);
  });

  it("refuses a capital I for an 'l', and '0' for 'o', of a user's name", async () => {
    const user = await api.registerVerifiedUser({ username: uniqueName('lola') });
    for (const lookAlike of [user.username.replace('l', 'I'), user.username.replace('o', '0')])
      expect(await usernameIsFree(lookAlike)).toBe(false);
  });

  it('keeps the name as typed for display', async () => {
    const typed = `Zoë ${uniqueName('Qureshi')}`;
    const user = await api.registerVerifiedUser({ username: typed, email: gmail(uniqueName('zoe')) });
    expect(user.user.username).toBe(typed);
  });
});

/** The accounts routes on the test database with a clock the test moves (deps.now). */
async function startClockedAccounts(db: Database, config: TestApp['app']['config'], google?: GoogleVerifier) {
  let clock = new Date();
  const store = new PostgresEventStore(db.pool);
  const app = express();
  app.use(express.json());
  app.use(cookieParser());
  app.use(
    '/api/auth',
    accountRoutes({
      config,
      db,
      store,
      tokens: new TokenService('clocked-accounts-test-secret-0123456789', 900),
      codes: new CodeHasher('clocked-accounts-test'),
      pseudonyms: await resolvePseudonyms(db.pool),
      mailer: createMailer(config, db.knex),
      rebuilds: new RebuildRunner(db, store),
      google,
      now: () => clock,
    }),
  );
  app.use(errorHandler);
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    api: createApi(url),
    advance(seconds: number) {
      clock = new Date(clock.getTime() + seconds * 1000);
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    },
  };
}

describe('expiry', () => {
  let clocked: Awaited<ReturnType<typeof startClockedAccounts>>;
  let db: Database;
  let google: Awaited<ReturnType<typeof createGoogleTestKeys>>;
  beforeAll(async () => {
    db = connectDatabase(t.db.connectionString, { max: 3 });
    google = await createGoogleTestKeys();
    clocked = await startClockedAccounts(
      db,
      t.app.config,
      googleVerifier(GOOGLE_TEST_CLIENT_ID, google.keys),
    );
  });
  afterAll(async () => {
    await clocked?.stop();
    await db?.close();
  });

  it('a sign-up that is never verified frees its username when it expires, and can no longer be verified', async () => {
    const username = uniqueName('sleepy');
    const email = gmail(uniqueName('sleepy'));
    const reg = await register(username, email, TEST_PASSWORD, clocked.api);
    expect(reg.status).toBe(201);
    const code = await api.readCode(email);

    clocked.advance(ACCOUNT_LIMITS.registrationSeconds / 2);
    expect((await register(username, gmail(uniqueName('early')), TEST_PASSWORD, clocked.api)).status).toBe(
      409,
    );

    // The sign-up lapses after an hour: verification, resend and sign-in say so.
    clocked.advance(ACCOUNT_LIMITS.registrationSeconds / 2);
    const late = await verify(email, code, reg.body.registrationToken, clocked.api);
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(ACCOUNT_MESSAGES.registrationExpired);
    const resend = await clocked.api.post('/api/auth/resend-otp', { email });
    expect(resend.status).toBe(410);
    const lapsedSignin = await signin(email, TEST_PASSWORD, clocked.api);
    expect(lapsedSignin.status).toBe(410);
    expect(lapsedSignin.body.message).toBe(ACCOUNT_MESSAGES.registrationExpired);

    // After the grace, its username belongs to whoever signs up with it.
    clocked.advance(HOLD_GRACE_SECONDS + 1);
    const taker = gmail(uniqueName('taker'));
    const taken = await register(username, taker, TEST_PASSWORD, clocked.api);
    expect(taken.status).toBe(201);
    const done = await verify(taker, await api.readCode(taker), taken.body.registrationToken, clocked.api);
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe(username);

    // The lapsed address can sign up again, under another name.
    const fresh = await register(uniqueName('awake'), email, TEST_PASSWORD, clocked.api);
    expect(fresh.status).toBe(201);
    expect(
      (await verify(email, await api.readCode(email), fresh.body.registrationToken, clocked.api)).status,
    ).toBe(200);
  });

  it('a sign-up verified just before it lapses keeps its username for good', async () => {
    const username = uniqueName('lastminute');
    const email = gmail(username);
    const reg = await register(username, email, TEST_PASSWORD, clocked.api);
    expect(reg.status).toBe(201);
    // A minute before the sign-up lapses: a new code (valid 120 s), used at once.
    clocked.advance(ACCOUNT_LIMITS.registrationSeconds - 60);
    const resend = await clocked.api.post('/api/auth/resend-otp', {
      email,
      registrationToken: reg.body.registrationToken,
    });
    expect(resend.status).toBe(200);
    const done = await verify(email, await api.readCode(email), reg.body.registrationToken, clocked.api);
    expect(done.status).toBe(200);
    clocked.advance(24 * 3600);
    expect((await register(username, gmail(uniqueName('late')), TEST_PASSWORD, clocked.api)).status).toBe(
      409,
    );
  });

  it('Google on a lapsed sign-up registers afresh under its own name; on a live one it keeps the name for good', async () => {
    const squatted = uniqueName('squatted');
    const email = gmail(squatted);
    expect((await register(squatted, email, 'Squatt3r!Pass', clocked.api)).status).toBe(201);
    clocked.advance(ACCOUNT_LIMITS.registrationSeconds + HOLD_GRACE_SECONDS + 1);
    const credential = await google.sign({ email, name: uniqueName('Google Name ') });
    const login = await clocked.api.post('/api/auth/login-google', { credential });
    expect(login.body).toMatchObject({ needsUserType: true, email });
    const done = await clocked.api.post('/api/auth/complete-google-registration', {
      email,
      username: login.body.username,
      isVeterinarian: false,
      credential,
    });
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe(login.body.username);
    expect((await signin(email, 'Squatt3r!Pass', clocked.api)).status).toBe(401);
    // The read model shows the Google registration, verified, under Google's name.
    const profile = await api.get(`/api/auth/profile/${done.body.user.id}`, undefined, {
      'X-Consistent-After': done.body.position,
    });
    expect(profile.status).toBe(200);
    expect(profile.body.data.username).toBe(login.body.username);
    // The lapsed sign-up's name is free; Google's is kept.
    expect(await usernameIsFree(squatted, clocked.api)).toBe(true);
    expect(await usernameIsFree(login.body.username, clocked.api)).toBe(false);

    // A live sign-up proven by Google: verified, its name confirmed, kept past the sign-up's expiry.
    const live = uniqueName('live');
    const liveEmail = gmail(live);
    expect((await register(live, liveEmail, TEST_PASSWORD, clocked.api)).status).toBe(201);
    const linked = await clocked.api.post('/api/auth/login-google', {
      credential: await google.sign({ email: liveEmail }),
    });
    expect(linked.status).toBe(200);
    expect(linked.body.user.username).toBe(live);
    clocked.advance(ACCOUNT_LIMITS.registrationSeconds + HOLD_GRACE_SECONDS + 1);
    expect((await register(live, gmail(uniqueName('after')), TEST_PASSWORD, clocked.api)).status).toBe(409);
  });
});

describe("the first version's username claims", () => {
  it('are migrated once at start: verified names are kept (look-alikes refused), lapsed sign-ups free theirs', async () => {
    const db = await createTestDatabase({ max: 5 });
    let app: TestApp | undefined;
    try {
      const store = new PostgresEventStore(db.pool);
      const old = new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString();
      const legacyUser = async (username: string, email: string, verified: boolean) => {
        const userId = randomUUID();
        const meta = { actorId: userId };
        await store.append(
          `user-email-${email}`,
          [{ type: 'EmailClaimed', data: { userId }, metadata: meta }],
          'no_stream',
        );
        await store.append(
          `username-${username.trim().toLowerCase()}`,
          [{ type: 'UsernameClaimed', data: { userId }, metadata: meta }],
          'no_stream',
        );
        await store.append(
          `user-${userId}`,
          [
            {
              type: 'UserRegistered',
              data: {
                userId,
                username,
                email,
                passwordHash: await hashPassword(TEST_PASSWORD),
                isVeterinarian: false,
                isAdmin: false,
                via: 'password',
                registeredAt: old,
              },
              metadata: meta,
            },
            { type: 'RegistrationCodeIssued', data: { codeHash: 'x', expiresAt: old }, metadata: meta },
            ...(verified ? [{ type: 'EmailVerified', data: { verifiedAt: old }, metadata: meta }] : []),
          ],
          'no_stream',
        );
      };
      await legacyUser('Bilal Legacy', 'bilal.legacy@gmail.com', true);
      await legacyUser('Never Verified', 'never.verified@gmail.com', false);
      // The first version wrote these long before the upgrade started; here they are seconds old, and the global log
      // shows a transaction only once every older one in the server ended (other test files run some): wait for them.
      const written = Number(
        (await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events`)).rows[0]!.n,
      );
      for (let visible = 0, tries = 0; visible < written && tries < 500; tries++) {
        visible = 0;
        for await (const _ of store.readAll(START)) visible++;
        if (visible < written) await new Promise((r) => setTimeout(r, 20));
      }
      await store.close();

      app = await startTestApp({ db });
      const client = app.api;
      // The verified legacy account signs in as before, and its name (and look-alikes) stay taken.
      expect((await signin('bilal.legacy@gmail.com', TEST_PASSWORD, client)).status).toBe(200);
      for (const name of ['Bilal Legacy', 'bilal legacy', '\u0412ilal Legacy', 'BiIal Legacy']) {
        const res = await register(name, gmail(uniqueName('copy')), TEST_PASSWORD, client);
        expect({ name, status: res.status }).toEqual({ name, status: 409 });
      }
      // The lapsed legacy sign-up's name is free again.
      expect(
        (await register('Never Verified', gmail(uniqueName('heir')), TEST_PASSWORD, client)).status,
      ).toBe(201);
      // A second start does not migrate again.
      await app.stop();
      app = await startTestApp({ db });
      const markers = await db.pool.query('SELECT count(*)::int AS n FROM events WHERE stream_id = $1', [
        USERNAME_MIGRATION_STREAM,
      ]);
      expect(markers.rows[0].n).toBe(1);
    } finally {
      await app?.stop();
      await db.drop();
    }
  });
});

describe('the demo accounts', () => {
  it('are made through the same sign-up and verification, their names confirmed', async () => {
    const demo = await startTestApp({ demoData: true });
    try {
      expect(demo.app.demoUsers.map((u) => u.username)).toContain('Dr Ayesha Khan');
      expect((await signin('ayesha.vet@gmail.com', DEMO_PASSWORD, demo.api)).status).toBe(200);
      const copy = await register('Dr \u0410yesha Khan', gmail(uniqueName('copy')), TEST_PASSWORD, demo.api);
      expect(copy.status).toBe(409);
    } finally {
      await demo.stop();
    }
  });
});
