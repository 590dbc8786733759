import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADOPTION_MESSAGES as M, CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * Concurrency of the adoption ad: the ad and its requests are one stream, so of many accepts fired at the same
 * moment exactly one wins and the read models agree with it; a user double-clicking 'Request Adoption' gets one
 * request.
 */

const APPLICANTS = 8;

let t: TestApp;
let api: TestApi;
let owner: RegisteredUser;
let applicants: RegisteredUser[];
let adminToken: string;
let image: Buffer;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  const users = await api.registerVerifiedUsers(APPLICANTS + 1);
  owner = users[0]!;
  applicants = users.slice(1);
  adminToken = (await t.signInAdmin()).token;
});
afterAll(async () => {
  await t?.stop();
});

const after = (position: string) => ({ [CONSISTENT_AFTER_HEADER]: position });

async function read(path: string, token: string | undefined, position: string): Promise<ApiResponse> {
  const res = await api.get(path, token, after(position));
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('x-consistency')).toBe('consistent');
  return res;
}

async function createAd(name: string) {
  const res = await api.upload(
    '/api/adoptions',
    { field: 'image', bytes: image, filename: 'pet.png', type: 'image/png' },
    owner.token,
    { name, age: '4', location: 'Islamabad', petType: 'Dog', description: 'Everyone wants him.' },
  );
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

const requestBody = (u: RegisteredUser, message = 'Pick me!') => ({
  name: u.username,
  email: u.email,
  phone: '+92 321 7654321',
  message,
});

const query = async <R extends object>(sql: string, params: unknown[]) =>
  (await t.db.pool.query<R & object>(sql, params)).rows as R[];

describe('concurrent accepts on one ad', () => {
  it(`of ${APPLICANTS} accepts fired at once exactly one wins (200), the others get 409; every read model agrees`, async () => {
    const ad = await createAd('Champion');
    const requests: { id: string; user: RegisteredUser }[] = [];
    let position = '';
    for (const user of applicants) {
      const res = await api.post(`/api/adoptions/${ad._id}/request`, requestBody(user), user.token);
      expect(res.status, res.text).toBe(201);
      requests.push({ id: res.body.request._id, user });
      position = res.body.position;
    }
    const before = await read(`/api/adoptions/${ad._id}/requests`, owner.token, position);
    expect(before.body.map((r: Json) => r.status)).toEqual(Array(APPLICANTS).fill('pending'));

    // The owner's tabs, all at once.
    const results = await Promise.all(
      requests.map((r) => api.put(`/api/adoptions/requests/${r.id}`, { status: 'accepted' }, owner.token)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(APPLICANTS - 1).fill(409)]);
    const winnerIndex = results.findIndex((r) => r.status === 200);
    const winner = requests[winnerIndex]!;
    const won = results[winnerIndex]!;
    expect(won.body).toMatchObject({ message: M.accepted, post: { status: 'adopted' } });
    // The losers are decided against the winner's outcome, not just bounced off a stale revision.
    for (const lost of results.filter((r) => r.status === 409))
      expect(lost.body.message).toBe(M.requestNotPending);

    const at = won.body.position as string;
    // The ad.
    const read1 = await read(`/api/adoptions/${ad._id}`, undefined, at);
    expect(read1.body).toMatchObject({ status: 'adopted', requestCount: APPLICANTS });

    // Its requests: one accepted, the rest rejected for the stated reason.
    const after1 = await read(`/api/adoptions/${ad._id}/requests`, owner.token, at);
    const accepted = after1.body.filter((r: Json) => r.status === 'accepted');
    const rejected = after1.body.filter((r: Json) => r.status === 'rejected');
    expect(accepted.map((r: Json) => r._id)).toEqual([winner.id]);
    expect(rejected).toHaveLength(APPLICANTS - 1);
    for (const r of rejected) expect(r.reason).toBe('Another applicant was accepted');

    // Every applicant's history says the same.
    for (const r of requests) {
      const history = await read('/api/adoptions/history', r.user.token, at);
      expect(history.body.find((h: Json) => h._id === r.id)).toMatchObject({
        status: r === winner ? 'accepted' : 'rejected',
        adStatus: 'adopted',
      });
    }

    // The tables agree with each other and with the log.
    const [row] = await query<{ status: string; request_count: number }>(
      'SELECT status, request_count FROM adoption_ads WHERE id = $1',
      [ad._id],
    );
    expect(row).toEqual({ status: 'adopted', request_count: APPLICANTS });
    const byStatus = await query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM adoption_requests WHERE ad_id = $1 GROUP BY status ORDER BY status',
      [ad._id],
    );
    expect(byStatus).toEqual([
      { status: 'accepted', n: 1 },
      { status: 'rejected', n: APPLICANTS - 1 },
    ]);
    const stats = await query<{ user_id: string; ads: number; requests: number }>(
      'SELECT user_id, ads, requests FROM user_adoption_stats WHERE user_id = ANY($1) ORDER BY user_id',
      [[owner.user._id, ...applicants.map((a) => a.user._id)]],
    );
    const statsById = Object.fromEntries(stats.map((s) => [s.user_id, s]));
    expect(statsById[owner.user._id]).toMatchObject({ ads: 1, requests: 0 });
    for (const a of applicants) expect(statsById[a.user._id]).toMatchObject({ ads: 0, requests: 1 });
    const logged = await query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM events WHERE stream_id = $1 GROUP BY type ORDER BY type`,
      [`adoption-${ad._id}`],
    );
    expect(logged).toEqual([
      { type: 'AdoptionAdPublished', n: 1 },
      { type: 'AdoptionRequestAccepted', n: 1 },
      { type: 'AdoptionRequestRejected', n: APPLICANTS - 1 },
      { type: 'AdoptionRequested', n: APPLICANTS },
      { type: 'PetAdopted', n: 1 },
    ]);

    // The audit timeline: exactly one PetAdopted, for the winner, by the owner.
    const audit = await read(`/api/admin/adoptions/${ad._id}/history`, adminToken, at);
    const adopted = audit.body.timeline.filter((e: Json) => e.eventType === 'PetAdopted');
    expect(adopted).toHaveLength(1);
    expect(adopted[0]).toMatchObject({
      requestId: winner.id,
      fromStatus: 'available',
      toStatus: 'adopted',
      actor: { _id: owner.user._id, username: owner.username },
    });
    expect(audit.body.timeline.filter((e: Json) => e.toStatus === 'accepted')).toHaveLength(1);
    expect(audit.body.timeline.filter((e: Json) => e.toStatus === 'rejected')).toHaveLength(APPLICANTS - 1);
    expect(audit.body.timeline).toHaveLength(1 + APPLICANTS + 2 + (APPLICANTS - 1));

    // Nothing more to decide: a late tab gets 409 too.
    const late = await api.put(
      `/api/adoptions/requests/${requests[(winnerIndex + 1) % APPLICANTS]!.id}`,
      { status: 'accepted' },
      owner.token,
    );
    expect(late.status).toBe(409);
  });

  it('an accept racing a reject on another request: never both an adoption and a lost answer', async () => {
    const ad = await createAd('Contested');
    const [a, b] = applicants as [RegisteredUser, RegisteredUser];
    const ra = await api.post(`/api/adoptions/${ad._id}/request`, requestBody(a), a.token);
    const rb = await api.post(`/api/adoptions/${ad._id}/request`, requestBody(b), b.token);
    await read(`/api/adoptions/${ad._id}`, undefined, rb.body.position);
    const [accept, reject] = await Promise.all([
      api.put(`/api/adoptions/requests/${ra.body.request._id}`, { status: 'accepted' }, owner.token),
      api.put(`/api/adoptions/requests/${rb.body.request._id}`, { status: 'rejected' }, owner.token),
    ]);
    expect([accept.status, reject.status].filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of [accept, reject]) expect([200, 409]).toContain(r.status);
    const last = [accept, reject].filter((r) => r.status === 200).map((r) => BigInt(r.body.position));
    const at = last.reduce((x, y) => (x > y ? x : y)).toString();
    const requests = await read(`/api/adoptions/${ad._id}/requests`, owner.token, at);
    const byId = Object.fromEntries(requests.body.map((r: Json) => [r._id, r]));
    // Accept won: a accepted, b rejected (by the reject or as the other applicant). Accept lost: ad still open.
    if (accept.status === 200) {
      expect(byId[ra.body.request._id].status).toBe('accepted');
      expect(byId[rb.body.request._id].status).toBe('rejected');
      expect((await read(`/api/adoptions/${ad._id}`, undefined, at)).body.status).toBe('adopted');
    } else {
      expect(byId[ra.body.request._id].status).toBe('pending');
      expect(byId[rb.body.request._id]).toMatchObject({ status: 'rejected', reason: M.declinedByOwner });
      expect((await read(`/api/adoptions/${ad._id}`, undefined, at)).body.status).toBe('available');
    }
  });
});

describe('concurrent requests', () => {
  it('two requests by the same user on one ad at the same moment: exactly one 201, the other 409', async () => {
    const ad = await createAd('Double click');
    const user = applicants[0]!;
    const results = await Promise.all([
      api.post(`/api/adoptions/${ad._id}/request`, requestBody(user, 'first click'), user.token),
      api.post(`/api/adoptions/${ad._id}/request`, requestBody(user, 'second click'), user.token),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const created = results.find((r) => r.status === 201)!;
    const requests = await read(`/api/adoptions/${ad._id}/requests`, owner.token, created.body.position);
    expect(requests.body).toHaveLength(1);
    expect(requests.body[0]).toMatchObject({
      _id: created.body.request._id,
      status: 'pending',
      requester: { _id: user.user._id },
    });
    expect((await read(`/api/adoptions/${ad._id}`, undefined, created.body.position)).body.requestCount).toBe(
      1,
    );
    const [{ n } = { n: -1 }] = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'AdoptionRequested'`,
      [`adoption-${ad._id}`],
    );
    expect(n).toBe(1);
  });

  it(`${APPLICANTS} different users requesting one ad at the same moment are all recorded`, async () => {
    const ad = await createAd('Crowd favourite');
    const results = await Promise.all(
      applicants.map((u) => api.post(`/api/adoptions/${ad._id}/request`, requestBody(u), u.token)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(APPLICANTS).fill(201));
    const at = results
      .map((r) => BigInt(r.body.position))
      .reduce((x, y) => (x > y ? x : y))
      .toString();
    const requests = await read(`/api/adoptions/${ad._id}/requests`, owner.token, at);
    expect(requests.body).toHaveLength(APPLICANTS);
    expect((await read(`/api/adoptions/${ad._id}`, undefined, at)).body.requestCount).toBe(APPLICANTS);
  });
});
