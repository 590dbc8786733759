import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGoogleTestKeys,
  GOOGLE_TEST_CLIENT_ID,
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type ApiResponse,
  type TestApp,
} from '@pawhaven/testing';

/**
 * The auth endpoints are rate-limited per client address, one limiter per flow (see 'Rate limits' in
 * docs/architecture.md). Each test uses its own flow, so they do not eat each other's budget.
 */

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

let t: TestApp;

beforeAll(async () => {
  const google = await createGoogleTestKeys();
  t = await startTestApp({
    googleKeys: google.keys,
    config: {
      GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID,
      RATE_LIMIT_SIGNIN: 3,
      RATE_LIMIT_REGISTER: 2,
      RATE_LIMIT_OTP: 2,
      RATE_LIMIT_RESET: 2,
    },
  });
});
afterAll(async () => {
  await t?.stop();
});

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
const gmail = () => `${uniqueName('rl')}@gmail.com`;

/** Sends `n` requests and answers their statuses; the last response is returned too. */
async function hammer(n: number, send: () => Promise<ApiResponse>) {
  const statuses: number[] = [];
  let last: ApiResponse | undefined;
  for (let i = 0; i < n; i++) {
    last = await send();
    statuses.push(last.status);
  }
  return { statuses, last: last! };
}

describe('auth rate limits', () => {
  it('the 4th failed sign-in from one address within the window gets 429 with a message and the standard headers', async () => {
    const email = gmail();
    const { statuses, last } = await hammer(4, () =>
      t.api.post('/api/auth/signin', { email, password: 'Wr0ng!Password' }),
    );
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(last.body).toEqual({ message: TOO_MANY, error: TOO_MANY });
    // draft-8 headers tell the client the policy and when to come back.
    expect(last.headers.get('ratelimit-policy')).toMatch(/q=3/);
    expect(last.headers.get('ratelimit')).toMatch(/r=0/);

    // The address's budget of failures guards Google sign-in too, and refuses before any work is done.
    const google = await t.api.post('/api/auth/login-google', { credential: 'anything' });
    expect(google.status).toBe(429);
  });

  it('the 3rd registration gets 429 and records nothing', async () => {
    const register = () => {
      const username = uniqueName('rl');
      return t.api.post('/api/auth/register', {
        username,
        email: `${username}@gmail.com`,
        password: TEST_PASSWORD,
      });
    };
    const first = await hammer(2, register);
    expect(first.statuses).toEqual([201, 201]);
    const before = await eventCount();
    const third = await register();
    expect(third.status).toBe(429);
    expect(third.body.message).toBe(TOO_MANY);
    expect(await eventCount()).toBe(before);
  });

  it('the 3rd code check (verify-registration / resend-otp share one budget) gets 429', async () => {
    const email = gmail();
    const verify = await t.api.post('/api/auth/verify-registration', { email, otp: '123456' });
    expect(verify.status).toBe(400);
    const resend = await t.api.post('/api/auth/resend-otp', { email });
    expect(resend.status).toBe(400);
    const third = await t.api.post('/api/auth/verify-registration', { email, otp: '654321' });
    expect(third.status).toBe(429);
    expect(third.body.message).toBe(TOO_MANY);
  });

  it('the 3rd password-reset request gets 429', async () => {
    const { statuses, last } = await hammer(3, () =>
      t.api.post('/api/auth/forgot-password', { email: gmail() }),
    );
    expect(statuses).toEqual([200, 200, 429]);
    expect(last.body.message).toBe(TOO_MANY);
    // verify-reset-code and reset-password are behind the same limiter.
    expect((await t.api.post('/api/auth/verify-reset-code', { email: gmail(), code: '123456' })).status).toBe(
      429,
    );
    expect(
      (
        await t.api.post('/api/auth/reset-password', {
          email: gmail(),
          code: '123456',
          newPassword: TEST_PASSWORD,
        })
      ).status,
    ).toBe(429);
  });

  it('endpoints without a limiter are not throttled', async () => {
    const { statuses } = await hammer(6, () => t.api.post('/api/auth/refresh'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
  });
});
