import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LIMITS, ADMIN_MESSAGES as AM, CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { startTestApp, type Json, type RegisteredUser, type TestApi, type TestApp } from '@pawhaven/testing';
import { recordProjectionError } from '@pawhaven/platform';
import { eventsList, runList } from './lists';
import { rebuildState } from './projections';
import { RebuildBoard } from './rebuild-board';

/**
 * The admin read side over real HTTP, on data made through the real commands: react-admin's simple-rest conventions
 * (Content-Range, sort, range, filter, 400s), the plain admin calls and shapes, the overview, the event browser and the
 * Projections screen.
 */

let t: TestApp;
let api: TestApi;
let admin: string;
let alice: RegisteredUser; // regular: two ads, two posts
let bob: RegisteredUser; // veterinarian: requests alice's first ad, two comments
let carol: RegisteredUser; // regular: requests alice's first ad, one comment
let last = 0n;
const ads: Json[] = [];
const posts: Json[] = [];
let bobRequest: Json;

const track = <T extends { position?: string }>(body: T): T => {
  if (body.position && BigInt(body.position) > last) last = BigInt(body.position);
  return body;
};
/** An admin read that waits for the projections to have seen every write above. */
const get = (path: string, token = admin) =>
  api.get(path, token, { [CONSISTENT_AFTER_HEADER]: last.toString() });
const q = (params: Record<string, unknown>) =>
  '?' +
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

const png = () =>
  sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 90, g: 160, b: 40 } } })
    .png()
    .toBuffer();
const image = async () => ({ field: 'image', bytes: await png(), filename: 'pet.png', type: 'image/png' });

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  admin = (await t.signInAdmin()).token;
  alice = await api.registerVerifiedUser();
  bob = await api.registerVerifiedUser({ isVeterinarian: true });
  carol = await api.registerVerifiedUser();
  for (const u of [alice, bob, carol]) track({ position: u.position });

  for (const name of ['Moti', 'Billo']) {
    const res = await api.upload('/api/adoptions', await image(), alice.token, {
      name,
      age: '2',
      location: 'Lahore',
      petType: name === 'Moti' ? 'Dog' : 'Cat',
      description: `${name} is friendly and house-trained.`,
    });
    expect(res.status, res.text).toBe(201);
    ads.push(track(res.body));
  }
  for (const u of [bob, carol]) {
    const res = await api.post(
      `/api/adoptions/${ads[0]._id}/request`,
      { name: u.username, email: u.email, phone: '+92 300 1234567', message: 'We have a garden.' },
      u.token,
    );
    expect(res.status, res.text).toBe(201);
    if (u === bob) bobRequest = res.body.request;
    track(res.body);
  }
  for (const caption of ['First walk', 'Nap time']) {
    const res = await api.upload('/api/posts', await image(), alice.token, { caption });
    expect(res.status, res.text).toBe(201);
    posts.push(track(res.body));
  }
  for (const [u, content] of [
    [bob, 'Looks healthy!'],
    [bob, 'Mind the heat.'],
    [carol, 'So cute'],
  ] as const) {
    const res = await api.post(`/api/comments/${posts[0]._id}`, { content }, u.token);
    expect(res.status, res.text).toBe(201);
    track(res.body);
  }
});
afterAll(async () => {
  await t?.stop();
});

describe('ra-data-simple-rest lists', () => {
  it('answers a page with Content-Range (exposed) and the total; admins are not in Manage Users', async () => {
    const res = await get(`/api/admin/users${q({ sort: ['username', 'ASC'], range: [0, 1], filter: {} })}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-range')).toBe('users 0-1/3');
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Range');
    const names = [alice, bob, carol].map((u) => u.username).sort();
    expect(res.body.map((r: Json) => r.username)).toEqual(names.slice(0, 2));
    expect(res.body[0].id).toBe(res.body[0]._id);

    const rest = await get(`/api/admin/users${q({ sort: ['username', 'ASC'], range: [2, 3] })}`);
    expect(rest.headers.get('content-range')).toBe('users 2-2/3');
    expect(rest.body.map((r: Json) => r.username)).toEqual(names.slice(2));
  });

  it('filters users by name or e-mail (any case) and by veterinarian', async () => {
    const byEmail = await get(
      `/api/admin/users${q({ filter: { q: alice.email.toUpperCase() }, range: [0, 24] })}`,
    );
    expect(byEmail.body.map((r: Json) => r.id)).toEqual([alice.user._id]);
    const byName = await get(
      `/api/admin/users${q({ filter: { q: carol.username.toUpperCase() }, range: [0, 24] })}`,
    );
    expect(byName.body.map((r: Json) => r.id)).toEqual([carol.user._id]);
    const vets = await get(`/api/admin/users${q({ filter: { isVeterinarian: true }, range: [0, 24] })}`);
    expect(vets.body.map((r: Json) => r.id)).toEqual([bob.user._id]);
    expect(vets.headers.get('content-range')).toBe('users 0-0/1');
    const none = await get(`/api/admin/users${q({ filter: { q: 'nobody-like-this' }, range: [0, 24] })}`);
    expect(none.body).toEqual([]);
    expect(none.headers.get('content-range')).toBe('users 0-0/0');
  });

  it("counts each user's posts, comments, ads and requests; newest first by default", async () => {
    const res = await get(`/api/admin/users${q({ range: [0, 24] })}`);
    const row = (u: RegisteredUser) => res.body.find((r: Json) => r.id === u.user._id);
    expect(row(alice)).toMatchObject({
      posts: 2,
      comments: 0,
      adoptions: 2,
      requests: 0,
      isVeterinarian: false,
    });
    expect(row(bob)).toMatchObject({
      posts: 0,
      comments: 2,
      adoptions: 0,
      requests: 1,
      isVeterinarian: true,
    });
    expect(row(carol)).toMatchObject({ posts: 0, comments: 1, adoptions: 0, requests: 1 });
    expect(res.body.map((r: Json) => r.id)).toEqual([carol, bob, alice].map((u) => u.user._id));
    const oldest = await get(`/api/admin/users${q({ sort: ['createdAt', 'ASC'], range: [0, 24] })}`);
    expect(oldest.body.map((r: Json) => r.id)).toEqual([alice, bob, carol].map((u) => u.user._id));
    const chatty = await get(`/api/admin/users${q({ sort: ['comments', 'DESC'], range: [0, 24] })}`);
    expect(chatty.body.map((r: Json) => r.id)).toEqual([bob, carol, alice].map((u) => u.user._id));
    expect(Object.keys(row(alice)).sort()).toEqual(
      [
        '_id',
        'about',
        'adoptions',
        'city',
        'comments',
        'createdAt',
        'email',
        'id',
        'isAdmin',
        'isVeterinarian',
        'joinedDate',
        'lastActive',
        'posts',
        'profileImage',
        'requests',
        'status',
        'username',
        'verified',
      ].sort(),
    );
  });

  it('refuses unknown sort columns, bad ranges and bad filters with a 400 and a message', async () => {
    const cases: [string, string | RegExp][] = [
      [q({ sort: ['password', 'ASC'] }), AM.badSort('users', 'password', ['id']).split('.')[0]!],
      [q({ sort: ['isVeterinarian', 'DESC'] }), "Cannot sort users by 'isVeterinarian'"],
      [q({ sort: ['username', 'SIDEWAYS'] }), AM.badSortShape],
      ['?sort=username', AM.badSortShape],
      [q({ range: [5, 2] }), AM.badRange],
      [q({ range: [0, ADMIN_LIMITS.pageSizeMax] }), AM.badRange],
      [q({ range: [-1, 3] }), AM.badRange],
      ['?range=%5B0%2C', AM.badRange],
      ['?filter=%7Bnope', AM.badFilter],
      [q({ filter: [1] }), AM.badFilter],
      [q({ filter: { password: 'x' } }), /Invalid filter/],
      [q({ filter: { isVeterinarian: 'maybe' } }), /Invalid filter 'isVeterinarian'/],
    ];
    for (const [query, message] of cases) {
      const res = await get(`/api/admin/users${query}`);
      expect(res.status, query).toBe(400);
      if (typeof message === 'string') expect(res.body.message, query).toContain(message);
      else expect(res.body.message, query).toMatch(message);
    }
    const ok = await get(`/api/admin/users${q({ range: [0, ADMIN_LIMITS.pageSizeMax - 1] })}`);
    expect(ok.status).toBe(200);
  });

  it('serves one row by id, and 404 for an unknown one', async () => {
    const one = await get(`/api/admin/users/${bob.user._id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: bob.user._id,
      username: bob.username,
      email: bob.email,
      comments: 2,
    });
    expect((await get('/api/admin/users/nobody')).status).toBe(404);
    expect((await get(`/api/admin/posts/${posts[0]._id}`)).body).toMatchObject({ commentCount: 3 });
    expect((await get('/api/admin/posts/not-a-uuid')).status).toBe(404);
    expect((await get(`/api/admin/adoptions/${ads[1]._id}`)).body).toMatchObject({ name: 'Billo' });
    expect((await get(`/api/admin/adoption-requests/${bobRequest._id}`)).body).toMatchObject({
      requester: { username: bob.username },
    });
  });

  it('getMany: filter by a list of ids', async () => {
    const res = await get(`/api/admin/users${q({ filter: { id: [alice.user._id, carol.user._id] } })}`);
    expect(res.body.map((r: Json) => r.id).sort()).toEqual([alice.user._id, carol.user._id].sort());
  });
});

describe('the plain admin calls and shapes', () => {
  it('GET /api/admin/users-with-stats: veterinarians, regularUsers and userStats keyed by user id', async () => {
    const res = await get('/api/admin/users-with-stats');
    expect(res.status).toBe(200);
    expect(res.body.veterinarians.map((u: Json) => u._id)).toEqual([bob.user._id]);
    expect(res.body.regularUsers.map((u: Json) => u._id).sort()).toEqual(
      [alice.user._id, carol.user._id].sort(),
    );
    expect(res.body.userStats[alice.user._id]).toEqual({ posts: 2, comments: 0, adoptions: 2, requests: 0 });
    expect(res.body.userStats[bob.user._id]).toEqual({ posts: 0, comments: 2, adoptions: 0, requests: 1 });
    expect(res.body.totals).toEqual({ veterinarians: 1, regularUsers: 2 });
  });

  it('GET /api/admin/user-stats/{id}', async () => {
    const res = await get(`/api/admin/user-stats/${carol.user._id}`);
    expect(res.body).toMatchObject({
      userId: carol.user._id,
      posts: 0,
      comments: 1,
      adoptions: 0,
      requests: 1,
    });
    expect((await get('/api/admin/user-stats/nobody')).status).toBe(404);
  });

  it('GET /api/admin/adoptions: the admin view of each ad, a plain array without range', async () => {
    const res = await get('/api/admin/adoptions');
    expect(res.status).toBe(200);
    expect(res.body.map((a: Json) => a.name)).toEqual(['Billo', 'Moti']);
    expect(res.body[1]).toMatchObject({
      _id: ads[0]._id,
      name: 'Moti',
      petType: 'Dog',
      age: '2',
      description: 'Moti is friendly and house-trained.',
      status: 'available',
      userId: { _id: alice.user._id, username: alice.username, email: alice.email },
      requestCount: 2,
    });
    expect(res.body[1].imageUrl).toEqual(expect.any(String));
    expect(Date.parse(res.body[1].createdAt)).not.toBeNaN();
    expect(res.headers.get('content-range')).toBe('adoptions 0-1/2');

    const mine = await get(`/api/admin/adoptions/user/${alice.user._id}`);
    expect(mine.body).toHaveLength(2);
    expect((await get(`/api/admin/adoptions/user/${bob.user._id}`)).body).toEqual([]);
    const cats = await get(`/api/admin/adoptions${q({ filter: { petType: 'Cat' } })}`);
    expect(cats.status).toBe(400);
    const byName = await get(`/api/admin/adoptions${q({ filter: { q: 'bil', ownerId: alice.user._id } })}`);
    expect(byName.body.map((a: Json) => a.name)).toEqual(['Billo']);
    const sorted = await get(`/api/admin/adoptions${q({ sort: ['createdAt', 'ASC'], range: [1, 1] })}`);
    expect(sorted.body.map((a: Json) => a.name)).toEqual(['Billo']);
    expect(sorted.headers.get('content-range')).toBe('adoptions 1-1/2');
    for (const [sort, names] of [
      [
        ['name', 'ASC'],
        ['Billo', 'Moti'],
      ],
      [
        ['name', 'DESC'],
        ['Moti', 'Billo'],
      ],
      [
        ['petType', 'ASC'],
        ['Billo', 'Moti'],
      ],
      [
        ['status', 'ASC'],
        ['Billo', 'Moti'],
      ],
    ] as const) {
      const res = await get(`/api/admin/adoptions${q({ sort, range: [0, 9] })}`);
      expect(
        res.body.map((a: Json) => a.name),
        sort.join(' '),
      ).toEqual(names);
    }
  });

  it('GET /api/admin/adoption-requests: requester and ad populated', async () => {
    const res = await get('/api/admin/adoption-requests');
    expect(res.body).toHaveLength(2);
    const row = res.body.find((r: Json) => r._id === bobRequest._id);
    expect(row).toMatchObject({
      requester: { _id: bob.user._id, username: bob.username, email: bob.email },
      adId: { _id: ads[0]._id, name: 'Moti', petType: 'Dog' },
      name: bob.username,
      email: bob.email,
      phone: '+92 300 1234567',
      message: 'We have a garden.',
      petHistoryImage: null,
      status: 'pending',
    });
    const bobs = await get(`/api/admin/adoption-requests/user/${bob.user._id}`);
    expect(bobs.body.map((r: Json) => r._id)).toEqual([bobRequest._id]);
    const byAd = await get(`/api/admin/adoption-requests${q({ filter: { adId: ads[1]._id } })}`);
    expect(byAd.body).toEqual([]);
    const pending = await get(
      `/api/admin/adoption-requests${q({ filter: { status: 'pending', requesterId: carol.user._id } })}`,
    );
    expect(pending.body).toHaveLength(1);
    const byName = await get(`/api/admin/adoption-requests${q({ sort: ['name', 'ASC'], range: [0, 9] })}`);
    expect(byName.body.map((r: Json) => r.name)).toEqual([bob.username, carol.username].sort());
  });

  it('GET /api/admin/posts and /posts/user/{userId}: image, caption, user, created, comment count', async () => {
    const res = await get('/api/admin/posts');
    expect(res.body.map((p: Json) => p.caption)).toEqual(['Nap time', 'First walk']);
    expect(res.body[1]).toMatchObject({
      _id: posts[0]._id,
      commentCount: 3,
      likeCount: 0,
      userId: { _id: alice.user._id, username: alice.username, email: alice.email, isVeterinarian: false },
    });
    expect((await get(`/api/admin/posts/user/${alice.user._id}`)).body).toHaveLength(2);
    expect((await get(`/api/admin/posts/user/${bob.user._id}`)).body).toEqual([]);
    const oldest = await get(`/api/admin/posts${q({ sort: ['createdAt', 'ASC'], range: [0, 0] })}`);
    expect(oldest.body[0]._id).toBe(posts[0]._id);
    expect(oldest.headers.get('content-range')).toBe('posts 0-0/2');
    const busiest = await get(`/api/admin/posts${q({ sort: ['commentCount', 'DESC'], range: [0, 0] })}`);
    expect(busiest.body[0]._id).toBe(posts[0]._id);
  });

  it('GET /api/admin/comments, /comments/user/{userId}, /comments/post/{postId}', async () => {
    const all = await get('/api/admin/comments');
    expect(all.body.map((c: Json) => c.content)).toEqual(['So cute', 'Mind the heat.', 'Looks healthy!']);
    expect(all.body[0]).toMatchObject({
      userId: { _id: carol.user._id, username: carol.username, email: carol.email, isVeterinarian: false },
      postId: { _id: posts[0]._id, caption: 'First walk' },
    });
    expect(all.body[0].postId.imageUrl).toEqual(expect.any(String));
    expect((await get(`/api/admin/comments/user/${bob.user._id}`)).body).toHaveLength(2);
    expect((await get(`/api/admin/comments/post/${posts[0]._id}`)).body).toHaveLength(3);
    expect((await get(`/api/admin/comments/post/${posts[1]._id}`)).body).toEqual([]);
    expect((await get('/api/admin/comments/post/not-a-uuid')).body).toEqual([]);
    const oldest = await get(
      `/api/admin/comments${q({ sort: ['createdAt', 'ASC'], range: [0, 0], filter: { postId: posts[0]._id } })}`,
    );
    expect(oldest.body.map((c: Json) => c.content)).toEqual(['Looks healthy!']);
    expect(oldest.headers.get('content-range')).toBe('comments 0-0/3');
  });
});

describe('GET /api/admin/overview', () => {
  it('counts users by kind, ads and requests by status, content, and sign-ups per week', async () => {
    const res = await get('/api/admin/overview');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      veterinarians: 1,
      regularUsers: 2,
      admins: 1,
      ads: { available: 2, adopted: 0, deleted: 0, total: 2 },
      requests: { pending: 2, accepted: 0, rejected: 0, total: 2 },
      posts: 2,
      comments: 3,
      messages: 0,
    });
    const weeks = res.body.signUpsPerWeek as { weekStart: string; count: number }[];
    expect(weeks).toHaveLength(12);
    expect(weeks.map((w) => w.weekStart)).toEqual([...weeks.map((w) => w.weekStart)].sort());
    expect(new Date(`${weeks[11]!.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(weeks.at(-1)!.count).toBe(3);
    expect(weeks.slice(0, 11).every((w) => w.count === 0)).toBe(true);
  });
});

describe('event browser', () => {
  it("finds streams by id substring or event type and pages through a stream's events", async () => {
    const adId = String(ads[0]._id);
    const found = await get(
      `/api/admin/streams${q({ filter: { q: adId.slice(4, 16).toUpperCase() }, range: [0, 9] })}`,
    );
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    const stream = found.body[0];
    expect(stream.streamId).toContain(adId);
    expect(stream).toMatchObject({ id: stream.streamId, events: 3, lastRevision: 2 });

    const byType = await get(`/api/admin/streams${q({ filter: { type: 'PostPublished' }, range: [0, 9] })}`);
    expect(byType.headers.get('content-range')).toMatch(/^streams 0-1\/2$/);

    const events = await get(
      `/api/admin/events${q({ filter: { streamId: stream.streamId }, range: [0, 1] })}`,
    );
    expect(events.headers.get('content-range')).toBe('events 0-1/3');
    expect(events.body.map((e: Json) => e.revision)).toEqual([0, 1]);
    expect(events.body[0]).toMatchObject({ streamId: stream.streamId, type: stream.firstType });
    expect(Object.keys(events.body[0]).sort()).toEqual(
      [
        'data',
        'eventId',
        'id',
        'metadata',
        'position',
        'revision',
        'streamId',
        'time',
        'transactionId',
        'type',
      ].sort(),
    );
    expect(BigInt(events.body[1].position)).toBeGreaterThan(BigInt(events.body[0].position));
    // Personal fields read as the app reads them (opened with their owner's key), not as sealed envelopes.
    expect(events.body[1]).toMatchObject({ type: 'AdoptionRequested' });
    expect(events.body[1].data).toMatchObject({ phone: '+92 300 1234567', message: 'We have a garden.' });
    const next = await get(`/api/admin/events${q({ filter: { streamId: stream.streamId }, range: [2, 3] })}`);
    expect(next.body.map((e: Json) => e.revision)).toEqual([2]);

    const one = await get(`/api/admin/events/${events.body[0].id}`);
    expect(one.body).toMatchObject({ id: events.body[0].id, type: events.body[0].type });
    expect((await get('/api/admin/events/not-a-position')).status).toBe(404);
    expect((await get(`/api/admin/streams/${encodeURIComponent(stream.streamId)}`)).body.events).toBe(3);
  });

  it('counts a list as long as the log exactly up to its cap, then answers the planner estimate (never less)', async () => {
    const params = {
      sort: { field: 'position', order: 'ASC' as const },
      range: { start: 0, end: 1 },
      filter: {},
      offset: 0,
      limit: 2,
    };
    const exact = await runList(t.db.knex, eventsList, params);
    expect(exact.total).toBe(Number((await t.db.pool.query(`SELECT count(*) AS n FROM events`)).rows[0].n));
    const capped = await runList(t.db.knex, { ...eventsList, countUpTo: 3 }, params);
    expect(capped.rows).toEqual(exact.rows);
    // Past the cap the total is an estimate: at least the cap plus one, never a count of every event.
    expect(capped.total).toBeGreaterThanOrEqual(4);
  });

  it('keeps the adoption audit', async () => {
    const res = await get(`/api/admin/adoptions/${ads[0]._id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.timeline.length).toBeGreaterThanOrEqual(3);
  });
});

describe('GET /api/admin/projections', () => {
  it('lists every projection with checkpoint, lag, held-back state and the rows of its tables', async () => {
    const res = await get('/api/admin/projections');
    expect(res.status).toBe(200);
    const names = res.body.projections.map((p: Json) => p.name);
    expect(names).toEqual(expect.arrayContaining(['users', 'adoption-ads', 'community-posts', 'chat']));
    const community = res.body.projections.find((p: Json) => p.name === 'community-posts');
    expect(community).toMatchObject({
      lag: expect.any(Number),
      heldBack: 0,
      lastError: null,
      rebuilding: false,
    });
    expect(BigInt(community.position)).toBeGreaterThanOrEqual(last);
    expect(community.tables).toEqual(
      expect.arrayContaining([
        { name: 'posts', rows: 2, estimated: false },
        { name: 'post_comments', rows: 3, estimated: false },
      ]),
    );
    expect(res.body.heldBack).toMatchObject({ heldBack: false, events: 0 });
    expect(BigInt(res.body.headPosition)).toBeGreaterThanOrEqual(last);
  });

  it('shows the last dashboard rebuild to a process that did not hear it (started later)', async () => {
    const started = await t.api.post('/api/admin/projections/rebuild', { name: 'landing-stats' }, admin);
    expect(started.status, started.text).toBe(202);
    const { rebuildId } = started.body.rebuild;
    // A query-api process started after the rebuild has an empty board: it reads what the runner recorded.
    let seen = await rebuildState(t.db.knex, new RebuildBoard());
    for (let i = 0; i < 200 && seen?.state !== 'finished'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await rebuildState(t.db.knex, new RebuildBoard());
    }
    expect(seen).toMatchObject({ rebuildId, target: 'landing-stats', state: 'finished', percent: 100 });
  });

  it("shows a projection's last failure, recorded where every process reads it", async () => {
    // What the live projector records when a batch fails (and a failed rebuild): platform's projector tests.
    await recordProjectionError(
      t.db.knex,
      ['landing-stats'],
      new Error('connection terminated unexpectedly'),
    );
    const res = await get('/api/admin/projections');
    const landing = res.body.projections.find((p: Json) => p.name === 'landing-stats');
    expect(landing.lastError).toBe('connection terminated unexpectedly');
    expect(Date.now() - Date.parse(landing.lastErrorAt)).toBeLessThan(60_000);
    expect(res.body.projections.find((p: Json) => p.name === 'users').lastError).toBeNull();
  });
});
