import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import { recordedEvents } from '@pawhaven/platform/testing';
import {
  createGoogleTestKeys,
  GOOGLE_TEST_CLIENT_ID,
  sessionCookie,
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type GoogleTestKeys,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * Every command of the auth root over real HTTP: the whole product on a fresh database, no mocks.
 * Each test makes its own users unless it only reads a shared one.
 */

let t: TestApp;
let api: TestApi;
let google: GoogleTestKeys;

beforeAll(async () => {
  google = await createGoogleTestKeys();
  t = await startTestApp({ googleKeys: google.keys, config: { GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID } });
  api = t.api;
});
afterAll(async () => {
  await t?.stop();
});

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** Runs `fn` and checks that it appended no event. */
async function withoutNewEvents<T>(fn: () => Promise<T>): Promise<T> {
  const before = await eventCount();
  const result = await fn();
  expect(await eventCount()).toBe(before);
  return result;
}

const gmail = (name: string) => `${name.toLowerCase()}@gmail.com`;
const consistentAfter = (position: string) => ({ 'X-Consistent-After': position });

/** Registers without verifying; answers the email and the mailed code. */
async function registerPending(
  opts: { username?: string; password?: string; isVeterinarian?: boolean } = {},
) {
  const username = opts.username ?? uniqueName();
  const email = gmail(username);
  const res = await api.post('/api/auth/register', {
    username,
    email,
    password: opts.password ?? TEST_PASSWORD,
    isVeterinarian: opts.isVeterinarian ?? false,
  });
  expect(res.status).toBe(201);
  const token: string = res.body.registrationToken;
  return { username, email, token, code: await api.readCode(email) };
}

/** The sign-up's own verification: the mailed code with the token /register answered. */
const verifyRegistration = (email: string, otp: string, registrationToken?: string) =>
  api.post('/api/auth/verify-registration', { email, otp, registrationToken });

const signin = (email: string, password: string, rememberMe = false) =>
  api.post('/api/auth/signin', { email, password, rememberMe });

const userIdOf = async (email: string) =>
  (await t.db.pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]?.id;

describe('POST /api/auth/register', () => {
  it('creates a pending account: 201 with the email, a code in the mailbox and events appended', async () => {
    const username = uniqueName('Reg ');
    const email = gmail(username.replace(' ', ''));
    const before = await eventCount();
    const res = await api.post('/api/auth/register', {
      username,
      email: `  ${email.toUpperCase()} `,
      password: TEST_PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, message: ACCOUNT_MESSAGES.registered });
    expect(res.body.registrationToken).toMatch(/^[\w-]{43}$/);
    expect(res.body.position).toMatch(/^\d+$/);
    expect(await eventCount()).toBeGreaterThan(before);
    expect(await api.readCode(email)).toMatch(/^\d{6}$/);
    // Not verified yet: signing in is refused.
    expect((await signin(email, TEST_PASSWORD)).status).toBe(403);
  });

  it.each([
    ['another provider', 'someone@yahoo.com'],
    ['a look-alike domain', 'someone@gmail.com.evil.com'],
    ['two addresses', 'a@gmail.com,b@gmail.com'],
    ['no local part', '@gmail.com'],
  ])('refuses %s with 400 "Please enter a valid Gmail address" and appends nothing', async (_case, email) => {
    const res = await withoutNewEvents(() =>
      api.post('/api/auth/register', { username: uniqueName(), email, password: TEST_PASSWORD }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      message: 'Please enter a valid Gmail address',
      error: 'Please enter a valid Gmail address',
    });
  });

  it.each([
    [
      'abc',
      'Password must have: At least 8 characters, One uppercase letter, One number, One special character',
    ],
    ['ALLUPPER1!', 'Password must have: One lowercase letter'],
    ['Password1', 'Password must have: One special character'],
    ['password', 'Password must have: One uppercase letter, One number, One special character'],
    ['Sh0rt!', 'Password must have: At least 8 characters'],
  ])(
    'refuses the weak password %j with the exact missing labels, appending nothing',
    async (password, message) => {
      const name = uniqueName();
      const res = await withoutNewEvents(() =>
        api.post('/api/auth/register', { username: name, email: gmail(name), password }),
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.error).toBe(message);
    },
  );

  it('names the missing field: username, email, password', async () => {
    const name = uniqueName();
    const cases: [Record<string, unknown>, string][] = [
      [{ email: gmail(name), password: TEST_PASSWORD }, 'Username is required'],
      [{ username: '   ', email: gmail(name), password: TEST_PASSWORD }, 'Username is required'],
      [{ username: name, password: TEST_PASSWORD }, 'Email is required'],
      [{ username: name, email: '', password: TEST_PASSWORD }, 'Email is required'],
      [{ username: name, email: gmail(name) }, 'Password is required'],
      [{ username: name, email: gmail(name), password: '' }, 'Password is required'],
    ];
    await withoutNewEvents(async () => {
      for (const [body, message] of cases) {
        const res = await api.post('/api/auth/register', body);
        expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
      }
    });
  });

  it('answers the e-mail of a verified account like a new sign-up, appending nothing and mailing its owner', async () => {
    const existing = await api.registerVerifiedUser();
    const res = await withoutNewEvents(() =>
      api.post('/api/auth/register', {
        username: uniqueName(),
        email: existing.email.toUpperCase(),
        password: 'An0ther!Passw0rd',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: existing.email, message: ACCOUNT_MESSAGES.registered });
    expect(res.body.registrationToken).toMatch(/^[\w-]{43}$/);
    expect(res.body.position).toMatch(/^\d+$/);
    const mails = await api.get(`/dev/mailbox?to=${encodeURIComponent(existing.email)}`);
    expect(mails.body[0].subject).toBe('Someone tried to sign up with your PawHaven email');
    // The account is untouched: its password still opens it, the other one does not.
    expect((await signin(existing.email, 'An0ther!Passw0rd')).status).toBe(401);
    expect((await signin(existing.email, existing.password)).status).toBe(200);
  });

  it('answers 409 for a username already taken (whatever its case), appending nothing', async () => {
    const existing = await api.registerVerifiedUser();
    const other = uniqueName();
    const res = await withoutNewEvents(() =>
      api.post('/api/auth/register', {
        username: existing.username.toUpperCase(),
        email: gmail(other),
        password: TEST_PASSWORD,
      }),
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(ACCOUNT_MESSAGES.usernameTaken);
  });

  it('answers 400 for a body that is not JSON, appending nothing', async () => {
    const res = await withoutNewEvents(() =>
      api.request('POST', '/api/auth/register', {
        raw: '{"username": "x", ',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is not valid JSON');
  });

  it('lets an unverified sign-up start over: new details, a new code and token, the old ones void', async () => {
    const first = await registerPending({ isVeterinarian: false });
    const res = await api.post('/api/auth/register', {
      username: uniqueName(),
      email: first.email,
      password: 'An0ther!Passw0rd',
      isVeterinarian: true,
    });
    expect(res.status).toBe(201);
    const code = await api.readCode(first.email);
    const token = res.body.registrationToken;
    if (code !== first.code)
      expect((await verifyRegistration(first.email, first.code, token)).status).toBe(400);
    const replaced = await verifyRegistration(first.email, code, first.token);
    expect(replaced.status).toBe(409);
    expect(replaced.body.message).toBe(ACCOUNT_MESSAGES.registrationReplaced);
    const ok = await verifyRegistration(first.email, code, token);
    expect(ok.status).toBe(200);
    expect(ok.body.user.isVeterinarian).toBe(true);
    expect((await signin(first.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signin(first.email, 'An0ther!Passw0rd')).status).toBe(200);
  });
});

describe('POST /api/auth/verify-registration', () => {
  it('refuses a wrong code with 400 "Invalid verification code"', async () => {
    const { email, code, token } = await registerPending();
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await verifyRegistration(email, wrong, token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid verification code');
    expect((await signin(email, TEST_PASSWORD)).status).toBe(403);
  });

  it('allows 5 wrong attempts, then refuses even the right code until a new one is sent', async () => {
    const { email, code, token } = await registerPending();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await verifyRegistration(email, wrong, token);
      expect(res.body.message).toBe('Invalid verification code');
    }
    const locked = await verifyRegistration(email, code, token);
    expect(locked.status).toBe(400);
    expect(locked.body.message).toBe('Too many wrong attempts. Please request a new code.');

    expect((await api.post('/api/auth/resend-otp', { email })).status).toBe(200);
    const fresh = await verifyRegistration(email, await api.readCode(email), token);
    expect(fresh.status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const { email, code, token } = await registerPending();
    const userId = (await userIdOrFromEvents(email))!;
    // The code's validity is two minutes: re-issue the very same code hash with an expiry in the past, the way the
    // aggregate would have recorded it two minutes ago. The route then sees the mailed code as expired.
    const last = await t.db.pool.query<{ data: { codeHash: string } }>(
      `SELECT data FROM events WHERE stream_id = $1 AND type = 'RegistrationCodeIssued' ORDER BY position DESC LIMIT 1`,
      [`user-${userId}`],
    );
    const store = new PostgresEventStore(t.db.pool);
    try {
      await store.append(
        `user-${userId}`,
        [
          {
            type: 'RegistrationCodeIssued',
            data: {
              codeHash: last.rows[0]!.data.codeHash,
              expiresAt: new Date(Date.now() - 1000).toISOString(),
            },
          },
        ],
        'any',
      );
    } finally {
      await store.close();
    }
    const res = await verifyRegistration(email, code, token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The verification code has expired. Please request a new one.');
  });

  it('accepts the mailed code (200 with the user), after which sign-in works and a second verification is refused', async () => {
    const { email, code, username, token } = await registerPending({ isVeterinarian: true });
    const res = await api.post('/api/auth/verify-registration', {
      email: email.toUpperCase(),
      otp: ` ${code} `,
      registrationToken: token,
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(ACCOUNT_MESSAGES.verified);
    expect(res.body.user).toMatchObject({
      email,
      username,
      isVeterinarian: true,
      isAdmin: false,
      userType: 'Veterinarian',
    });
    expect(res.body.user._id).toBe(res.body.user.id);

    const login = await signin(email, TEST_PASSWORD);
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(res.body.user.id);

    // Verified: answered like an unknown address (saying 'already verified' would tell that it has an account).
    const again = await verifyRegistration(email, code, token);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(ACCOUNT_MESSAGES.noPendingVerification);
  });

  it('validates its input and refuses unknown e-mails, appending nothing', async () => {
    await withoutNewEvents(async () => {
      const noCode = await api.post('/api/auth/verify-registration', { email: gmail(uniqueName()) });
      expect(noCode.status).toBe(400);
      expect(noCode.body.message).toBe('Please enter the verification code.');
      const unknown = await api.post('/api/auth/verify-registration', {
        email: gmail(uniqueName()),
        otp: '123456',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe('No pending verification for this email');
    });
  });
});

/** The user id of a pending user (the read model has the row as soon as the projection ran). */
async function userIdOrFromEvents(email: string): Promise<string | undefined> {
  const [claim] = await recordedEvents(t.db, `user-email-${email}`);
  return (claim?.data as { userId?: string } | undefined)?.userId ?? (await userIdOf(email));
}

describe('POST /api/auth/resend-otp', () => {
  it('mails a new code that works, while the old one no longer does', async () => {
    const { email, code: oldCode, token } = await registerPending();
    const res = await api.post('/api/auth/resend-otp', { email, registrationToken: token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('New OTP sent successfully! Check your email.');
    const newCode = await api.readCode(email);
    expect(newCode).not.toBe(oldCode);

    const old = await verifyRegistration(email, oldCode, token);
    expect(old.status).toBe(400);
    expect(old.body.message).toBe('Invalid verification code');
    expect((await verifyRegistration(email, newCode, token)).status).toBe(200);
  });

  it('needs an e-mail, refuses unknown and already verified ones', async () => {
    const missing = await api.post('/api/auth/resend-otp', {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Email is required to resend OTP');

    const unknown = await api.post('/api/auth/resend-otp', { email: gmail(uniqueName()) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('No pending verification for this email');

    const verified = await api.registerVerifiedUser();
    const again = await api.post('/api/auth/resend-otp', { email: verified.email });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(ACCOUNT_MESSAGES.noPendingVerification);
  });
});

describe('POST /api/auth/signin', () => {
  let user: RegisteredUser;
  beforeAll(async () => {
    user = await api.registerVerifiedUser();
  });

  it('answers 401 "Invalid email or password" for a wrong password or an unknown e-mail, appending nothing', async () => {
    await withoutNewEvents(async () => {
      for (const [email, password] of [
        [user.email, 'Wr0ng!Password'],
        [gmail(uniqueName()), TEST_PASSWORD],
      ] as const) {
        const res = await signin(email, password);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({
          message: 'Invalid email or password',
          error: 'Invalid email or password',
        });
        expect(sessionCookie(res.headers)).toBeNull();
      }
    });
  });

  it('requires e-mail and password', async () => {
    const res = await api.post('/api/auth/signin', { email: user.email });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Email and password are required');
  });

  it('refuses an unverified account with 403 needsVerification, mails a new code and hands out a token for it', async () => {
    const { email, code, token } = await registerPending();
    const mailsBefore = (await api.get(`/dev/mailbox?to=${email}`)).body.length;
    const res = await signin(email, TEST_PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      needsVerification: true,
      email,
      message: ACCOUNT_MESSAGES.emailNotVerified,
    });
    expect(res.body.token).toBeUndefined();
    expect(sessionCookie(res.headers)).toBeNull();
    expect((await api.get(`/dev/mailbox?to=${email}`)).body.length).toBe(mailsBefore + 1);
    // The sign-in's token (another browser) verifies the same sign-up as the sign-up's own token would.
    const newToken = res.body.registrationToken;
    expect(newToken).toMatch(/^[\w-]{43}$/);
    expect(newToken).not.toBe(token);
    const newCode = await api.readCode(email);
    if (newCode !== code) expect((await verifyRegistration(email, code, newToken)).status).toBe(400);
    expect((await verifyRegistration(email, newCode, newToken)).status).toBe(200);
  });

  it('answers a token that opens protected reads, and the user', async () => {
    const res = await signin(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({ id: user.user.id, email: user.email, username: user.username });
    const profile = await api.get('/api/auth/profile', res.body.token, consistentAfter(res.body.position));
    expect(profile.status).toBe(200);
    expect(profile.body.user.id).toBe(user.user.id);
  });

  it('with remember-me sets a persistent httpOnly session cookie (Max-Age); without it a browser-session cookie', async () => {
    const remembered = await signin(user.email, user.password, true);
    const persistent = remembered.headers.getSetCookie().find((c) => c.startsWith('ph_session='))!;
    expect(persistent).toMatch(/;\s*Max-Age=2592000/i);
    expect(persistent).toMatch(/;\s*HttpOnly/i);
    expect(persistent).toMatch(/;\s*Path=\/api\/auth/i);
    expect(persistent).toMatch(/;\s*SameSite=Lax/i);

    const session = await signin(user.email, user.password, false);
    const browserSession = session.headers.getSetCookie().find((c) => c.startsWith('ph_session='))!;
    expect(browserSession).toMatch(/;\s*HttpOnly/i);
    expect(browserSession).not.toMatch(/Max-Age/i);
    expect(browserSession).not.toMatch(/Expires/i);
  });
});

describe('sessions: POST /api/auth/refresh and /signout', () => {
  it('refresh with the session cookie answers a new working token and the user', async () => {
    const user = await api.registerVerifiedUser();
    const res = await api.request('POST', '/api/auth/refresh', { headers: { cookie: user.cookie } });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.user.id);
    const profile = await api.get('/api/auth/profile', res.body.token, consistentAfter(user.position));
    expect(profile.status).toBe(200);
    expect(profile.body.user.email).toBe(user.email);
  });

  it('refresh without a cookie, or with a forged one, answers 401', async () => {
    const user = await api.registerVerifiedUser();
    expect((await api.post('/api/auth/refresh')).status).toBe(401);
    const [userId, sessionId] = user.cookie.slice('ph_session='.length).split('.');
    const forged = await api.request('POST', '/api/auth/refresh', {
      headers: { cookie: `ph_session=${userId}.${sessionId}.not-the-secret` },
    });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe('Your session has ended. Please sign in again.');
  });

  it('sign-out revokes the session: the cookie stops refreshing and the old access token is refused', async () => {
    const user = await api.registerVerifiedUser();
    const out = await api.request('POST', '/api/auth/signout', {
      token: user.token,
      headers: { cookie: user.cookie },
    });
    expect(out.status).toBe(200);
    expect(out.body.message).toBe('Signed out successfully!');
    expect(out.body.position).toMatch(/^\d+$/);
    expect(out.headers.getSetCookie().some((c) => /^ph_session=;.*Expires=Thu, 01 Jan 1970/i.test(c))).toBe(
      true,
    );

    const refresh = await api.request('POST', '/api/auth/refresh', { headers: { cookie: user.cookie } });
    expect(refresh.status).toBe(401);

    const read = await api.get('/api/auth/profile', user.token, consistentAfter(out.body.position));
    expect(read.status).toBe(401);
    expect(read.body.message).toBe('Your session has ended. Please sign in again.');
    // The write side refuses it too, once the revocation is projected (it is: the read above waited for it).
    const write = await api.post('/api/auth/update-profile', { city: 'Lahore' }, user.token);
    expect(write.status).toBe(401);
  });

  it('a read carrying the sign-out position is refused even when the revocation is projected slowly', async () => {
    const user = await api.registerVerifiedUser();
    const sessionId = (
      JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()) as { sid: string }
    ).sid;
    await api.get('/api/config', undefined, consistentAfter(user.position)); // the session row exists
    const client = await t.db.pool.connect();
    let release: Promise<void> | undefined;
    try {
      await client.query('BEGIN');
      // Hold the session's read-model row: the sessions projection cannot record the revocation until released.
      await client.query('SELECT id FROM sessions WHERE id = $1 FOR UPDATE', [sessionId]);
      const out = await api.post('/api/auth/signout', {}, user.token);
      expect(out.status).toBe(200);
      release = new Promise((resolve) => setTimeout(resolve, 300)).then(async () => {
        await client.query('COMMIT');
      });
      // The read must wait for the projection to pass the sign-out before it checks the token.
      const read = await api.get('/api/auth/profile', user.token, consistentAfter(out.body.position));
      expect(read.status).toBe(401);
    } finally {
      if (release) await release;
      else await client.query('ROLLBACK');
      client.release();
    }
  });

  it('sign-out ends only that session: another sign-in of the same user keeps working', async () => {
    const user = await api.registerVerifiedUser();
    const other = await signin(user.email, user.password);
    const out = await api.post('/api/auth/signout', {}, user.token);
    expect(out.status).toBe(200);
    const read = await api.get('/api/auth/profile', other.body.token, consistentAfter(out.body.position));
    expect(read.status).toBe(200);
  });

  it('sign-out works with the cookie alone, and without token or cookie answers 401 "No token provided"', async () => {
    const user = await api.registerVerifiedUser();
    const out = await api.request('POST', '/api/auth/signout', { headers: { cookie: user.cookie } });
    expect(out.status).toBe(200);
    expect(
      (await api.request('POST', '/api/auth/refresh', { headers: { cookie: user.cookie } })).status,
    ).toBe(401);

    const none = await api.post('/api/auth/signout');
    expect(none.status).toBe(401);
    expect(none.body.message).toBe('No token provided');
  });
});

describe('password reset: forgot-password → verify-reset-code → reset-password', () => {
  const newPassword = 'N3w!Password';

  it('refuses another domain with the reset wording; unknown e-mails are answered as known ones, appending nothing', async () => {
    await withoutNewEvents(async () => {
      const domain = await api.post('/api/auth/forgot-password', { email: 'someone@hotmail.com' });
      expect(domain.status).toBe(400);
      expect(domain.body.message).toBe('Please enter a valid Gmail address to reset password.');

      const unknown = await api.post('/api/auth/forgot-password', { email: gmail(uniqueName()) });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ message: ACCOUNT_MESSAGES.resetCodeSent });

      const verifyUnknown = await api.post('/api/auth/verify-reset-code', {
        email: gmail(uniqueName()),
        code: '123456',
      });
      expect(verifyUnknown.status).toBe(400);
      expect(verifyUnknown.body.message).toBe(ACCOUNT_MESSAGES.codeInvalid);
    });
  });

  it('resets the password with the mailed code: old sessions end, the code is single-use, only the new password works', async () => {
    const user = await api.registerVerifiedUser();
    const sent = await api.post('/api/auth/forgot-password', { email: user.email });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe(ACCOUNT_MESSAGES.resetCodeSent);
    const code = await api.readCode(user.email);
    const wrong = code === '000000' ? '111111' : '000000';

    const bad = await api.post('/api/auth/verify-reset-code', { email: user.email, code: wrong });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid verification code');

    const verified = await api.post('/api/auth/verify-reset-code', { email: user.email, code });
    expect(verified.status).toBe(200);
    expect(verified.body.message).toBe('Code verified. You can now choose a new password.');

    const weak = await api.post('/api/auth/reset-password', {
      email: user.email,
      code,
      newPassword: 'weakpass',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe(
      'Password must have: One uppercase letter, One number, One special character',
    );

    const wrongReset = await api.post('/api/auth/reset-password', {
      email: user.email,
      code: wrong,
      newPassword,
    });
    expect(wrongReset.status).toBe(400);
    expect(wrongReset.body.message).toBe('Invalid verification code');

    const reset = await api.post('/api/auth/reset-password', { email: user.email, code, newPassword });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Password reset successfully! You can now sign in.');

    // Every session of the old password ends.
    expect(
      (await api.request('POST', '/api/auth/refresh', { headers: { cookie: user.cookie } })).status,
    ).toBe(401);
    const read = await api.get('/api/auth/profile', user.token, consistentAfter(reset.body.position));
    expect(read.status).toBe(401);

    // The code is spent.
    const again = await api.post('/api/auth/reset-password', {
      email: user.email,
      code,
      newPassword: 'Th1rd!Password',
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Invalid verification code');

    expect((await signin(user.email, user.password)).status).toBe(401);
    expect((await signin(user.email, newPassword)).status).toBe(200);
  });

  it('allows 5 wrong reset codes, then refuses even the right one until a new code is requested', async () => {
    const user = await api.registerVerifiedUser();
    const none = await api.post('/api/auth/verify-reset-code', { email: user.email, code: '123456' });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Invalid verification code');

    await api.post('/api/auth/forgot-password', { email: user.email });
    const code = await api.readCode(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/api/auth/verify-reset-code', { email: user.email, code: wrong });
      expect(res.body.message).toBe('Invalid verification code');
    }
    const locked = await api.post('/api/auth/reset-password', { email: user.email, code, newPassword });
    expect(locked.status).toBe(400);
    expect(locked.body.message).toBe('Too many wrong attempts. Please request a new code.');
    expect((await signin(user.email, newPassword)).status).toBe(401);

    await api.post('/api/auth/resend-reset-code', { email: user.email });
    const fresh = await api.readCode(user.email);
    expect(
      (await api.post('/api/auth/reset-password', { email: user.email, code: fresh, newPassword })).status,
    ).toBe(200);
  });

  it('resend-reset-code mails a new code; the previous one no longer works', async () => {
    const user = await api.registerVerifiedUser();
    await api.post('/api/auth/forgot-password', { email: user.email });
    const first = await api.readCode(user.email);
    const resent = await api.post('/api/auth/resend-reset-code', { email: user.email });
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe('Verification code resent! Check your email.');
    const second = await api.readCode(user.email);
    expect(second).not.toBe(first);
    expect((await api.post('/api/auth/verify-reset-code', { email: user.email, code: first })).status).toBe(
      400,
    );
    expect(
      (await api.post('/api/auth/reset-password', { email: user.email, code: second, newPassword })).status,
    ).toBe(200);
  });

  it('a reset code also verifies the e-mail of an account that never verified it', async () => {
    const { email } = await registerPending();
    expect((await api.post('/api/auth/forgot-password', { email })).status).toBe(200);
    const code = await api.readCode(email);
    expect((await api.post('/api/auth/reset-password', { email, code, newPassword })).status).toBe(200);
    expect((await signin(email, newPassword)).status).toBe(200);
  });
});

describe('POST /api/auth/change-password', () => {
  it('refuses a wrong current password with 400 "Current password is incorrect"', async () => {
    const user = await api.registerVerifiedUser();
    const res = await api.post(
      '/api/auth/change-password',
      { id: user.user.id, currentPassword: 'Wr0ng!Password', newPassword: 'N3w!Password' },
      user.token,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Current password is incorrect');
    expect((await signin(user.email, user.password)).status).toBe(200);
  });

  it('refuses a weak new password with the requirement text, appending nothing', async () => {
    const user = await api.registerVerifiedUser();
    const res = await withoutNewEvents(() =>
      api.post(
        '/api/auth/change-password',
        { id: user.user.id, currentPassword: user.password, newPassword: 'short' },
        user.token,
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Password must have: At least 8 characters, One uppercase letter, One number, One special character',
    );
  });

  it("refuses another user's id with 403, and a call without token with 401", async () => {
    const user = await api.registerVerifiedUser();
    const other = await api.registerVerifiedUser();
    const body = { id: other.user.id, currentPassword: user.password, newPassword: 'N3w!Password' };
    const res = await withoutNewEvents(() => api.post('/api/auth/change-password', body, user.token));
    expect(res.status).toBe(403);
    const anonymous = await api.post('/api/auth/change-password', body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('No token provided');
    expect((await signin(other.email, other.password)).status).toBe(200);
  });

  it('changes the password: the new one signs in, the old one no longer', async () => {
    const user = await api.registerVerifiedUser();
    const res = await api.post(
      '/api/auth/change-password',
      { id: user.user.id, currentPassword: user.password, newPassword: 'Chang3d!Password' },
      user.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Password changed successfully!');
    expect((await signin(user.email, user.password)).status).toBe(401);
    expect((await signin(user.email, 'Chang3d!Password')).status).toBe(200);
  });
});

describe('POST /api/auth/update-profile', () => {
  let user: RegisteredUser;
  beforeAll(async () => {
    user = await api.registerVerifiedUser();
  });

  it.each(['12345', 'call me', '+92 300 abc 4567', '++923001234567'])(
    'refuses the phone %j with "Please enter a valid phone number", appending nothing',
    async (phone) => {
      const res = await withoutNewEvents(() =>
        api.post('/api/auth/update-profile', { id: user.user.id, phone }, user.token),
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Please enter a valid phone number');
    },
  );

  it('updates phone, city and about, ignores username and email, and the read model shows it', async () => {
    const res = await api.post(
      '/api/auth/update-profile',
      {
        id: user.user.id,
        phone: '+92 300-1234567',
        city: ' Karachi ',
        about: 'I foster kittens.',
        username: 'hijacked',
        email: 'hijacked@gmail.com',
        isAdmin: true,
      },
      user.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profile updated successfully!');
    expect(res.body.user).toMatchObject({
      id: user.user.id,
      username: user.username,
      email: user.email,
      phone: '+92 300-1234567',
      city: 'Karachi',
      about: 'I foster kittens.',
      isAdmin: false,
    });

    const profile = await api.get('/api/auth/profile', user.token, consistentAfter(res.body.position));
    expect(profile.status).toBe(200);
    expect(profile.headers.get('x-consistency')).toBe('consistent');
    expect(profile.body.user).toMatchObject({
      username: user.username,
      email: user.email,
      phone: '+92 300-1234567',
      city: 'Karachi',
      about: 'I foster kittens.',
      isAdmin: false,
    });
  });

  it("refuses another user's id with 403 and a missing token with 401", async () => {
    const other = await api.registerVerifiedUser();
    const forbidden = await api.post(
      '/api/auth/update-profile',
      { id: other.user.id, city: 'Quetta' },
      user.token,
    );
    expect(forbidden.status).toBe(403);
    const anonymous = await api.post('/api/auth/update-profile', { city: 'Quetta' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('No token provided');
  });
});

describe('profile image: POST /api/auth/upload-profile-image and DELETE /api/auth/remove-profile-image', () => {
  let user: RegisteredUser;
  beforeAll(async () => {
    user = await api.registerVerifiedUser();
  });

  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .png()
      .toBuffer();
  const upload = (
    bytes: Uint8Array,
    filename = 'me.png',
    type = 'image/png',
    token: string | undefined = user.token,
  ) => api.upload('/api/auth/upload-profile-image', { field: 'image', bytes, filename, type }, token);

  it('stores a real PNG as a 400x400 WebP served at data.profileImage', async () => {
    const res = await upload(await png(800, 600));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Profile image uploaded successfully!');
    const path: string = res.body.data.profileImage;
    expect(path).toMatch(/^\/api\/images\/[a-f0-9]{24}$/);
    expect(res.body.user.profileImage).toBe(path);

    const image = await fetch(t.url + path);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('cache-control')).toBe('public, max-age=300');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: 400,
      height: 400,
    });

    const profile = await api.get('/api/auth/profile', user.token, consistentAfter(res.body.position));
    expect(profile.body.user.profileImage).toBe(path);
  });

  it('refuses a text file named .png with 415 "Please select a valid image file", appending nothing', async () => {
    const res = await withoutNewEvents(() =>
      upload(new TextEncoder().encode('this is not an image at all\n'.repeat(20))),
    );
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Please select a valid image file');
  });

  it('refuses files of 5 MB and more with 413 "Image size should be less than 5MB"', async () => {
    const head = await png(10, 10);
    for (const size of [5 * 1024 * 1024, 6 * 1024 * 1024]) {
      const bytes = new Uint8Array(size);
      bytes.set(head);
      const res = await withoutNewEvents(() => upload(bytes));
      expect({ size, status: res.status, message: res.body.message }).toEqual({
        size,
        status: 413,
        message: 'Image size should be less than 5MB',
      });
    }
  });

  it('answers 401 "No token provided" without a token, and 400 without a file', async () => {
    const res = await api.upload('/api/auth/upload-profile-image', {
      field: 'image',
      bytes: await png(10, 10),
      filename: 'me.png',
      type: 'image/png',
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('No token provided');

    const form = new FormData();
    form.append('caption', 'no image here');
    const empty = await api.request('POST', '/api/auth/upload-profile-image', { form, token: user.token });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Please select a valid image file');
  });

  it('removes the image: success, user.profileImage null, and the read model follows', async () => {
    const owner = await api.registerVerifiedUser();
    const up = await upload(await png(50, 50), 'me.png', 'image/png', owner.token);
    expect(up.status).toBe(200);

    const res = await api.del('/api/auth/remove-profile-image', owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Profile image removed successfully!' });
    expect(res.body.user.profileImage).toBeNull();
    const profile = await api.get('/api/auth/profile', owner.token, consistentAfter(res.body.position));
    expect(profile.body.user.profileImage).toBeNull();

    // Removing again is harmless and records nothing.
    const again = await withoutNewEvents(() => api.del('/api/auth/remove-profile-image', owner.token));
    expect(again.status).toBe(200);
    expect((await api.del('/api/auth/remove-profile-image')).status).toBe(401);
  });
});

describe('the admin account', () => {
  it('is created on the first start: its credentials sign in as an admin with a persistent session', async () => {
    const creds = t.adminCredentials;
    expect(creds).not.toBeNull();
    expect(creds!.email).toBe('admin@pawhaven.local');
    const res = await signin(creds!.email, creds!.password);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ isAdmin: true, userType: 'Admin', email: creds!.email });
    // Admin logins are always stored persistently.
    expect(res.headers.getSetCookie().find((c) => c.startsWith('ph_session='))).toMatch(/Max-Age=\d+/);
  });

  it('is not created again by a second start on the same database: no credentials, the first ones still work', async () => {
    const second = await startTestApp({ db: t.db });
    try {
      expect(second.adminCredentials).toBeNull();
      const res = await second.api.post('/api/auth/signin', {
        email: t.adminCredentials!.email,
        password: t.adminCredentials!.password,
      });
      expect(res.status).toBe(200);
      expect(res.body.user.isAdmin).toBe(true);
    } finally {
      await second.stop();
    }
    const admins = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'UserRegistered' AND data->>'isAdmin' = 'true'`,
    );
    expect(admins.rows[0].n).toBe(1);
  });
});

describe('Google sign-in', () => {
  it('login-google with a token for a new address asks for the user type and records nothing', async () => {
    const email = gmail(uniqueName('g'));
    const credential = await google.sign({ email, name: 'Ayesha Khan' });
    const res = await withoutNewEvents(() => api.post('/api/auth/login-google', { credential }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ needsUserType: true, email, username: 'Ayesha Khan' });
    expect(res.body.token).toBeUndefined();
  });

  it('complete-google-registration as a veterinarian answers a token and the user; the next login-google signs in at once', async () => {
    const email = gmail(uniqueName('g'));
    const credential = await google.sign({ email, name: 'Dr Bilal', sub: `sub-${email}` });
    const done = await api.post('/api/auth/complete-google-registration', {
      email,
      username: 'Dr Bilal',
      isVeterinarian: true,
      credential,
    });
    expect(done.status).toBe(200);
    expect(done.body.token).toEqual(expect.any(String));
    expect(done.body.user).toMatchObject({
      email,
      isVeterinarian: true,
      userType: 'Veterinarian',
      isAdmin: false,
    });
    expect(done.body.user.username).toMatch(/^Dr Bilal/);
    expect(sessionCookie(done.headers)).not.toBeNull();
    expect(
      (await api.get('/api/auth/profile', done.body.token, consistentAfter(done.body.position))).status,
    ).toBe(200);

    const again = await api.post('/api/auth/login-google', {
      credential: await google.sign({ email, sub: `sub-${email}` }),
    });
    expect(again.status).toBe(200);
    expect(again.body.needsUserType).toBeUndefined();
    expect(again.body.token).toEqual(expect.any(String));
    expect(again.body.user.id).toBe(done.body.user.id);
  });

  it('a Google account whose username is taken gets a numbered one rather than failing', async () => {
    const existing = await api.registerVerifiedUser();
    const email = gmail(uniqueName('g'));
    const res = await api.post('/api/auth/complete-google-registration', {
      email,
      username: existing.username,
      credential: await google.sign({ email }),
    });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toMatch(new RegExp(`^${existing.username}\\d{4}$`));
  });

  it('login-google for an existing verified password account signs that account in', async () => {
    const user = await api.registerVerifiedUser();
    const res = await api.post('/api/auth/login-google', {
      credential: await google.sign({ email: user.email }),
    });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.user.id).toBe(user.user.id);
    expect((await signin(user.email, user.password)).status).toBe(200);
  });

  it('a password chosen before the address was proven does not survive Google proving it (no pre-registration takeover)', async () => {
    // Someone who does not own the mailbox registers it with their own password and never verifies it…
    const { email } = await registerPending({ password: 'Squatt3r!Pass' });
    // …then the real owner signs in with Google, which proves the address.
    const res = await api.post('/api/auth/login-google', { credential: await google.sign({ email }) });
    expect(res.status).toBe(200);
    // The squatter's password must not open the owner's now verified account.
    expect((await signin(email, 'Squatt3r!Pass')).status).toBe(401);
  });

  it.each([
    ['another audience', { aud: 'someone-else' }],
    ['another issuer', { iss: 'https://evil.example.com' }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 60 }],
  ])('refuses %s with 401, appending nothing', async (_case, claims) => {
    const credential = await google.sign({ email: gmail(uniqueName('g')), ...claims });
    const res = await withoutNewEvents(() => api.post('/api/auth/login-google', { credential }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Google login failed');
  });

  it('refuses a token signed by another key, an unverified Google address and garbage', async () => {
    const stranger = await createGoogleTestKeys();
    const foreign = await api.post('/api/auth/login-google', {
      credential: await stranger.sign({ email: gmail(uniqueName('g')) }),
    });
    expect(foreign.status).toBe(401);
    const unverified = await api.post('/api/auth/login-google', {
      credential: await google.sign({ email: gmail(uniqueName('g')), email_verified: false }),
    });
    expect(unverified.status).toBe(401);
    expect((await api.post('/api/auth/login-google', { credential: 'not-a-jwt' })).status).toBe(401);
    expect((await api.post('/api/auth/login-google', {})).status).toBe(400);
  });

  it('refuses an address outside the accepted domain and a registration for an e-mail the token does not prove', async () => {
    const outside = await api.post('/api/auth/login-google', {
      credential: await google.sign({ email: 'someone@company.com' }),
    });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('Please enter a valid Gmail address');

    const credential = await google.sign({ email: gmail(uniqueName('g')) });
    const mismatch = await withoutNewEvents(() =>
      api.post('/api/auth/complete-google-registration', {
        email: gmail(uniqueName('victim')),
        username: 'x',
        credential,
      }),
    );
    expect(mismatch.status).toBe(400);
  });

  it('/api/config shows the configured Google client id', async () => {
    const res = await api.get('/api/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      acceptedEmailDomain: 'gmail.com',
      googleClientId: GOOGLE_TEST_CLIENT_ID,
      otpSeconds: 120,
      // No social account configured: the footer shows no icon.
      social: { facebook: null, instagram: null, x: null, youtube: null },
    });
  });

  describe('without GOOGLE_CLIENT_ID', () => {
    let plain: TestApp;
    beforeAll(async () => {
      plain = await startTestApp();
    });
    afterAll(async () => {
      await plain?.stop();
    });

    it('login-google and complete-google-registration answer 404 "Google sign-in is not available" to any body', async () => {
      const credential = await google.sign({ email: gmail(uniqueName('g')) });
      const bodies = (path: string) =>
        path.endsWith('login-google')
          ? [{ credential }, {}, { credential: 42 }, { credential: 'not a token' }]
          : [{ email: gmail(uniqueName('g')), username: 'x', credential }, {}, { email: 'nope' }];
      for (const path of ['/api/auth/login-google', '/api/auth/complete-google-registration'])
        for (const body of bodies(path)) {
          const res = await plain.api.post(path, body);
          expect({ path, body, status: res.status, message: res.body.message }).toEqual({
            path,
            body,
            status: 404,
            message: 'Google sign-in is not available',
          });
        }
    });

    it('/api/config shows googleClientId null', async () => {
      const res = await plain.api.get('/api/config');
      expect(res.status).toBe(200);
      expect(res.body.googleClientId).toBeNull();
    });
  });
});
