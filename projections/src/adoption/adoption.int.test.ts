import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { rebuildProjection } from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { testEventStore } from '@pawhaven/platform/testing';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '../../../gateway/src/support/test-app';

/**
 * The adoption read models are a pure function of the log: after a realistic scenario, rebuilding the adoption
 * projections from the events alone reproduces the same rows, and the admin audit timeline tells the scenario
 * exactly, in log order.
 */

const ADOPTION_TABLES = [
  'adoption_ads',
  'adoption_requests',
  'adoption_audit',
  'user_adoption_stats',
  'user_adoption_stats_ads',
];
const PRIMARY_KEYS: Record<string, string> = {
  adoption_ads: 'id',
  adoption_requests: 'id',
  adoption_audit: 'position',
  user_adoption_stats: 'user_id',
  user_adoption_stats_ads: 'ad_id',
};

let t: TestApp;
let api: TestApi;
let adminToken: string;
let owner: RegisteredUser;
let owner2: RegisteredUser;
let u: RegisteredUser[];
/** The scenario's ids and the position of its last command. */
const s = { adA: '', adB: '', adC: '', reqs: {} as Record<string, string>, last: '' };

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  const users = await Promise.all(Array.from({ length: 6 }, () => api.registerVerifiedUser()));
  [owner, owner2, ...u] = users as [RegisteredUser, RegisteredUser, ...RegisteredUser[]];
  const admin = await api.post('/api/auth/signin', t.adminCredentials!);
  expect(admin.status).toBe(200);
  adminToken = admin.body.token;
  await runScenario();
});
afterAll(async () => {
  await t?.stop();
});

const ok = <T extends ApiResponse>(res: T, status = 200): T => {
  expect(res.status, res.text).toBe(status);
  if (res.body.position) s.last = res.body.position;
  return res;
};

/** Waits until the projections have passed the scenario's last command. */
const settle = async () => {
  const res = await api.get('/api/adoptions?limit=1', undefined, { [CONSISTENT_AFTER_HEADER]: s.last });
  expect(res.headers.get('x-consistency')).toBe('consistent');
};

async function publish(user: RegisteredUser, name: string, petType: string) {
  const bytes = await testImage(60, 40);
  const res = ok(
    await api.upload(
      '/api/adoptions',
      { field: 'image', bytes, filename: `${name}.png`, type: 'image/png' },
      user.token,
      {
        name,
        age: '3',
        location: 'Lahore',
        petType,
        description: `${name} is looking for a home.`,
      },
    ),
    201,
  );
  return res.body._id as string;
}

async function request(user: RegisteredUser, adId: string, key: string) {
  const res = ok(
    await api.post(
      `/api/adoptions/${adId}/request`,
      { name: user.username, email: user.email, phone: '03001234567', message: `${key} please` },
      user.token,
    ),
    201,
  );
  s.reqs[key] = res.body.request._id;
}

const decide = async (user: RegisteredUser, key: string, status: 'accepted' | 'rejected') => {
  await settle(); // the command side finds a request's ad in the read model
  ok(await api.put(`/api/adoptions/requests/${s.reqs[key]}`, { status }, user.token));
};

/**
 * A: four requests; one rejected, one withdrawn, the ad edited, one accepted (the fourth rejected with it).
 * B: one request; the ad deleted (the request closed). C: one request accepted, then the adopted ad deleted.
 */
async function runScenario() {
  s.adA = await publish(owner, 'Alpha', 'Dog');
  s.adB = await publish(owner, 'Bravo', 'Cat');
  s.adC = await publish(owner2, 'Charlie', 'Rabbit');
  await request(u[0]!, s.adA, 'A1');
  await request(u[1]!, s.adA, 'A2');
  await request(u[2]!, s.adA, 'A3');
  await request(u[3]!, s.adA, 'A4');
  await request(u[0]!, s.adB, 'B1');
  await request(u[1]!, s.adC, 'C2');
  await decide(owner, 'A2', 'rejected');
  ok(await api.post(`/api/adoptions/requests/${s.reqs.A3}/withdraw`, {}, u[2]!.token));
  ok(
    await api.put(
      `/api/adoptions/${s.adA}`,
      { description: 'Alpha, house-trained and gentle.' },
      owner.token,
    ),
  );
  await decide(owner, 'A1', 'accepted');
  ok(await api.del(`/api/adoptions/${s.adB}`, owner.token));
  await decide(owner2, 'C2', 'accepted');
  ok(await api.del(`/api/adoptions/${s.adC}`, owner2.token));
  await settle();
}

async function dump(): Promise<Record<string, Json[]>> {
  const out: Record<string, Json[]> = {};
  for (const table of ADOPTION_TABLES) {
    out[table] = (await t.db.pool.query(`SELECT * FROM ${table} ORDER BY ${PRIMARY_KEYS[table]}`)).rows;
  }
  return out;
}

const adoptionProjections = () =>
  allProjections.filter((p) => p.tables.some((table) => ADOPTION_TABLES.includes(table)));

const timeline = async (adId: string) => {
  const res = await api.get(`/api/admin/adoptions/${adId}/history`, adminToken, {
    [CONSISTENT_AFTER_HEADER]: s.last,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { adId: string; ad: Json; timeline: Json[] };
};

describe('the adoption read models after the scenario', () => {
  it('hold what the scenario did', async () => {
    const d = await dump();
    expect(
      d.adoption_ads!.map((a) => [a.name, a.status, a.request_count, a.deleted_at === null]).sort(),
    ).toEqual([
      ['Alpha', 'adopted', 4, true],
      ['Bravo', 'deleted', 1, false],
      ['Charlie', 'deleted', 1, false],
    ]);
    const statusOf = Object.fromEntries(d.adoption_requests!.map((r) => [r.id, [r.status, r.reason]]));
    expect(statusOf).toEqual({
      [s.reqs.A1!]: ['accepted', null],
      [s.reqs.A2!]: ['rejected', 'Declined by the owner'],
      [s.reqs.A3!]: ['withdrawn', null],
      [s.reqs.A4!]: ['rejected', 'Another applicant was accepted'],
      [s.reqs.B1!]: ['closed', 'The adoption ad was removed'],
      [s.reqs.C2!]: ['accepted', null],
    });
    const stats = Object.fromEntries(d.user_adoption_stats!.map((r) => [r.user_id, [r.ads, r.requests]]));
    expect(stats).toEqual({
      [owner.user._id]: [1, 0],
      [owner2.user._id]: [0, 0],
      [u[0]!.user._id]: [0, 2],
      [u[1]!.user._id]: [0, 2],
      [u[2]!.user._id]: [0, 1],
      [u[3]!.user._id]: [0, 1],
    });
    const events = Number(
      (await t.db.pool.query(`SELECT count(*) FROM events WHERE stream_id LIKE 'adoption-%'`)).rows[0].count,
    );
    expect(d.adoption_audit).toHaveLength(events);
  });
});

describe('rebuilding the adoption projections from the log', () => {
  it('reproduces identical rows in every adoption table, even from tampered tables', async () => {
    const before = await dump();
    const timelinesBefore = await Promise.all([s.adA, s.adB, s.adC].map(timeline));
    const projections = adoptionProjections();
    expect(projections.map((p) => p.name).sort()).toEqual([
      'adoption-ads',
      'adoption-audit',
      'user-adoption-stats',
    ]);

    // Damage the read models first: the rebuild must not rely on anything but the events.
    await t.db.pool.query(`UPDATE adoption_ads SET status = 'available', request_count = 99`);
    await t.db.pool.query(`DELETE FROM adoption_audit WHERE event_type = 'PetAdopted'`);
    await t.db.pool.query(`UPDATE user_adoption_stats SET requests = requests + 5`);
    expect(await dump()).not.toEqual(before);

    const store = testEventStore(t.db);
    try {
      for (const p of projections) {
        const result = await rebuildProjection(t.db.knex, store, p);
        expect(result.processed).toBeGreaterThan(0);
      }
    } finally {
      await store.close();
    }

    expect(await dump()).toEqual(before);
    expect(await Promise.all([s.adA, s.adB, s.adC].map(timeline))).toEqual(timelinesBefore);
  });

  it('leaves the live projector working: a later command still reaches the read models', async () => {
    const adId = await publish(owner, 'Delta', 'Bird');
    const res = await api.get(`/api/adoptions/${adId}`, undefined, { [CONSISTENT_AFTER_HEADER]: s.last });
    expect(res.headers.get('x-consistency')).toBe('consistent');
    expect(res.body).toMatchObject({ name: 'Delta', status: 'available' });
    const audit = await timeline(adId);
    expect(audit.timeline.map((e) => e.eventType)).toEqual(['AdoptionAdPublished']);
    const stats = await t.db.pool.query(`SELECT ads FROM user_adoption_stats WHERE user_id = $1`, [
      owner.user._id,
    ]);
    expect(stats.rows[0].ads).toBe(2);
  });
});

describe('GET /api/admin/adoptions/{id}/history', () => {
  type Row = [
    eventType: string,
    subject: string,
    request: string | null,
    from: string | null,
    to: string | null,
    actor: RegisteredUser,
  ];

  const expectTimeline = async (adId: string, rows: Row[]) => {
    const body = await timeline(adId);
    const logged = (
      await t.db.pool.query<{ position: string; type: string; created_at: Date; actor: string }>(
        `SELECT position::text, type, created_at, metadata->>'actorId' AS actor FROM events WHERE stream_id = $1 ORDER BY events.position`,
        [`adoption-${adId}`],
      )
    ).rows;
    expect(body.adId).toBe(adId);
    expect(body.timeline).toHaveLength(rows.length);
    expect(logged).toHaveLength(rows.length);
    body.timeline.forEach((entry, i) => {
      const [eventType, subject, request, from, to, actor] = rows[i]!;
      expect(entry, `entry ${i}`).toMatchObject({
        eventType,
        subject,
        requestId: request === null ? null : s.reqs[request],
        fromStatus: from,
        toStatus: to,
        actor: { _id: actor.user._id, username: actor.username },
        // Each entry is the event at that log position, stamped when it was recorded.
        position: logged[i]!.position,
        at: logged[i]!.created_at.toISOString(),
      });
      expect(logged[i]).toMatchObject({ type: eventType, actor: actor.user._id });
    });
    const positions = body.timeline.map((e) => BigInt(e.position));
    for (let i = 1; i < positions.length; i++) expect(positions[i]! > positions[i - 1]!).toBe(true);
    const times = body.timeline.map((e) => Date.parse(e.at));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
    return body;
  };

  it('tells the story of an adopted ad, in log order, with who did what', async () => {
    const [a1, a2, a3, a4] = u as [RegisteredUser, RegisteredUser, RegisteredUser, RegisteredUser];
    const body = await expectTimeline(s.adA, [
      ['AdoptionAdPublished', 'ad', null, null, 'available', owner],
      ['AdoptionRequested', 'request', 'A1', null, 'pending', a1],
      ['AdoptionRequested', 'request', 'A2', null, 'pending', a2],
      ['AdoptionRequested', 'request', 'A3', null, 'pending', a3],
      ['AdoptionRequested', 'request', 'A4', null, 'pending', a4],
      ['AdoptionRequestRejected', 'request', 'A2', 'pending', 'rejected', owner],
      ['AdoptionRequestWithdrawn', 'request', 'A3', 'pending', 'withdrawn', a3],
      ['AdoptionAdUpdated', 'ad', null, null, null, owner],
      ['AdoptionRequestAccepted', 'request', 'A1', 'pending', 'accepted', owner],
      ['PetAdopted', 'ad', 'A1', 'available', 'adopted', owner],
      ['AdoptionRequestRejected', 'request', 'A4', 'pending', 'rejected', owner],
    ]);
    expect(body.ad).toMatchObject({ name: 'Alpha', status: 'adopted', owner_id: owner.user._id });
    expect(body.timeline[5].details).toEqual({ reason: 'Declined by the owner' });
    expect(body.timeline[7].details).toEqual({ changed: ['description'] });
    expect(body.timeline[9].details).toEqual({ adopterId: a1.user._id });
    expect(body.timeline[10].details).toEqual({ reason: 'Another applicant was accepted' });
  });

  it('shows a deleted ad: the deletion and the requests it closed', async () => {
    const body = await expectTimeline(s.adB, [
      ['AdoptionAdPublished', 'ad', null, null, 'available', owner],
      ['AdoptionRequested', 'request', 'B1', null, 'pending', u[0]!],
      ['AdoptionAdDeleted', 'ad', null, 'available', 'deleted', owner],
      ['AdoptionRequestClosed', 'request', 'B1', 'pending', 'closed', owner],
    ]);
    expect(body.ad).toMatchObject({ name: 'Bravo', status: 'deleted' });
    expect(body.timeline[2].details).toEqual({ byAdmin: false });
    expect(body.timeline[3].details).toEqual({ reason: 'The adoption ad was removed' });
  });

  it('shows an adopted ad deleted afterwards going from adopted to deleted', async () => {
    await expectTimeline(s.adC, [
      ['AdoptionAdPublished', 'ad', null, null, 'available', owner2],
      ['AdoptionRequested', 'request', 'C2', null, 'pending', u[1]!],
      ['AdoptionRequestAccepted', 'request', 'C2', 'pending', 'accepted', owner2],
      ['PetAdopted', 'ad', 'C2', 'available', 'adopted', owner2],
      ['AdoptionAdDeleted', 'ad', null, 'adopted', 'deleted', owner2],
    ]);
  });

  it('answers 404 for an ad that never existed, 401 without a token and 403 for a non-admin', async () => {
    const unknown = await api.get(`/api/admin/adoptions/${crypto.randomUUID()}/history`, adminToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Adoption post not found');
    expect((await api.get(`/api/admin/adoptions/${s.adA}/history`)).status).toBe(401);
    const owned = await api.get(`/api/admin/adoptions/${s.adA}/history`, owner.token);
    expect(owned.status).toBe(403);
    expect(owned.body.message).toBe('Admins only');
  });
});
