import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@pawhaven/testing';

/**
 * Issue 6 point 4: writers racing on one stream only made their decision on a stale revision. The command
 * handler decides again on the fresh state, for every aggregate, so nobody sees a conflict they did not cause.
 */
describe('concurrent commands on one stream', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('10 concurrent sign-ins to one account all succeed, each with its own session', async () => {
    const user = await t.api.registerVerifiedUser();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.api.post('/api/auth/signin', { email: user.email, password: user.password }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    // Each session in its own stream, naming its user.
    const sessions = await t.db
      .knex('events')
      .where({ type: 'SessionStarted' })
      .whereRaw(`data->>'userId' = ?`, [user.user._id])
      .count<{ count: string }[]>('* as count');
    // One from registerVerifiedUser plus the ten.
    expect(Number(sessions[0]!.count)).toBe(11);
  });

  it('10 concurrent profile updates all succeed and each is recorded', async () => {
    const user = await t.api.registerVerifiedUser();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.api.post('/api/auth/update-profile', { city: `City ${i}` }, user.token),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const updates = await t.db
      .knex('events')
      .where({ stream_id: `user-${user.user._id}`, type: 'ProfileUpdated' })
      .count<{ count: string }[]>('* as count');
    expect(Number(updates[0]!.count)).toBe(10);
  });

  it('sign-ins racing with profile updates: no 409', async () => {
    const user = await t.api.registerVerifiedUser();
    const calls = [
      ...Array.from({ length: 6 }, () =>
        t.api.post('/api/auth/signin', { email: user.email, password: user.password }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        t.api.post('/api/auth/update-profile', { about: `About ${i}` }, user.token),
      ),
    ];
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
  });
});
