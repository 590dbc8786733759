import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '@pawhaven/platform';
import {
  startTestApp,
  testImage,
  TEST_PASSWORD,
  uniqueName,
  type ApiResponse,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * The rate limits keep their counters in PostgreSQL: two app processes on one database share them, a restart keeps
 * them, and each limit of the write side answers 429 after its number (small numbers here, through the settings).
 * The auth flows' limits are tested in accounts/rate-limits.int.test.ts.
 */

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

const count = async (t: TestApp, table: 'events' | 'images') =>
  Number((await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

/** Runs `fn` and checks it answered 429 with the message, appending no event and keeping no image. */
async function refused(t: TestApp, fn: () => Promise<ApiResponse>) {
  const [events, images] = [await count(t, 'events'), await count(t, 'images')];
  const res = await fn();
  expect(res.status, res.text).toBe(429);
  expect(res.body).toEqual({ message: TOO_MANY, error: TOO_MANY });
  expect(await count(t, 'events')).toBe(events);
  expect(await count(t, 'images')).toBe(images);
  return res;
}

const expectStatus = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);

let image: Buffer;
beforeAll(async () => {
  image = await testImage(40, 30);
});

const adFields = { name: 'Moti', age: '2', location: 'Lahore', petType: 'Dog', description: 'Friendly.' };
const requestFields = (u: RegisteredUser) => ({
  name: u.username,
  email: u.email,
  phone: '+92 300 1234567',
  message: 'We have a garden.',
});
const imageFile = (field: string) => ({ field, bytes: image, filename: 'pet.png', type: 'image/png' });

describe('counters live in PostgreSQL', () => {
  const limits: Partial<Config> = { RATE_LIMIT_SIGNIN: 5, RATE_LIMIT_RESET: 5 };
  let first: TestApp;
  let second: TestApp | undefined;
  let user: RegisteredUser;

  beforeAll(async () => {
    first = await startTestApp({ config: limits });
    second = await startTestApp({ db: first.db, config: limits });
    user = await first.api.registerVerifiedUser(); // its sign-in succeeds, so it does not count
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('two app processes on one database share one budget, and a restart keeps it', async () => {
    const email = `${uniqueName('shared')}@gmail.com`;
    const signin = (t: TestApp, token?: string) =>
      t.api.post('/api/auth/signin', { email, password: 'Wr0ng!Password' }, token);
    expectStatus(await signin(first), 401);
    expectStatus(await signin(second!), 401);
    expectStatus(await signin(first), 401);
    expectStatus(await signin(second!), 401);
    expectStatus(await signin(first), 401);
    await refused(first, () => signin(first));
    await refused(first, () => signin(second!));
    // An anonymous flow is counted per address: a signed-in caller's token buys no more attempts.
    await refused(first, () => signin(second!, user.token));

    // A restart (a new process on the same database) still refuses.
    await second!.stop();
    second = await startTestApp({ db: first.db, config: limits });
    const after = await refused(first, () => signin(second!));
    expect(Number(after.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(after.headers.get('ratelimit')).toMatch(/"signin"; r=0/);
    expect(after.headers.get('ratelimit-policy')).toMatch(/"signin"; q=5; w=900/);
  });

  it('requests racing on both processes never get past the limit', async () => {
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 ? first : second!).api.post('/api/auth/forgot-password', {
          email: `${uniqueName('race')}@gmail.com`,
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
  });
});

describe('the limits of the write side', () => {
  let t: TestApp;
  let api: TestApi;

  beforeAll(async () => {
    t = await startTestApp({
      config: {
        RATE_LIMIT_CHANGE_PASSWORD: 2,
        RATE_LIMIT_UPLOADS: 3,
        RATE_LIMIT_NEW_ADS: 2,
        RATE_LIMIT_ADOPTION_REQUESTS: 2,
      },
    });
    api = t.api;
  });
  afterAll(async () => {
    await t?.stop();
  });

  const createAd = (u: RegisteredUser) => api.upload('/api/adoptions', imageFile('image'), u.token, adFields);
  const request = (u: RegisteredUser, adId: string) =>
    api.post(`/api/adoptions/${adId}/request`, requestFields(u), u.token);

  it('change-password: the 3rd attempt of a user gets 429, even with the right password; other users are not affected', async () => {
    const [user, other] = await api.registerVerifiedUsers(2);
    const change = (u: RegisteredUser, currentPassword: string) =>
      api.post('/api/auth/change-password', { currentPassword, newPassword: 'N3w!Password#1' }, u.token);
    expect((await change(user, 'Wr0ng!Guess1')).status).not.toBe(429);
    expect((await change(user, 'Wr0ng!Guess2')).status).not.toBe(429);
    await refused(t, () => change(user, TEST_PASSWORD));
    // Keyed by the user, not the address (every test request comes from the same one).
    expectStatus(await change(other, TEST_PASSWORD), 200);
  });

  it('new ads: the 3rd ad of a user gets 429', async () => {
    const [user, other] = await api.registerVerifiedUsers(2);
    expectStatus(await createAd(user), 201);
    expectStatus(await createAd(user), 201);
    await refused(t, () => createAd(user));
    expectStatus(await createAd(other), 201);
  });

  it('adoption requests: the 3rd request of a user gets 429', async () => {
    const [owner, other, requester] = await api.registerVerifiedUsers(3);
    const ads = [
      (await createAd(owner)).body._id,
      (await createAd(owner)).body._id,
      (await createAd(other)).body._id,
    ] as string[];
    expectStatus(await request(requester, ads[0]!), 201);
    expectStatus(await request(requester, ads[1]!), 201);
    await refused(t, () => request(requester, ads[2]!));
    expectStatus(await request(owner, ads[2]!), 201);
  });

  it('uploads: profile, ad and proof images share one budget; the 4th upload gets 429, edits without an image pass', async () => {
    const [user, owner] = await api.registerVerifiedUsers(2);
    const othersAd = (await createAd(owner)).body._id as string;
    expectStatus(await api.upload('/api/auth/upload-profile-image', imageFile('image'), user.token), 200);
    const mine = await createAd(user);
    expectStatus(mine, 201);
    expectStatus(
      await api.upload(
        `/api/adoptions/${othersAd}/request`,
        imageFile('petHistoryImage'),
        user.token,
        requestFields(user),
      ),
      201,
    );

    await refused(t, () => api.upload('/api/auth/upload-profile-image', imageFile('image'), user.token));
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'new.png');
    await refused(t, () =>
      api.request('PUT', `/api/adoptions/${mine.body._id}`, { form, token: user.token }),
    );
    expectStatus(
      await api.put(`/api/adoptions/${mine.body._id}`, { description: 'Still here.' }, user.token),
      200,
    );
    expectStatus(await api.upload('/api/auth/upload-profile-image', imageFile('image'), owner.token), 200);
  });
});

describe('every write, by default', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ config: { RATE_LIMIT_WRITES: 6 } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('counts per signed-in user, per address when anonymous, covers routes without a limit of their own and never reads', async () => {
    // Register and verify: 2 anonymous writes from this address (a sign-in counts only when it fails).
    const user = await t.api.registerVerifiedUser();
    for (let i = 0; i < 6; i++)
      expectStatus(await t.api.post('/api/auth/update-profile', { city: `City ${i}` }, user.token), 200);
    await refused(t, () => t.api.post('/api/auth/update-profile', { city: 'One too many' }, user.token));

    // The address has 4 writes left: any route, also one that does not exist.
    expectStatus(await t.api.post('/api/auth/refresh'), 401);
    expectStatus(await t.api.post('/api/auth/refresh'), 401);
    expectStatus(await t.api.post('/api/auth/refresh'), 401);
    expectStatus(await t.api.post('/api/not-a-route'), 404);
    await refused(t, () => t.api.post('/api/auth/refresh'));
    await refused(t, () => t.api.del('/api/adoptions/00000000-0000-0000-0000-000000000000'));

    // Reads are never counted.
    for (let i = 0; i < 8; i++) expectStatus(await t.api.get('/api/adoptions', user.token), 200);
  });
});

describe("administrators' deletions", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ config: { RATE_LIMIT_WRITES: 8, RATE_LIMIT_MODERATION: 15 } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('have a budget of their own: an admin deletes more items than the write limit allows', async () => {
    // Two members write 15 items between them, each within their own 8 writes.
    const [author, commenter] = [await t.api.registerVerifiedUser(), await t.api.registerVerifiedUser()];
    const post = await t.api.upload('/api/posts', imageFile('image'), author.token, { caption: 'Spam' });
    expectStatus(post, 201);
    const comments: string[] = [];
    for (const u of [author, commenter])
      for (let i = 0; i < 7; i++) {
        const c = await t.api.post(`/api/comments/${post.body._id}`, { content: `spam ${i}` }, u.token);
        expectStatus(c, 201);
        comments.push(c.body._id);
      }

    const admin = (await t.signInAdmin()).token;
    for (const id of comments) expectStatus(await t.api.del(`/api/admin/comments/${id}`, admin), 200);
    expectStatus(await t.api.del(`/api/admin/posts/${post.body._id}`, admin), 200);
    // The moderation budget (15) is spent; the admin's other writes are untouched.
    await refused(t, () => t.api.del(`/api/admin/posts/${post.body._id}`, admin));
    expectStatus(await t.api.post('/api/auth/update-profile', { city: 'Lahore' }, admin), 200);
  });
});
