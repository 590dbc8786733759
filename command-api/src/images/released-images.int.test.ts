import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postStream } from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
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
 * Pictures go with their content (issue 20): for every way a picture stops being shown — a post or an ad deleted by
 * its owner or an admin, an ad's or a profile's picture replaced, a profile picture removed, a request deleted by an
 * admin — `GET /api/images/{id}` answers 200 before and 404 right after the deleting request's answer, even while the
 * projections are held back; a deletion recorded by anything else is finished by the `released-images` reactor, and
 * so is one a crash interrupted. Pictures still shown (the demo's, other content's) stay. Caching lasts minutes.
 */

/** The reactor's checkpoint name (`releasedImagesReactor`). */
const REACTOR = 'released-images';

let t: TestApp;
let api: TestApi;
let image: Buffer;
let owner: RegisteredUser;
let bob: RegisteredUser;
let adminToken: string;

const ok = (res: ApiResponse, status = 200) => {
  expect(res.status, `${status}: ${res.text}`).toBe(status);
  return res.body;
};
const statusOf = async (path: string) => (await fetch(t.url + path)).status;
const file = (field: string) => ({ field, bytes: image, filename: 'pet.png', type: 'image/png' });
const adFields = { name: 'Biscuit', age: '2', location: 'Karachi', petType: 'Dog', description: 'Playful.' };
const requestFields = { name: 'Bob', email: 'bob@gmail.com', phone: '03001234567', message: 'Garden!' };

/** PUT with a multipart body: an ad's edit with a new picture. */
const putForm = (path: string, upload: ReturnType<typeof file>, token: string, fields = {}) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append(upload.field, new Blob([new Uint8Array(upload.bytes)], { type: upload.type }), upload.filename);
  return api.request('PUT', path, { form, token });
};
const newPost = async (user = owner) =>
  ok(await api.upload('/api/posts', file('image'), user.token, { caption: 'Nap time' }), 201) as {
    _id: string;
    imageUrl: string;
  };
const newAd = async (user = owner) =>
  ok(await api.upload('/api/adoptions', file('image'), user.token, adFields), 201) as {
    _id: string;
    imageUrl: string;
  };
const newProof = async (adId: string, user = bob) =>
  ok(
    await api.upload(`/api/adoptions/${adId}/request`, file('petHistoryImage'), user.token, requestFields),
    201,
  ).request as { _id: string; petHistoryImage: string };

/** Until `names` have all passed the event at `position` (or the whole log, when absent). */
async function projected(names: string[], position?: string) {
  for (let i = 0; ; i++) {
    const { rows } = await t.db.pool.query<{ done: number }>(
      `SELECT count(*)::int AS done FROM projection_checkpoints c,
              (SELECT transaction_id, position FROM events
                WHERE $1::bigint IS NULL OR position = $1::bigint
                ORDER BY transaction_id DESC, position DESC LIMIT 1) e
        WHERE c.name = ANY($2) AND (c.transaction_id, c.position) >= (e.transaction_id, e.position)`,
      [position ?? null, names],
    );
    if (rows[0]!.done === names.length) return;
    if (i > 500) throw new Error(`${names.join(', ')} did not pass ${position ?? 'the log'}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const reactorPassed = (position?: string) => projected([REACTOR], position);

beforeAll(async () => {
  t = await startTestApp({ demoData: true });
  api = t.api;
  image = await testImage(40, 30);
  [owner, bob] = await api.registerVerifiedUsers(2);
  adminToken = (await t.signInAdmin()).token;
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('deleting content deletes its pictures, before the answer', () => {
  it('a post deleted by its author, and one deleted by an admin', async () => {
    const [mine, moderated] = [await newPost(), await newPost()];
    expect(await statusOf(mine.imageUrl)).toBe(200);
    expect(await statusOf(moderated.imageUrl)).toBe(200);
    ok(await api.del(`/api/posts/${mine._id}`, owner.token));
    expect(await statusOf(mine.imageUrl)).toBe(404);
    ok(await api.del(`/api/admin/posts/${moderated._id}`, adminToken));
    expect(await statusOf(moderated.imageUrl)).toBe(404);
  });

  it('an ad deleted by its owner, and one deleted by an admin, with every picture it had', async () => {
    const [mine, moderated] = [await newAd(), await newAd()];
    const replaced = ok(await putForm(`/api/adoptions/${mine._id}`, file('image'), owner.token));
    expect(await statusOf(replaced.imageUrl)).toBe(200);
    expect(await statusOf(moderated.imageUrl)).toBe(200);
    ok(await api.del(`/api/adoptions/${mine._id}`, owner.token));
    expect(await statusOf(replaced.imageUrl)).toBe(404);
    ok(await api.del(`/api/admin/adoptions/${moderated._id}`, adminToken));
    expect(await statusOf(moderated.imageUrl)).toBe(404);
  });

  it("an ad's picture replaced: the old one goes, the new one and the ad's other content stay", async () => {
    const ad = await newAd();
    const proof = await newProof(ad._id);
    expect(await statusOf(ad.imageUrl)).toBe(200);
    const edited = ok(await putForm(`/api/adoptions/${ad._id}`, file('image'), owner.token, { name: 'Rex' }));
    expect(edited.imageUrl).not.toBe(ad.imageUrl);
    expect(await statusOf(ad.imageUrl)).toBe(404);
    expect(await statusOf(edited.imageUrl)).toBe(200);
    expect(await statusOf(proof.petHistoryImage)).toBe(200);
    // A text-only edit keeps the picture.
    ok(
      await api.request('PUT', `/api/adoptions/${ad._id}`, { body: { name: 'Rex II' }, token: owner.token }),
    );
    expect(await statusOf(edited.imageUrl)).toBe(200);
  });

  it('a profile picture replaced, then removed', async () => {
    const first = ok(await api.upload('/api/auth/upload-profile-image', file('image'), owner.token)).data
      .profileImage as string;
    expect(await statusOf(first)).toBe(200);
    const second = ok(await api.upload('/api/auth/upload-profile-image', file('image'), owner.token)).data
      .profileImage as string;
    expect(await statusOf(first)).toBe(404);
    expect(await statusOf(second)).toBe(200);
    ok(await api.del('/api/auth/remove-profile-image', owner.token));
    expect(await statusOf(second)).toBe(404);
  });

  it("a request's proof picture goes with the request an admin deleted; the ad's other proofs stay", async () => {
    const ad = await newAd();
    const cara = await api.registerVerifiedUser();
    const [deleted, kept] = [await newProof(ad._id), await newProof(ad._id, cara)];
    expect(await statusOf(deleted.petHistoryImage)).toBe(200);
    ok(await api.del(`/api/admin/adoption-requests/${deleted._id}`, adminToken));
    expect(await statusOf(deleted.petHistoryImage)).toBe(404);
    expect(await statusOf(kept.petHistoryImage)).toBe(200);
    expect(await statusOf(ad.imageUrl)).toBe(200);
  });

  it("an ad's deletion closes its requests without deleting them: their proofs stay with them", async () => {
    const ad = await newAd();
    const proof = await newProof(ad._id);
    const deletion = ok(await api.del(`/api/adoptions/${ad._id}`, owner.token));
    expect(await statusOf(ad.imageUrl)).toBe(404);
    expect(await statusOf(proof.petHistoryImage)).toBe(200);
    // Still listed for the admins (status closed), proof and all.
    const request = ok(
      await api.get(`/api/admin/adoption-requests/${proof._id}`, adminToken, {
        'x-consistent-after': deletion.position,
      }),
    );
    expect(request).toMatchObject({ status: 'closed', petHistoryImage: proof.petHistoryImage });
  });

  it('while the projections are held back by an open transaction, the picture still goes at once', async () => {
    const post = await newPost();
    await reactorPassed();
    const idle = await t.db.pool.connect();
    try {
      await idle.query('BEGIN');
      await idle.query('SELECT pg_current_xact_id()');
      const deletion = ok(await api.del(`/api/posts/${post._id}`, owner.token));
      expect(await statusOf(post.imageUrl)).toBe(404);
      // Held back indeed: the reactor has not seen the deletion yet.
      const { rows } = await t.db.pool.query(
        `SELECT 1 FROM projection_checkpoints c, events e WHERE c.name = $1 AND e.position = $2
            AND (c.transaction_id, c.position) >= (e.transaction_id, e.position)`,
        [REACTOR, deletion.position],
      );
      expect(rows).toEqual([]);
    } finally {
      await idle.query('ROLLBACK');
      idle.release();
    }
  });
});

describe('the released-images reactor', () => {
  it('deletes the picture of a deletion recorded without the command side', async () => {
    const post = await newPost();
    const store = new PostgresEventStore(t.db.pool);
    const at = new Date().toISOString();
    const { position } = await store.append(
      postStream(post._id),
      [
        {
          type: 'PostDeleted',
          data: {
            postId: post._id,
            authorId: owner.user._id,
            actorId: owner.user._id,
            byAdmin: false,
            deletedAt: at,
          },
          metadata: { actorId: owner.user._id },
        },
      ],
      'any',
    );
    await reactorPassed(String(position));
    expect(await statusOf(post.imageUrl)).toBe(404);
  });

  it('after a crash, a restarted app picks up from its checkpoint: an unshown picture left behind goes', async () => {
    const post = await newPost();
    ok(await api.del(`/api/posts/${post._id}`, owner.token));
    await reactorPassed();
    // As if the process had died before the deletion reached the reactor, and before the command side removed it.
    const id = post.imageUrl.slice('/api/images/'.length);
    await t.db.knex('images').insert({ id, content_type: 'image/webp', bytes: image, width: 40, height: 30 });
    await t.db.knex('projection_checkpoints').where({ name: REACTOR }).delete();
    expect(await statusOf(post.imageUrl)).toBe(200);
    // The crash: the app stops (its projector with it); another starts on the same database and serves from now on.
    const crashed = t;
    await crashed.app.stop();
    const restarted = await startTestApp({ db: crashed.db });
    t = {
      ...restarted,
      async stop() {
        await restarted.stop();
        await crashed.db.drop();
      },
    };
    api = t.api;
    await reactorPassed();
    expect(await statusOf(post.imageUrl)).toBe(404);
    // Replaying the whole log deleted nothing still shown: the demo's pictures, the feed's, the listing's.
    const feed = ok(await api.get('/api/posts?limit=50')) as Json[];
    const ads = ok(await api.get('/api/adoptions?limit=50')) as Json[];
    const shown = [...feed.map((p) => p.imageUrl), ...ads.map((a) => a.imageUrl)];
    expect(shown.length).toBeGreaterThan(6);
    for (const path of shown) expect(await statusOf(path), path).toBe(200);
  });
});

describe('caching', () => {
  it('lets browsers and proxies keep a picture for five minutes, then revalidate; a deleted one is 404', async () => {
    const post = await newPost();
    const res = await fetch(t.url + post.imageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag');
    expect(etag).toBe(`"${post.imageUrl.slice('/api/images/'.length)}"`);
    const again = await fetch(t.url + post.imageUrl, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=300');
    ok(await api.del(`/api/posts/${post._id}`, owner.token));
    const gone = await fetch(t.url + post.imageUrl, { headers: { 'if-none-match': etag! } });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toBeNull();
    expect(gone.headers.get('etag')).not.toBe(etag);
  });
});
