import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * Issue 10 point 6: every /api/admin route refuses anonymous callers (401) and signed-in non-admins (403), and
 * appends nothing. The routes come from the running app's route table, so a route added later under /api/admin
 * is in the matrix the moment it is registered.
 */

let t: TestApp;
let user: RegisteredUser;
let vet: RegisteredUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await t.api.registerVerifiedUser();
  vet = await t.api.registerVerifiedUser({ isVeterinarian: true });
});
afterAll(async () => {
  await t?.stop();
});

const SOME_ID = '3f1b8f0e-9d2c-4c7e-8a55-6c1d2e3f4a5b';
const adminRoutes = () =>
  t.app.routes.filter((r) => r.path === '/api/admin' || r.path.startsWith('/api/admin/'));
const eventCount = async () =>
  Number((await t.db.knex('events').count<{ count: string }[]>('* as count'))[0]!.count);

const call = (method: string, path: string, token?: string) =>
  t.api.request(method, path.replace(/:(\w+)/g, SOME_ID), {
    token,
    body: method === 'GET' || method === 'HEAD' ? undefined : { name: 'all', reason: 'matrix' },
  });

describe('every /api/admin route', () => {
  it('is registered in numbers (the matrix walks something real)', () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/api/admin/users' },
        { method: 'GET', path: '/api/admin/adoptions/:id/history' },
        { method: 'GET', path: '/api/admin/projections' },
        { method: 'POST', path: '/api/admin/projections/rebuild' },
      ]),
    );
  });

  it('answers 401 to anonymous callers and 403 to signed-in non-admins, appending nothing', async () => {
    const before = await eventCount();
    const wrong: string[] = [];
    for (const route of adminRoutes()) {
      const label = `${route.method} ${route.path}`;
      const anonymous = await call(route.method, route.path);
      if (anonymous.status !== 401) wrong.push(`${label} anonymous → ${anonymous.status}`);
      else if (route.method !== 'HEAD' && typeof anonymous.body?.message !== 'string')
        wrong.push(`${label} anonymous: no message`);
      for (const who of [user, vet]) {
        const signedIn = await call(route.method, route.path, who.token);
        if (signedIn.status !== 403)
          wrong.push(`${label} ${who === vet ? 'vet' : 'user'} → ${signedIn.status}`);
      }
      const badToken = await call(route.method, route.path, 'not-a-token');
      if (badToken.status !== 401) wrong.push(`${label} bad token → ${badToken.status}`);
    }
    expect(wrong).toEqual([]);
    expect(await eventCount()).toBe(before);
  });
});
