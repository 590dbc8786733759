import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEventStore, rebuildProjection } from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { startTestApp, type RegisteredUser, type TestApi, type TestApp } from '@pawhaven/testing';

/**
 * Issue 6: during `npm run projections -- rebuild sessions` a signed-out token was accepted, because the rebuild
 * emptied the `sessions` table first. Rebuilds are blue/green now: the revocation stays visible throughout.
 */

const consistentAfter = (position: string) => ({ 'X-Consistent-After': position });

let t: TestApp;
let api: TestApi;
let signedOut: RegisteredUser;
let signedIn: RegisteredUser;
let lastPosition = '';

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  signedOut = await api.registerVerifiedUser();
  signedIn = await api.registerVerifiedUser();
  const others = await Promise.all([1, 2, 3].map(() => api.registerVerifiedUser()));
  // A few hundred events around the sign-out, so that it sits deep in the log a rebuild replays.
  const busy = async (rounds: number) => {
    await Promise.all(
      [...others, signedIn].map(async (u, k) => {
        for (let i = 0; i < rounds; i++) {
          const res = await api.post('/api/auth/update-profile', { about: `round ${i} of ${k}` }, u.token);
          expect(res.status, res.text).toBe(200);
          lastPosition = res.body.position;
        }
      }),
    );
  };
  await busy(60);
  const out = await api.post('/api/auth/signout', {}, signedOut.token);
  expect(out.status).toBe(200);
  await busy(40);
  const read = await api.get('/api/auth/profile', signedOut.token, consistentAfter(out.body.position));
  expect(read.status).toBe(401);
  const settled = await api.get('/api/auth/profile', signedIn.token, consistentAfter(lastPosition));
  expect(settled.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('rebuilding the sessions projection while the app serves requests', () => {
  it('refuses the signed-out token on every request during the rebuild, and keeps the live sessions intact', async () => {
    const sessions = allProjections.find((p) => p.name === 'sessions')!;
    const { rows: events } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events`);
    expect(events[0]!.n).toBeGreaterThan(400);
    const dump = async () => (await t.db.pool.query(`SELECT * FROM sessions ORDER BY id`)).rows;
    const before = await dump();

    let rebuilding = true;
    const answers = { signedOut: new Map<number, number>(), signedIn: new Map<number, number>() };
    const count = (m: Map<number, number>, status: number) => m.set(status, (m.get(status) ?? 0) + 1);
    const hammer = async () => {
      while (rebuilding) {
        const [a, b] = await Promise.all([
          api.get('/api/auth/profile', signedOut.token),
          api.get('/api/auth/profile', signedIn.token),
        ]);
        count(answers.signedOut, a.status);
        count(answers.signedIn, b.status);
      }
    };
    const hammering = [hammer(), hammer(), hammer(), hammer()];
    const store = new PostgresEventStore(t.db.pool);
    let result: Awaited<ReturnType<typeof rebuildProjection>>;
    try {
      // Small batches: the rebuild takes many transactions, as it does over a long production log, and lasts long
      // enough for the requests below (batches of 10 took under 200 ms once appends got cheaper: 19 requests).
      result = await rebuildProjection(t.db.knex, store, sessions, () => {}, { batchSize: 3 });
    } finally {
      rebuilding = false;
      await Promise.all(hammering);
      await store.close();
    }

    expect(result.processed).toBeGreaterThan(400);
    expect(Object.fromEntries(answers.signedOut)).toEqual({ 401: expect.any(Number) });
    expect(answers.signedOut.get(401)).toBeGreaterThanOrEqual(20);
    expect(Object.fromEntries(answers.signedIn)).toEqual({ 200: expect.any(Number) });
    expect(await dump()).toEqual(before);
    expect(result.changedRows).toBe(0);

    // The live projector goes on after the swap: a sign-out made now is refused at once.
    const out = await api.post('/api/auth/signout', {}, signedIn.token);
    expect(out.status).toBe(200);
    const read = await api.get('/api/auth/profile', signedIn.token, consistentAfter(out.body.position));
    expect(read.status).toBe(401);
  });
});
