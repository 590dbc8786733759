import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import {
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApp,
} from '@pawhaven/testing';

/**
 * No answer of the auth root tells whether an address has an account: sign-up, password reset, the reset code's
 * checks and the e-mail verification answer a known address exactly as an unknown one (status and body, the
 * address and random tokens aside), and a sign-in with a wrong password takes as long for either.
 */

let t: TestApp;
let known: RegisteredUser;
beforeAll(async () => {
  t = await startTestApp();
  known = await t.api.registerVerifiedUser();
});
afterAll(async () => {
  await t?.stop();
});

const unknownEmail = () => `${uniqueName('nobody')}@gmail.com`;

/** An answer with what differs between any two calls (the address asked about, random tokens, positions) masked. */
const answer = (res: ApiResponse, email: string) => {
  const body: Json = JSON.parse(JSON.stringify(res.body).replaceAll(email, '<email>'));
  if (typeof body?.registrationToken === 'string' && /^[\w-]{43}$/.test(body.registrationToken))
    body.registrationToken = '<token>';
  if (typeof body?.position === 'string' && /^\d+$/.test(body.position)) body.position = '<position>';
  return { status: res.status, body };
};

/** Sends the same call about the known address and an unknown one; both answers, masked. */
async function both(path: string, body: (email: string) => object) {
  const other = unknownEmail();
  const [a, b] = [await t.api.post(path, body(known.email)), await t.api.post(path, body(other))];
  return [answer(a, known.email), answer(b, other)] as const;
}

describe('answers about known and unknown addresses are the same', () => {
  it('register', async () => {
    const register = (username: string) => (email: string) => ({ username, email, password: TEST_PASSWORD });
    const [a, b] = await both('/api/auth/register', register(uniqueName('someone')));
    expect(a).toEqual(b);
    expect(a.status).toBe(201);
    // A taken username is refused alike, the owner's own name with the owner's own address included.
    const [c, d] = await both('/api/auth/register', register(known.username));
    expect(c).toEqual(d);
    expect(c.status).toBe(409);
  });

  it('forgot-password and resend-reset-code', async () => {
    for (const path of ['/api/auth/forgot-password', '/api/auth/resend-reset-code']) {
      const [a, b] = await both(path, (email) => ({ email }));
      expect(a).toEqual(b);
      expect(a.status).toBe(200);
    }
  });

  it('verify-reset-code and reset-password, before and after a code was asked for', async () => {
    const user = await t.api.registerVerifiedUser();
    const other = unknownEmail();
    const checks = async (wrong = '000000') => {
      const out: [ReturnType<typeof answer>, ReturnType<typeof answer>][] = [];
      for (const [path, extra] of [
        ['/api/auth/verify-reset-code', {}],
        ['/api/auth/reset-password', { newPassword: 'N3w!Passw0rd' }],
      ] as const) {
        const a = answer(await t.api.post(path, { email: user.email, code: wrong, ...extra }), user.email);
        const b = answer(await t.api.post(path, { email: other, code: wrong, ...extra }), other);
        out.push([a, b]);
      }
      return out;
    };
    for (const [a, b] of await checks()) expect(a).toEqual(b);
    for (const email of [user.email, other])
      expect((await t.api.post('/api/auth/forgot-password', { email })).status).toBe(200);
    const code = await t.api.readCode(user.email);
    for (const [a, b] of await checks(code === '000000' ? '111111' : '000000')) {
      expect(a).toEqual(b);
      expect(a.body.message).toBe(ACCOUNT_MESSAGES.codeInvalid);
    }
  });

  it('verify-registration and resend-otp', async () => {
    for (const [path, body] of [
      ['/api/auth/verify-registration', (email: string) => ({ email, otp: '123456' })],
      ['/api/auth/resend-otp', (email: string) => ({ email })],
    ] as const) {
      const [a, b] = await both(path, body);
      expect(a).toEqual(b);
    }
  });

  it('a wrong password takes as long for a known e-mail as for an unknown one', async () => {
    const nobody = unknownEmail();
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await t.api.post('/api/auth/signin', { email, password: 'Wr0ng!Guess' });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    for (let i = 0; i < 3; i++) await Promise.all([timed(known.email), timed(nobody)]); // warm up
    const times = { known: [] as number[], unknown: [] as number[] };
    // Interleaved, in alternating order, so a busy moment of the machine falls on both alike.
    for (let i = 0; i < 30; i++) {
      if (i % 2) {
        times.known.push(await timed(known.email));
        times.unknown.push(await timed(nobody));
      } else {
        times.unknown.push(await timed(nobody));
        times.known.push(await timed(known.email));
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const [k, u] = [median(times.known), median(times.unknown)];
    // Without the dummy hash an unknown e-mail answered about 4x faster (no argon2 at all).
    expect(
      Math.max(k, u) / Math.min(k, u),
      `median known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms`,
    ).toBeLessThan(1.5);
  });
});
