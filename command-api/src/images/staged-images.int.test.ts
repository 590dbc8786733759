import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptionStream, userStream } from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import {
  startTestApp,
  type ApiResponse,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';
import { sweepStagedImages, withStagedImage, type ImageKind } from './image-store';

/**
 * An uploaded image is kept only when its command is accepted: for every endpoint that carries one, each kind of
 * refusal, a failed append and an append that keeps losing its race leave the images table as it was; an accepted
 * command leaves exactly one image, confirmed (not staged). Failures are injected with a trigger on `events` in this
 * file's own database: a marker in the event data, or the stream listed in `test_append_faults`.
 */

let t: TestApp;
let api: TestApi;
let owner: RegisteredUser;
let bob: RegisteredUser;
let carol: RegisteredUser;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  [owner, bob, carol] = await api.registerVerifiedUsers(3);
  await t.db.pool.query(`
    CREATE TABLE test_append_faults (stream_id text PRIMARY KEY, fault text NOT NULL);
    CREATE FUNCTION test_append_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      -- By stream, or by the owner of a new ad (its stream is not known before; its texts are sealed).
      f text := (SELECT fault FROM test_append_faults
                  WHERE stream_id IN (NEW.stream_id, 'owner:' || (NEW.data->>'ownerId')) LIMIT 1);
    BEGIN
      IF f = 'fail' THEN
        RAISE EXCEPTION 'injected append failure';
      END IF;
      IF f = 'race' THEN
        RAISE EXCEPTION 'injected lost race' USING ERRCODE = 'unique_violation';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_append_fault BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_append_fault();
  `);
});
afterAll(async () => {
  await t?.stop();
});

// ---------------------------------------------------------------------------------------------- helpers

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 90, g: 160, b: 60 } } })
    .png()
    .toBuffer();

const imageCounts = async () => {
  const { rows } = await t.db.pool.query<{ total: number; staged: number }>(
    'SELECT count(*)::int AS total, count(staged_for)::int AS staged FROM images',
  );
  return rows[0]!;
};

/** Runs `fn`, then checks it added exactly `added` images and left none staged. */
async function addsImages<T>(added: number, fn: () => Promise<T>): Promise<T> {
  const before = await imageCounts();
  const result = await fn();
  expect(await imageCounts()).toEqual({ total: before.total + added, staged: 0 });
  return result;
}

const injectFault = (streamId: string, fault: 'fail' | 'race') =>
  t.db.pool.query('INSERT INTO test_append_faults (stream_id, fault) VALUES ($1, $2)', [streamId, fault]);
const clearFault = (streamId: string) =>
  t.db.pool.query('DELETE FROM test_append_faults WHERE stream_id = $1', [streamId]);

const adFields = (overrides: Record<string, string> = {}) => ({
  name: 'Moti',
  age: '2',
  location: 'Lahore',
  petType: 'Dog',
  description: 'Friendly and house-trained.',
  ...overrides,
});
const requestFields = (user: RegisteredUser, overrides: Record<string, string> = {}) => ({
  name: user.username,
  email: user.email,
  phone: '+92 300 1234567',
  message: 'We have a garden.',
  ...overrides,
});

const file = async (field: string) => ({
  field,
  bytes: await png(),
  filename: 'pet.png',
  type: 'image/png',
});

const uploadProfile = async (user: RegisteredUser) =>
  api.upload('/api/auth/upload-profile-image', await file('image'), user.token);
const createAd = async (user: RegisteredUser, overrides: Record<string, string> = {}) =>
  api.upload('/api/adoptions', await file('image'), user.token, adFields(overrides));
const updateAd = async (user: RegisteredUser, adId: string, fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const f = await file('image');
  form.append('image', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.filename);
  return api.request('PUT', `/api/adoptions/${adId}`, { form, token: user.token });
};
const requestWithProof = async (user: RegisteredUser, adId: string, overrides: Record<string, string> = {}) =>
  api.upload(
    `/api/adoptions/${adId}/request`,
    await file('petHistoryImage'),
    user.token,
    requestFields(user, overrides),
  );

async function newAd(user = owner): Promise<string> {
  const res = await createAd(user);
  expect(res.status, res.text).toBe(201);
  return res.body._id as string;
}

const expectStatus = (res: ApiResponse, status: number) => expect(res.status, res.text).toBe(status);

// ---------------------------------------------------------------------------------------------- endpoints

describe('POST /api/auth/upload-profile-image', () => {
  it('keeps exactly one image when accepted, served at its path', async () => {
    const res = await addsImages(1, () => uploadProfile(bob));
    expectStatus(res, 200);
    const img = await fetch(t.url + res.body.data.profileImage);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
  });

  it('keeps nothing when the append fails or keeps losing its race', async () => {
    const stream = userStream(carol.user._id);
    await injectFault(stream, 'fail');
    try {
      expectStatus(await addsImages(0, () => uploadProfile(carol)), 500);
    } finally {
      await clearFault(stream);
    }
    await injectFault(stream, 'race');
    try {
      expectStatus(await addsImages(0, () => uploadProfile(carol)), 409);
    } finally {
      await clearFault(stream);
    }
    expectStatus(await addsImages(1, () => uploadProfile(carol)), 200);
  });

  it('keeps only the picture shown when one user uploads many at once (each replaces the one before)', async () => {
    const before = await imageCounts();
    const results = await Promise.all(Array.from({ length: 6 }, () => uploadProfile(owner)));
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(await imageCounts()).toEqual({ total: before.total + 1, staged: 0 });
    const last = accepted.map((r) => BigInt(r.body.position)).reduce((a, b) => (a > b ? a : b));
    const profile = await api.get('/api/auth/profile', owner.token, { 'x-consistent-after': String(last) });
    expect((await fetch(t.url + profile.body.user.profileImage)).status).toBe(200);
  });
});

describe('POST /api/adoptions (new ad)', () => {
  it('keeps exactly one image when accepted', async () => {
    expectStatus(await addsImages(1, () => createAd(owner)), 201);
  });

  it('keeps nothing for an invalid field, a failed append or an append that keeps losing its race', async () => {
    expectStatus(await addsImages(0, () => createAd(owner, { petType: 'Dragon' })), 400);
    expectStatus(await addsImages(0, () => createAd(owner, { name: '' })), 400);
    for (const [fault, status] of [
      ['fail', 500],
      ['race', 409],
    ] as const) {
      await injectFault(`owner:${carol.user._id}`, fault);
      expectStatus(await addsImages(0, () => createAd(carol)), status);
      await clearFault(`owner:${carol.user._id}`);
    }
  });
});

describe('PUT /api/adoptions/{id} with a new image', () => {
  it('keeps the new image when accepted, in place of the old one (no longer shown)', async () => {
    const adId = await newAd();
    const res = await addsImages(0, () => updateAd(owner, adId, { description: 'New photo.' }));
    expectStatus(res, 200);
    expect((await fetch(t.url + res.body.imageUrl)).status).toBe(200);
  });

  it('keeps nothing when refused: not the owner, unknown or deleted ad, invalid field', async () => {
    const adId = await newAd();
    expectStatus(await addsImages(0, () => updateAd(bob, adId)), 403);
    expectStatus(await addsImages(0, () => updateAd(owner, randomUUID())), 404);
    expectStatus(await addsImages(0, () => updateAd(owner, adId, { petType: 'Dragon' })), 400);
    const deleted = await newAd();
    expectStatus(await api.del(`/api/adoptions/${deleted}`, owner.token), 200);
    expectStatus(await addsImages(0, () => updateAd(owner, deleted)), 404);
  });

  it('keeps nothing when the append fails or keeps losing its race', async () => {
    const adId = await newAd();
    await injectFault(adoptionStream(adId), 'fail');
    try {
      expectStatus(await addsImages(0, () => updateAd(owner, adId)), 500);
    } finally {
      await clearFault(adoptionStream(adId));
    }
    // The marker cannot ride in the description any more (it is sealed personal data): fault the stream instead.
    await injectFault(adoptionStream(adId), 'race');
    try {
      expectStatus(await addsImages(0, () => updateAd(owner, adId)), 409);
    } finally {
      await clearFault(adoptionStream(adId));
    }
  });
});

describe('POST /api/adoptions/{id}/request with a proof image', () => {
  it('keeps exactly one image when accepted', async () => {
    const adId = await newAd();
    const res = await addsImages(1, () => requestWithProof(bob, adId));
    expectStatus(res, 201);
    expect((await fetch(t.url + res.body.request.petHistoryImage)).status).toBe(200);
  });

  it('keeps nothing when refused: own ad, duplicate, ad not available, unknown ad, invalid field', async () => {
    const adId = await newAd();
    expectStatus(await addsImages(0, () => requestWithProof(owner, adId)), 403);
    expectStatus(await addsImages(0, () => requestWithProof(bob, adId, { phone: 'call me' })), 400);
    expectStatus(await addsImages(0, () => requestWithProof(bob, randomUUID())), 404);
    const first = await requestWithProof(bob, adId);
    expectStatus(first, 201);
    expectStatus(await addsImages(0, () => requestWithProof(bob, adId)), 409);

    // Adopted: the owner accepts Bob's request, then Carol is too late.
    const accept = await api.put(
      `/api/adoptions/requests/${first.body.request._id}`,
      { status: 'accepted' },
      owner.token,
    );
    expectStatus(accept, 200);
    expectStatus(await addsImages(0, () => requestWithProof(carol, adId)), 409);

    // Deleted.
    const gone = await newAd();
    expectStatus(await api.del(`/api/adoptions/${gone}`, owner.token), 200);
    expectStatus(await addsImages(0, () => requestWithProof(carol, gone)), 404);
  });

  it('keeps nothing when the append fails or keeps losing its race', async () => {
    const adId = await newAd();
    // The request's message is sealed personal data, so the fault is put on the ad's stream.
    for (const [fault, status] of [
      ['fail', 500],
      ['race', 409],
    ] as const) {
      await injectFault(adoptionStream(adId), fault);
      try {
        expectStatus(await addsImages(0, () => requestWithProof(bob, adId)), status);
      } finally {
        await clearFault(adoptionStream(adId));
      }
    }
    expectStatus(await addsImages(1, () => requestWithProof(bob, adId)), 201);
  });

  it('of one user double-clicking, the request that loses the race keeps no image', async () => {
    const adId = await newAd();
    const before = await imageCounts();
    const results = await Promise.all(Array.from({ length: 5 }, () => requestWithProof(carol, adId)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await imageCounts()).toEqual({ total: before.total + 1, staged: 0 });
  });

  it('while the owner deletes the ad, only the requests that got in keep their image (the ad loses its own)', async () => {
    const adId = await newAd();
    const users = await api.registerVerifiedUsers(4);
    const before = await imageCounts();
    const [results] = await Promise.all([
      Promise.all(users.map((u) => requestWithProof(u, adId))),
      api.del(`/api/adoptions/${adId}`, owner.token),
    ]);
    const accepted = results.filter((r) => r.status === 201).length;
    expect(results.every((r) => [201, 404, 409].includes(r.status))).toBe(true);
    expect(await imageCounts()).toEqual({ total: before.total + accepted - 1, staged: 0 });
  });
});

// ---------------------------------------------------------------------------------------------- the helper and the sweeper

const kind: ImageKind = {
  maxBytes: 5 * 1024 * 1024,
  width: 100,
  height: 100,
  fit: 'inside',
  tooLarge: 'too large',
  invalid: 'invalid',
};

const stagedRow = async (id: string) =>
  (await t.db.pool.query<{ staged_for: string | null }>('SELECT staged_for FROM images WHERE id = $1', [id]))
    .rows[0];

describe('withStagedImage', () => {
  it('keeps the image when its event was appended, even if the command fails afterwards', async () => {
    const store = new PostgresEventStore(t.db.pool);
    const streamId = `test-${randomUUID()}`;
    let path = '';
    await expect(
      withStagedImage(t.db.knex, { bytes: await png(), kind, streamId }, async (p) => {
        path = p;
        await store.append(streamId, [{ type: 'TestImageUsed', data: { image: p } }], 'no_stream');
        throw new Error('lost on the way back');
      }),
    ).rejects.toThrow('lost on the way back');
    expect(await stagedRow(path.split('/').pop()!)).toEqual({ staged_for: null });
  });

  it('deletes the image of a command that was accepted without recording anything', async () => {
    const before = await imageCounts();
    const path = await withStagedImage(
      t.db.knex,
      { bytes: await png(), kind, streamId: `test-${randomUUID()}` },
      async (p) => p,
    );
    expect(path).toMatch(/^\/api\/images\/[a-f0-9]{24}$/);
    expect(await imageCounts()).toEqual(before);
  });

  it('stores nothing for bytes that are not an image', async () => {
    const before = await imageCounts();
    await expect(
      withStagedImage(
        t.db.knex,
        { bytes: Buffer.from('not an image'), kind, streamId: 'test-x' },
        async () => 'ran',
      ),
    ).rejects.toMatchObject({ status: 415 });
    expect(await imageCounts()).toEqual(before);
  });
});

describe('the staged-image sweeper', () => {
  const stage = async (streamId: string, ageSeconds: number) => {
    const id = randomUUID().replaceAll('-', '').slice(0, 24);
    await t.db.pool.query(
      `INSERT INTO images (id, content_type, bytes, width, height, staged_for, created_at)
       VALUES ($1, 'image/webp', '\\x00', 1, 1, $2, now() - $3 * interval '1 second')`,
      [id, streamId, ageSeconds],
    );
    return id;
  };

  it('deletes old staged images no event names, confirms old ones an event names, leaves young ones', async () => {
    const store = new PostgresEventStore(t.db.pool);
    const referencedStream = `test-${randomUUID()}`;
    const orphan = await stage(`test-${randomUUID()}`, 3600);
    const referenced = await stage(referencedStream, 3600);
    const young = await stage(`test-${randomUUID()}`, 5);
    // Named in another stream only: still an orphan.
    const elsewhere = await stage(`test-${randomUUID()}`, 3600);
    await store.append(
      referencedStream,
      [{ type: 'TestImageUsed', data: { image: `/api/images/${referenced}` } }],
      'no_stream',
    );
    await store.append(
      `test-${randomUUID()}`,
      [{ type: 'TestImageUsed', data: { image: `/api/images/${elsewhere}` } }],
      'no_stream',
    );

    const result = await sweepStagedImages(t.db.knex, 600);
    expect(result).toEqual({ kept: 1, deleted: 2 });
    expect(await stagedRow(orphan)).toBeUndefined();
    expect(await stagedRow(elsewhere)).toBeUndefined();
    expect(await stagedRow(referenced)).toEqual({ staged_for: null });
    expect(await stagedRow(young)).toEqual({ staged_for: expect.any(String) });
    await t.db.pool.query('DELETE FROM images WHERE id = $1', [young]);
  });

  it('runs when the app starts', async () => {
    const orphan = await stage(`test-${randomUUID()}`, 3600);
    const second = await startTestApp({ db: t.db });
    try {
      expect(await stagedRow(orphan)).toBeUndefined();
    } finally {
      await second.stop();
    }
  });
});
