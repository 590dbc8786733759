import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sessionCookie,
  startTestApp,
  uniqueName,
  type ApiResponse,
  type RegisteredUser,
  type TestApp,
} from '@pawhaven/testing';
import { SIGN_IN_LOCKED, TOO_MANY } from '../http/rate-limits';

/**
 * The sign-in limit counts failures, never successes: an office behind one address signs in as often as it likes;
 * failures are bounded per client address (5 here) and per account across every address (4 here), an account's
 * owner keeps signing in from a browser that signed into it before, and a password reset lifts the account's lock.
 * Client addresses come from X-Forwarded-For (one trusted proxy hop), so one test can be many addresses.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    config: { RATE_LIMIT_SIGNIN: 5, RATE_LIMIT_SIGNIN_ACCOUNT: 4, TRUST_PROXY_HOPS: 1 },
  });
});
afterAll(async () => {
  await t?.stop();
});

let addresses = 0;
/** A client address no other test uses. */
const newAddress = () =>
  `10.${Math.floor(addresses / 250) % 250}.${addresses % 250}.${(addresses++ % 200) + 1}`;

const WRONG = 'Wr0ng!Guess';
const signin = (email: string, password: string, from: string, cookie?: string) =>
  t.api.request('POST', '/api/auth/signin', {
    body: { email, password },
    headers: { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
  });
const unknownEmail = () => `${uniqueName('nobody')}@gmail.com`;
const statusOf = (r: ApiResponse) => r.status;

/** A verified user made from an address of their own, so the setup uses no test's budget. */
const newUser = (): Promise<RegisteredUser> => t.api.registerVerifiedUser();

describe('sign-in limits', () => {
  it('30 successful sign-ins from one address are all accepted', async () => {
    const user = await newUser();
    const office = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await signin(user.email, user.password, office)).status);
    expect(statuses).toEqual(Array(30).fill(200));
  });

  it('failures for one account from many addresses are limited; its owner keeps their browser, a reset lifts it', async () => {
    const owner = await newUser();
    // The owner's own browser signed in before the attack: it holds the proof of that.
    const home = await signin(owner.email, owner.password, newAddress());
    expect(home.status).toBe(200);
    const ownBrowser = sessionCookie(home.headers, 'ph_device');

    const spread: number[] = [];
    for (let i = 0; i < 4; i++) spread.push((await signin(owner.email, WRONG, newAddress())).status);
    expect(spread).toEqual([401, 401, 401, 401]);
    const locked = await signin(owner.email, WRONG, newAddress());
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: SIGN_IN_LOCKED, error: SIGN_IN_LOCKED });
    expect(locked.headers.get('ratelimit-policy')).toMatch(/"signin-account"; q=4/);
    // Locked means locked, for the right password too: the answer must not say whether a guess was right.
    expect((await signin(owner.email, owner.password, newAddress())).status).toBe(429);
    // An address nobody has is locked alike: the lock tells nothing about which addresses have accounts.
    const nobody = unknownEmail();
    const unknown = [];
    for (let i = 0; i < 5; i++) unknown.push(await signin(nobody, WRONG, newAddress()));
    expect(unknown.map(statusOf)).toEqual([401, 401, 401, 401, 429]);
    expect(unknown[4]!.body.message).toBe(SIGN_IN_LOCKED);

    // The owner's browser is not charged to the account: they sign in as usual, from anywhere.
    expect(ownBrowser).toBeTruthy();
    expect((await signin(owner.email, owner.password, newAddress(), ownBrowser!)).status).toBe(200);

    // A password reset proves the owner: the account's failures are forgotten, a new browser gets in again.
    expect((await t.api.post('/api/auth/forgot-password', { email: owner.email })).status).toBe(200);
    const code = await t.api.readCode(owner.email);
    const newPassword = 'Res3t!Passw0rd';
    const reset = await t.api.post('/api/auth/reset-password', { email: owner.email, code, newPassword });
    expect(reset.status).toBe(200);
    expect((await signin(owner.email, newPassword, newAddress())).status).toBe(200);
  });

  it('failures from one address across accounts are limited, concurrent ones too; successes from it never count', async () => {
    const user = await newUser();
    const address = newAddress();
    for (let i = 0; i < 10; i++) expect((await signin(user.email, user.password, address)).status).toBe(200);

    // 12 guesses at once at 12 accounts: exactly the 5 the address may fail are tried.
    const burst = await Promise.all(Array.from({ length: 12 }, () => signin(unknownEmail(), WRONG, address)));
    const statuses = burst.map(statusOf).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect(burst.find((r) => r.status === 429)!.body).toEqual({ message: TOO_MANY, error: TOO_MANY });
    // The address is locked for everyone behind it; another address is not.
    expect((await signin(user.email, user.password, address)).status).toBe(429);
    expect((await signin(user.email, user.password, newAddress())).status).toBe(200);
  });

  it('a success after failures does not add to them', async () => {
    const user = await newUser();
    const address = newAddress();
    for (let i = 0; i < 4; i++) expect((await signin(unknownEmail(), WRONG, address)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signin(user.email, user.password, address)).status).toBe(200);
    // Still one failure left for this address (5), then it is locked.
    expect((await signin(unknownEmail(), WRONG, address)).status).toBe(401);
    expect((await signin(unknownEmail(), WRONG, address)).status).toBe(429);
  });
});
