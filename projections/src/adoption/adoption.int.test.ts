import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adoptionStream,
  CONSISTENT_AFTER_HEADER,
  type AdoptionEvent,
  type PetDetails,
} from '@pawhaven/contracts';
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
} from '@pawhaven/testing';

/**
 * The adoption read models are a pure function of the log: after a realistic scenario, rebuilding the adoption
 * projections from the events alone reproduces the same rows, and the admin audit timeline tells the scenario
 * exactly, in log order. The scenario goes on with moderation (an administrator deletes requests, users and a
 * deleted user's ad) and with events appended straight to the log that the command side would not record but a
 * projection must still take as `apply` does (repeats, events on rows that are gone or never were, a request
 * deleted and recorded again): a rebuild computes the rows in memory (`fold`), so each of these is where it could
 * drift from `apply`.
 */

const ADOPTION_TABLES = [
  'adoption_ads',
  'adoption_requests',
  'adoption_listing_counts',
  'adoption_audit',
  'user_adoption_stats',
  'user_adoption_stats_ads',
  'user_adoption_stats_requests',
];
const PRIMARY_KEYS: Record<string, string> = {
  adoption_ads: 'id',
  adoption_requests: 'id',
  adoption_listing_counts: 'owner_id, bucket',
  adoption_audit: 'position',
  user_adoption_stats: 'user_id',
  user_adoption_stats_ads: 'ad_id',
  user_adoption_stats_requests: 'request_id',
};

let t: TestApp;
let api: TestApi;
let adminToken: string;
let owner: RegisteredUser;
let owner2: RegisteredUser;
/** Deleted by an administrator with an ad (requested by others and by themself) and a request of their own. */
let leaver: RegisteredUser;
/** Deleted without ever having taken part in adoption. */
let bystander: RegisteredUser;
let u: RegisteredUser[];
let store: ReturnType<typeof testEventStore>;
/** The scenario's ids and the position of its last command. */
const s = {
  adA: '',
  adB: '',
  adC: '',
  adE: '',
  adF: '',
  adK: '',
  adG: crypto.randomUUID(),
  adH: crypto.randomUUID(),
  adI: crypto.randomUUID(),
  reqs: {} as Record<string, string>,
  last: '',
};

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  store = testEventStore(t.db);
  const users = await api.registerVerifiedUsers(9);
  [owner, owner2, leaver, bystander, ...u] = users as [
    RegisteredUser,
    RegisteredUser,
    RegisteredUser,
    RegisteredUser,
    ...RegisteredUser[],
  ];
  adminToken = (await t.signInAdmin()).token;
  await runScenario();
  await runModeration();
  await runStrayEvents();
  await settle();
});
afterAll(async () => {
  await store?.close();
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

async function request(user: RegisteredUser, adId: string, key: string, withProof = false) {
  const fields = { name: user.username, email: user.email, phone: '03001234567', message: `${key} please` };
  const res = ok(
    withProof
      ? await api.upload(
          `/api/adoptions/${adId}/request`,
          {
            field: 'petHistoryImage',
            bytes: await testImage(20, 20),
            filename: 'proof.png',
            type: 'image/png',
          },
          user.token,
          fields,
        )
      : await api.post(`/api/adoptions/${adId}/request`, fields, user.token),
    201,
  );
  s.reqs[key] = res.body.request._id;
}

/** An adoption event appended straight to the log, as the command side records it. */
async function record(adId: string, event: AdoptionEvent, actor?: RegisteredUser) {
  const appended = await store.append(
    adoptionStream(adId),
    [{ ...event, metadata: actor ? { actorId: actor.user._id } : {} }],
    'any',
  );
  s.last = appended.position.toString();
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

/**
 * E (the leaver's): requested by u0 and by the leaver themself. F (owner2's): requested by the leaver, u4 (with a
 * proof picture) and u2. K (u3's): requested by the leaver. An administrator deletes u2's rejected request, u4's
 * pending one (u4 requests again), u0's and the leaver's on F; then the leaver and the bystander, and E (gone from
 * the read models already).
 */
async function runModeration() {
  s.adE = await publish(leaver, 'Echo', 'Dog');
  s.adF = await publish(owner2, 'Foxtrot', 'Cat');
  s.adK = await publish(u[3]!, 'Kilo', 'Bird');
  await request(u[0]!, s.adE, 'E0');
  await request(leaver, s.adF, 'FL');
  await request(leaver, s.adK, 'KL');
  await request(u[4]!, s.adF, 'F4', true);
  await request(u[2]!, s.adF, 'F2');
  // The command side refuses a request on one's own ad; the projections must still forget it with its requester.
  s.reqs.EL = crypto.randomUUID();
  await record(
    s.adE,
    {
      type: 'AdoptionRequested',
      data: {
        requestId: s.reqs.EL,
        requesterId: leaver.user._id,
        name: leaver.username,
        email: leaver.email,
        phone: '03001234567',
        message: 'my own',
        petHistoryImage: null,
        requestedAt: new Date().toISOString(),
      },
    },
    leaver,
  );
  await decide(owner2, 'F2', 'rejected');
  await settle(); // the admin's deletion finds a request's ad in the read model
  ok(await api.del(`/api/admin/adoption-requests/${s.reqs.F2}`, adminToken));
  ok(await api.del(`/api/admin/adoption-requests/${s.reqs.F4}`, adminToken));
  ok(await api.del(`/api/admin/adoption-requests/${s.reqs.E0}`, adminToken));
  ok(await api.del(`/api/admin/adoption-requests/${s.reqs.FL}`, adminToken));
  await request(u[4]!, s.adF, 'F4again', true);
  ok(await api.del(`/api/admin/user/${leaver.user._id}`, adminToken));
  ok(await api.del(`/api/admin/user/${bystander.user._id}`, adminToken));
  ok(await api.del(`/api/admin/adoptions/${s.adE}`, adminToken));
  await settle();
}

/**
 * Events the command side would not record, appended straight to the log: G published twice, edited, requested
 * twice under one id, a request decided on that does not exist, G1 deleted and recorded again, then rejected and
 * withdrawn (its reason goes), G deleted twice then adopted; H, never published, gets every kind of event; a request
 * and an edit on E after its owner was deleted; E published again and its owner deleted again; I published by the
 * deleted leaver.
 */
async function runStrayEvents() {
  const now = new Date().toISOString();
  const details = (name: string, ownerIsDeleted = false): PetDetails => ({
    name,
    age: '2',
    ageUnit: 'months',
    petType: 'Hamster',
    breed: 'Syrian',
    gender: 'Female',
    size: 'Small',
    vaccinated: null,
    spayedNeutered: false,
    goodWithChildren: true,
    goodWithDogs: null,
    goodWithCats: false,
    description: ownerIsDeleted ? '' : `${name} likes sunflower seeds.`,
    location: ownerIsDeleted ? '' : 'Karachi',
    imageUrl: `/api/images/${name.toLowerCase()}`,
  });
  const requested = (requestId: string, requester: RegisteredUser): AdoptionEvent => ({
    type: 'AdoptionRequested',
    data: {
      requestId,
      requesterId: requester.user._id,
      name: requester.username,
      email: requester.email,
      phone: '03007654321',
      message: 'Stray request',
      petHistoryImage: null,
      requestedAt: now,
    },
  });
  const [g, h] = [s.adG, s.adH];
  const owner4 = u[4]!;
  s.reqs.G1 = crypto.randomUUID();
  const missing = crypto.randomUUID();
  const published: AdoptionEvent = {
    type: 'AdoptionAdPublished',
    data: { adId: g, ownerId: owner4.user._id, details: details('Golf'), publishedAt: now },
  };
  await record(g, published, owner4);
  await record(g, published, owner4);
  await record(
    g,
    {
      type: 'AdoptionAdUpdated',
      data: { changes: { name: 'Golfie', size: null, vaccinated: true, breed: 'Dwarf' }, updatedAt: now },
    },
    owner4,
  );
  await record(g, requested(s.reqs.G1, u[1]!), u[1]);
  await record(g, requested(s.reqs.G1, u[1]!), u[1]);
  await record(g, { type: 'AdoptionRequestAccepted', data: { requestId: missing, acceptedAt: now } }, owner4);
  const deletedRequest = (requestId: string, requester: RegisteredUser): AdoptionEvent => ({
    type: 'AdoptionRequestDeleted',
    data: { requestId, requesterId: requester.user._id, deletedBy: 'system', deletedAt: now },
  });
  await record(g, deletedRequest(s.reqs.G1, u[1]!));
  await record(g, requested(s.reqs.G1, u[1]!), u[1]);
  await record(
    g,
    { type: 'AdoptionRequestRejected', data: { requestId: s.reqs.G1, reason: 'Not yet', rejectedAt: now } },
    owner4,
  );
  await record(
    g,
    { type: 'AdoptionRequestWithdrawn', data: { requestId: s.reqs.G1, withdrawnAt: now } },
    u[1],
  );
  await record(g, deletedRequest(missing, u[1]!));
  await record(g, { type: 'AdoptionAdDeleted', data: { deletedAt: now, byAdmin: false } }, owner4);
  await record(g, { type: 'AdoptionAdDeleted', data: { deletedAt: now, byAdmin: true } });
  await record(
    g,
    { type: 'PetAdopted', data: { requestId: s.reqs.G1, adopterId: u[1]!.user._id, adoptedAt: now } },
    owner4,
  );

  await record(h, { type: 'AdoptionAdUpdated', data: { changes: { name: 'Ghost' }, updatedAt: now } });
  await record(h, requested(crypto.randomUUID(), u[3]!), u[3]);
  await record(h, {
    type: 'AdoptionRequestClosed',
    data: { requestId: missing, reason: 'Gone', closedAt: now },
  });
  await record(h, deletedRequest(missing, u[3]!));
  await record(h, {
    type: 'PetAdopted',
    data: { requestId: missing, adopterId: u[3]!.user._id, adoptedAt: now },
  });
  await record(h, { type: 'AdoptionAdDeleted', data: { deletedAt: now, byAdmin: true } });

  await record(s.adE, requested(crypto.randomUUID(), u[1]!), u[1]);
  await record(s.adE, { type: 'AdoptionAdUpdated', data: { changes: { age: '4' }, updatedAt: now } }, leaver);
  // E published again by the deleted leaver, who is deleted once more (a repeated UserDeleted), then publishes I.
  await record(
    s.adE,
    {
      type: 'AdoptionAdPublished',
      data: { adId: s.adE, ownerId: leaver.user._id, details: details('Echo', true), publishedAt: now },
    },
    leaver,
  );
  const deletedAgain = await store.append(
    `user-${leaver.user._id}`,
    [
      {
        type: 'UserDeleted',
        data: { userId: leaver.user._id, deletedBy: 'system', deletedAt: now },
        metadata: { actorId: 'system' },
      },
    ],
    'any',
  );
  s.last = deletedAgain.position.toString();
  await record(
    s.adI,
    {
      type: 'AdoptionAdPublished',
      data: { adId: s.adI, ownerId: leaver.user._id, details: details('India', true), publishedAt: now },
    },
    leaver,
  );
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
      // 'India', published after its owner was deleted: the placeholders of the shredded fields, its name too.
      ['', 'available', 0, true],
      ['Alpha', 'adopted', 4, true],
      ['Bravo', 'deleted', 1, false],
      ['Charlie', 'deleted', 1, false],
      // Three requests deleted by an administrator; u4 requested again.
      ['Foxtrot', 'available', 1, true],
      // Deleted (twice), then adopted: `deleted_at` stays. One request: G1, deleted and recorded again.
      ['Golfie', 'adopted', 1, false],
      // The leaver's request went with them.
      ['Kilo', 'available', 0, true],
    ]);
    expect(d.adoption_ads!.find((a) => a.id === s.adG)).toMatchObject({
      breed: 'Dwarf',
      gender: 'Female',
      size: null,
      vaccinated: true,
      spayed_neutered: false,
      good_with_dogs: null,
      location: 'Karachi',
    });
    expect(d.adoption_ads!.find((a) => a.id === s.adI)).toMatchObject({ location: '', description: '' });
    const statusOf = Object.fromEntries(d.adoption_requests!.map((r) => [r.id, [r.status, r.reason]]));
    expect(statusOf).toEqual({
      [s.reqs.A1!]: ['accepted', null],
      [s.reqs.A2!]: ['rejected', 'Declined by the owner'],
      [s.reqs.A3!]: ['withdrawn', null],
      [s.reqs.A4!]: ['rejected', 'Another applicant was accepted'],
      [s.reqs.B1!]: ['closed', 'The adoption ad was removed'],
      [s.reqs.C2!]: ['accepted', null],
      [s.reqs.F4again!]: ['pending', null],
      // Rejected, then withdrawn: the reason goes.
      [s.reqs.G1!]: ['withdrawn', null],
    });
    expect(d.adoption_requests!.find((r) => r.id === s.reqs.F4again)!.pet_history_image).toMatch(
      /^\/api\/images\//,
    );
    const stats = Object.fromEntries(d.user_adoption_stats!.map((r) => [r.user_id, [r.ads, r.requests]]));
    expect(stats).toEqual({
      [owner.user._id]: [1, 0],
      [owner2.user._id]: [1, 0],
      [leaver.user._id]: [1, 0],
      [u[0]!.user._id]: [0, 2],
      [u[1]!.user._id]: [0, 3],
      [u[2]!.user._id]: [0, 1],
      [u[3]!.user._id]: [1, 1],
      [u[4]!.user._id]: [0, 1],
    });
    expect(d.user_adoption_stats_ads!.map((r) => r.ad_id).sort()).toEqual(
      [s.adA, s.adB, s.adC, s.adF, s.adG, s.adI, s.adK].sort(),
    );
    expect(d.user_adoption_stats_requests!.map((r) => r.request_id).sort()).toEqual(
      ['A1', 'A2', 'A3', 'A4', 'B1', 'C2', 'F4again', 'G1'].map((key) => s.reqs[key]).sort(),
    );
    const events = Number(
      (await t.db.pool.query(`SELECT count(*) FROM events WHERE stream_id LIKE 'adoption-%'`)).rows[0].count,
    );
    expect(d.adoption_audit).toHaveLength(events);
  });
});

describe('rebuilding the adoption projections from the log', () => {
  it('changes no row of what the live projector built', async () => {
    for (const p of adoptionProjections()) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.changedRows, p.name).toBe(0);
    }
  });

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

    for (const p of projections) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.processed).toBeGreaterThan(0);
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
