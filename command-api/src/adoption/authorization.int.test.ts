import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { startTestApp, testImage, type ApiResponse, type TestApi, type TestApp } from '@pawhaven/testing';

/**
 * Who may do what with an adoption ad: every endpoint of the adoption context × every kind of caller, over real
 * HTTP. Each cell gets a fresh ad owned by `owner` with one pending request by `requester`, so no cell depends on
 * another. A refused write must append nothing.
 */

type Role = 'visitor' | 'requester' | 'other' | 'owner' | 'admin';
type Fixture = { adId: string; requestId: string };
type Call = (f: Fixture, token: string | undefined) => Promise<ApiResponse>;

let t: TestApp;
let api: TestApi;
let image: Buffer;
const tokens: Partial<Record<Role, string>> = {};
let ownerId = '';

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  const [owner, requester, other] = await api.registerVerifiedUsers(3);
  const admin = await t.signInAdmin();
  Object.assign(tokens, {
    owner: owner.token,
    requester: requester.token,
    other: other.token,
    admin: admin.token,
  });
  ownerId = owner.user._id;
});
afterAll(async () => {
  await t?.stop();
});

const adFields = {
  name: 'Matrix',
  age: '1',
  location: 'Lahore',
  petType: 'Cat',
  description: 'Sits on keyboards.',
};
const requestFields = { name: 'Req', email: 'req@gmail.com', phone: '03001234567', message: 'Please!' };

const createAd = (token: string | undefined) =>
  api.upload(
    '/api/adoptions',
    { field: 'image', bytes: image, filename: 'cat.png', type: 'image/png' },
    token,
    adFields,
  );

/** A fresh ad of the owner's with one pending request by the requester, visible in the read models. */
async function fixture(): Promise<Fixture> {
  const ad = await createAd(tokens.owner);
  expect(ad.status).toBe(201);
  const req = await api.post(`/api/adoptions/${ad.body._id}/request`, requestFields, tokens.requester);
  expect(req.status).toBe(201);
  const seen = await api.get(`/api/adoptions/${ad.body._id}`, undefined, {
    [CONSISTENT_AFTER_HEADER]: req.body.position,
  });
  expect(seen.headers.get('x-consistency')).toBe('consistent');
  return { adId: ad.body._id, requestId: req.body.request._id };
}

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

const endpoints: Record<string, { write: boolean; call: Call }> = {
  'POST /api/adoptions (create)': { write: true, call: (_f, token) => createAd(token) },
  'PUT /api/adoptions/{id} (update)': {
    write: true,
    call: (f, token) => api.put(`/api/adoptions/${f.adId}`, { description: 'Edited.' }, token),
  },
  'DELETE /api/adoptions/{id}': {
    write: true,
    call: (f, token) => api.del(`/api/adoptions/${f.adId}`, token),
  },
  'POST /api/adoptions/{id}/request': {
    write: true,
    call: (f, token) => api.post(`/api/adoptions/${f.adId}/request`, requestFields, token),
  },
  'PUT /api/adoptions/requests/{id} accepted': {
    write: true,
    call: (f, token) => api.put(`/api/adoptions/requests/${f.requestId}`, { status: 'accepted' }, token),
  },
  'PUT /api/adoptions/requests/{id} rejected': {
    write: true,
    call: (f, token) => api.put(`/api/adoptions/requests/${f.requestId}`, { status: 'rejected' }, token),
  },
  'POST /api/adoptions/requests/{id}/withdraw': {
    write: true,
    call: (f, token) => api.post(`/api/adoptions/requests/${f.requestId}/withdraw`, {}, token),
  },
  'GET /api/adoptions': { write: false, call: (_f, token) => api.get('/api/adoptions', token) },
  'GET /api/adoptions/user/{ownerId}?includeRequests=true': {
    write: false,
    call: (_f, token) => api.get(`/api/adoptions/user/${ownerId}?includeRequests=true`, token),
  },
  'GET /api/adoptions/{id}/requests': {
    write: false,
    call: (f, token) => api.get(`/api/adoptions/${f.adId}/requests`, token),
  },
  'GET /api/adoptions/history': {
    write: false,
    call: (_f, token) => api.get('/api/adoptions/history', token),
  },
  'GET /api/admin/adoptions/{id}/history': {
    write: false,
    call: (f, token) => api.get(`/api/admin/adoptions/${f.adId}/history`, token),
  },
};

/* The expected status of every cell. The requester already has a pending request on the ad (hence 409 on request). */
type MatrixRow = [
  endpoint: keyof typeof endpoints,
  visitor: number,
  requester: number,
  other: number,
  owner: number,
  admin: number,
];
// prettier-ignore
const matrix: MatrixRow[] = [
  // endpoint                                                 visitor requester other owner admin
  ['POST /api/adoptions (create)',                              401,    201,    201,  201,  201],
  ['PUT /api/adoptions/{id} (update)',                          401,    403,    403,  200,  403],
  ['DELETE /api/adoptions/{id}',                                401,    403,    403,  200,  200],
  ['POST /api/adoptions/{id}/request',                          401,    409,    201,  403,  403],
  ['PUT /api/adoptions/requests/{id} accepted',                 401,    403,    403,  200,  403],
  ['PUT /api/adoptions/requests/{id} rejected',                 401,    403,    403,  200,  403],
  ['POST /api/adoptions/requests/{id}/withdraw',                401,    200,    403,  403,  403],
  ['GET /api/adoptions',                                        200,    200,    200,  200,  200],
  ['GET /api/adoptions/user/{ownerId}?includeRequests=true',    401,    403,    403,  200,  200],
  ['GET /api/adoptions/{id}/requests',                          401,    403,    403,  200,  200],
  ['GET /api/adoptions/history',                                401,    200,    200,  200,  200],
  ['GET /api/admin/adoptions/{id}/history',                     401,    403,    403,  403,  200],
];

const ROLES: Role[] = ['visitor', 'requester', 'other', 'owner', 'admin'];
const cells = matrix.flatMap(([endpoint, ...statuses]) =>
  ROLES.map((role, i) => ({ endpoint, role, status: statuses[i]! })),
);

describe('adoption authorization matrix', () => {
  it('covers every endpoint × every role', () => {
    expect(cells).toHaveLength(Object.keys(endpoints).length * ROLES.length);
    expect(new Set(matrix.map(([e]) => e))).toEqual(new Set(Object.keys(endpoints)));
  });

  it.each(cells)('$endpoint as $role → $status', async ({ endpoint, role, status }) => {
    const { write, call } = endpoints[endpoint]!;
    const f = await fixture();
    const before = await eventCount();
    const res = await call(f, role === 'visitor' ? undefined : tokens[role]);
    expect(res.status, res.text).toBe(status);
    const appended = (await eventCount()) - before;
    if (status >= 400) {
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.message.length).toBeGreaterThan(0);
    }
    if (write && status < 400) expect(appended).toBeGreaterThan(0);
    else expect(appended).toBe(0);
  });
});
