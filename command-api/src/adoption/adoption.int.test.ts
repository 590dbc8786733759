import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADOPTION_MESSAGES as M, CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { recordedEvents } from '@pawhaven/platform/testing';
import {
  connectSocket,
  startTestApp,
  uniqueName,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * The adoption context over real HTTP: commands through command-api, reads through query-api, the real projector
 * in between, on a fresh PostgreSQL database. Every refusal is checked to append no event.
 */

let t: TestApp;
let api: TestApi;
let owner: RegisteredUser;
let bob: RegisteredUser;
let carol: RegisteredUser;
let adminToken: string;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  [owner, bob, carol] = await api.registerVerifiedUsers(3);
  adminToken = (await t.signInAdmin()).token;
});
afterAll(async () => {
  await t?.stop();
});

// ---------------------------------------------------------------------------------------------- helpers

const count = async (table: 'events' | 'images') =>
  Number((await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

/** Runs `fn` and checks it appended no event and kept no image. */
async function appendsNothing<T>(fn: () => Promise<T>): Promise<T> {
  const [events, images] = [await count('events'), await count('images')];
  const result = await fn();
  expect(await count('events')).toBe(events);
  expect(await count('images')).toBe(images);
  return result;
}

const png = (width = 64, height = 48, color = { r: 200, g: 120, b: 40 }) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

const after = (position: string | undefined): Record<string, string> =>
  position ? { [CONSISTENT_AFTER_HEADER]: position } : {};

/** A GET that first waits until the projections have passed `position`, and insists they did. */
async function read(path: string, token?: string, position?: string): Promise<ApiResponse> {
  const res = await api.get(path, token, after(position));
  if (position) expect(res.headers.get('x-consistency')).toBe('consistent');
  return res;
}

const baseFields = (overrides: Record<string, string> = {}): Record<string, string> => ({
  name: 'Moti',
  age: '2',
  location: 'Lahore',
  petType: 'Dog',
  description: 'Friendly, house-trained and loves long walks.',
  ...overrides,
});

const imageFile = (bytes: Uint8Array, field = 'image', type = 'image/png', filename = 'pet.png') => ({
  field,
  bytes,
  filename,
  type,
});

async function createAd(user: RegisteredUser, overrides: Record<string, string> = {}, bytes?: Uint8Array) {
  const res = await api.upload(
    '/api/adoptions',
    imageFile(bytes ?? (await png())),
    user.token,
    baseFields(overrides),
  );
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

const requestBody = (user: RegisteredUser, overrides: Record<string, string> = {}) => ({
  name: user.username,
  email: user.email,
  phone: '+92 300 1234567',
  message: 'We have a garden and a lot of love to give.',
  ...overrides,
});

async function requestAdoption(user: RegisteredUser, adId: string, overrides: Record<string, string> = {}) {
  const res = await api.post(`/api/adoptions/${adId}/request`, requestBody(user, overrides), user.token);
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

const decide = (user: RegisteredUser | undefined, requestId: string, status: string) =>
  api.put(`/api/adoptions/requests/${requestId}`, { status }, user?.token);

const withdraw = (user: RegisteredUser | undefined, requestId: string) =>
  api.post(`/api/adoptions/requests/${requestId}/withdraw`, {}, user?.token);

/** The ad's events as the app reads them (personal fields opened). */
const eventsOf = async (adId: string) =>
  (await recordedEvents(t.db, `adoption-${adId}`)).map(({ type, data, metadata }) => ({
    type,
    data,
    metadata,
  })) as {
    type: string;
    data: Json;
    metadata: Json;
  }[];

const putForm = (path: string, form: FormData, token?: string) => api.request('PUT', path, { form, token });

// ---------------------------------------------------------------------------------------------- create

describe('POST /api/adoptions (create)', () => {
  it('publishes an ad from a multipart form with a real PNG; breed defaults to Mixed and ageUnit to yrs', async () => {
    const created = await createAd(owner, { name: 'Sheru' });
    expect(created).toMatchObject({
      name: 'Sheru',
      age: '2',
      location: 'Lahore',
      petType: 'Dog',
      breed: 'Mixed',
      ageUnit: 'yrs',
      status: 'available',
      userId: owner.user._id,
      message: M.created,
    });
    expect(created.imageUrl).toMatch(/^\/api\/images\/[a-f0-9]{24}$/);
    expect(created.position).toMatch(/^\d+$/);

    const ad = await read(`/api/adoptions/${created._id}`, undefined, created.position);
    expect(ad.status).toBe(200);
    expect(ad.body).toMatchObject({
      _id: created._id,
      name: 'Sheru',
      breed: 'Mixed',
      ageUnit: 'yrs',
      gender: null,
      size: null,
      vaccinated: null,
      spayedNeutered: null,
      goodWithChildren: null,
      goodWithDogs: null,
      goodWithCats: null,
      status: 'available',
      imageUrl: created.imageUrl,
      requestCount: 0,
      myRequest: null,
      userId: { _id: owner.user._id, username: owner.username, isVeterinarian: false },
    });

    const events = await eventsOf(created._id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'AdoptionAdPublished',
      data: { adId: created._id, ownerId: owner.user._id },
      metadata: { actorId: owner.user._id },
    });
    expect(Date.parse(events[0]!.data.publishedAt)).not.toBeNaN();
  });

  it('stores and returns the optional attributes (multipart text booleans become booleans)', async () => {
    const created = await createAd(owner, {
      name: 'Rani',
      breed: 'German Shepherd',
      ageUnit: 'months',
      gender: 'Female',
      size: 'Large',
      vaccinated: 'true',
      spayedNeutered: 'false',
      goodWithChildren: 'on',
      goodWithDogs: 'true',
      goodWithCats: 'false',
    });
    const ad = await read(`/api/adoptions/${created._id}`, undefined, created.position);
    expect(ad.body).toMatchObject({
      name: 'Rani',
      breed: 'German Shepherd',
      ageUnit: 'months',
      gender: 'Female',
      size: 'Large',
      vaccinated: true,
      spayedNeutered: false,
      goodWithChildren: true,
      goodWithDogs: true,
      goodWithCats: false,
    });
  });

  it.each([
    ['name', 'Name is required'],
    ['age', 'Age is required'],
    ['location', 'Location is required'],
    ['petType', 'Pet type is required'],
    ['description', 'Description is required'],
  ])('refuses a form without %s: 400 "%s" and appends nothing', async (field, message) => {
    const fields = baseFields();
    delete fields[field];
    const bytes = await png();
    const res = await appendsNothing(() =>
      api.upload('/api/adoptions', imageFile(bytes), owner.token, fields),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    // Blank is missing too.
    const blank = await appendsNothing(() =>
      api.upload('/api/adoptions', imageFile(bytes), owner.token, baseFields({ [field]: '   ' })),
    );
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(message);
  });

  it('refuses an unknown pet type and an over-long name with a message', async () => {
    const bytes = await png();
    const dragon = await appendsNothing(() =>
      api.upload('/api/adoptions', imageFile(bytes), owner.token, baseFields({ petType: 'Dragon' })),
    );
    expect(dragon.status).toBe(400);
    expect(dragon.body.message).toBe('Pet type must be one of Dog, Cat, Bird, Rabbit, Hamster, Other');
    const long = await appendsNothing(() =>
      api.upload('/api/adoptions', imageFile(bytes), owner.token, baseFields({ name: 'x'.repeat(61) })),
    );
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Name must be at most 60 characters');
  });

  it('refuses a form without an image: 400 "Please select an image of the pet"', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(baseFields())) form.append(k, v);
    const res = await appendsNothing(() =>
      api.request('POST', '/api/adoptions', { form, token: owner.token }),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(M.imageRequired);
    // A JSON body has no image either.
    const json = await appendsNothing(() => api.post('/api/adoptions', baseFields(), owner.token));
    expect(json.status).toBe(400);
    expect(json.body.message).toBe(M.imageRequired);
  });

  it('refuses a text file as the image with 415 "Please select a valid image file", whatever its name and type claim', async () => {
    const text = new TextEncoder().encode('definitely not a picture of a dog\n'.repeat(20));
    for (const file of [
      imageFile(text, 'image', 'text/plain', 'notes.txt'),
      imageFile(text, 'image', 'image/png', 'fake.png'),
    ]) {
      const res = await appendsNothing(() => api.upload('/api/adoptions', file, owner.token, baseFields()));
      expect(res.status).toBe(415);
      expect(res.body.message).toBe('Please select a valid image file');
    }
  });

  it('refuses an image of 2 MB or more with 413 "Image size should be less than 2MB", as its hint says', async () => {
    expect(M.imageHint).toBe('PNG, JPG or JPEG (max 2MB)');
    const head = await png();
    for (const size of [2 * 1024 * 1024, 3 * 1024 * 1024, 6 * 1024 * 1024]) {
      const bytes = new Uint8Array(size);
      bytes.set(head);
      const res = await appendsNothing(() =>
        api.upload('/api/adoptions', imageFile(bytes), owner.token, baseFields()),
      );
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('Image size should be less than 2MB');
    }
  });

  it('refuses a visitor with 401 "You must be logged in to create an adoption post." and a bad token with 401', async () => {
    const bytes = await png();
    const visitor = await appendsNothing(() =>
      api.upload('/api/adoptions', imageFile(bytes), undefined, baseFields()),
    );
    expect(visitor.status).toBe(401);
    expect(visitor.body.message).toBe('You must be logged in to create an adoption post.');
    const bad = await appendsNothing(() =>
      api.upload('/api/adoptions', imageFile(bytes), 'not-a-token', baseFields()),
    );
    expect(bad.status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------- images

describe('GET /api/images/{id}', () => {
  it('serves the ad image resized to fit 1200×1200 as WebP, cached for minutes only', async () => {
    const created = await createAd(owner, { name: 'Big picture' }, await png(2400, 1600));
    const res = await fetch(t.url + created.imageUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 800 });
  });

  it('never enlarges a small image, and answers 404 for an unknown one', async () => {
    const created = await createAd(owner, { name: 'Small picture' }, await png(300, 200));
    const meta = await sharp(
      Buffer.from(await (await fetch(t.url + created.imageUrl)).arrayBuffer()),
    ).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 300, height: 200 });
    expect((await api.get(`/api/images/${'0'.repeat(24)}`)).status).toBe(404);
    expect((await api.get('/api/images/not-an-id')).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------- update

describe('PUT /api/adoptions/{id} (update)', () => {
  it('lets the owner change fields with JSON; only the changes are recorded and the image stays', async () => {
    const created = await createAd(owner, { name: 'Before' });
    const res = await api.put(
      `/api/adoptions/${created._id}`,
      { name: 'After', age: '3', location: 'Karachi' },
      owner.token,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      name: 'After',
      age: '3',
      location: 'Karachi',
      imageUrl: created.imageUrl,
    });
    const ad = await read(`/api/adoptions/${created._id}`, undefined, res.body.position);
    expect(ad.body).toMatchObject({
      name: 'After',
      age: '3',
      location: 'Karachi',
      petType: 'Dog',
      imageUrl: created.imageUrl,
    });
    const events = await eventsOf(created._id);
    expect(events.map((e) => e.type)).toEqual(['AdoptionAdPublished', 'AdoptionAdUpdated']);
    expect(events[1]!.data.changes).toEqual({ name: 'After', age: '3', location: 'Karachi' });
    expect(events[1]!.metadata.actorId).toBe(owner.user._id);

    // Sending the same values again changes nothing and records nothing.
    const same = await appendsNothing(() =>
      api.put(`/api/adoptions/${created._id}`, { name: 'After' }, owner.token),
    );
    expect(same.status).toBe(200);
  });

  it('lets the owner upload a new image with a multipart form', async () => {
    const created = await createAd(owner, { name: 'Old photo' });
    const form = new FormData();
    form.append('description', 'A brand new photo.');
    form.append('vaccinated', 'true');
    form.append(
      'image',
      new Blob([new Uint8Array(await png(800, 600, { r: 0, g: 0, b: 255 }))], { type: 'image/png' }),
      'new.png',
    );
    const res = await putForm(`/api/adoptions/${created._id}`, form, owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.imageUrl).toMatch(/^\/api\/images\/[a-f0-9]{24}$/);
    expect(res.body.imageUrl).not.toBe(created.imageUrl);
    const ad = await read(`/api/adoptions/${created._id}`, undefined, res.body.position);
    expect(ad.body).toMatchObject({
      imageUrl: res.body.imageUrl,
      description: 'A brand new photo.',
      vaccinated: true,
      name: 'Old photo',
    });
    const img = await fetch(t.url + res.body.imageUrl);
    expect(img.status).toBe(200);
    expect(await sharp(Buffer.from(await img.arrayBuffer())).metadata()).toMatchObject({
      width: 800,
      height: 600,
    });
  });

  it("ignores fields that are not the pet's details (image URL, owner, status) and refuses a bad new image", async () => {
    const created = await createAd(owner, { name: 'Sneaky' });
    const path = `/api/adoptions/${created._id}`;
    const res = await api.put(
      path,
      {
        name: 'Sneaky too',
        imageUrl: 'https://evil.example/x.png',
        ownerId: bob.user._id,
        userId: bob.user._id,
        status: 'adopted',
      },
      owner.token,
    );
    expect(res.status).toBe(200);
    const ad = await read(path, undefined, res.body.position);
    expect(ad.body).toMatchObject({
      name: 'Sneaky too',
      imageUrl: created.imageUrl,
      status: 'available',
      userId: { _id: owner.user._id },
    });
    expect((await eventsOf(created._id))[1]!.data.changes).toEqual({ name: 'Sneaky too' });

    const text = new FormData();
    text.append('image', new Blob(['plain text, no pixels here'], { type: 'image/png' }), 'x.png');
    const invalid = await appendsNothing(() => putForm(path, text, owner.token));
    expect(invalid.status).toBe(415);
    expect(invalid.body.message).toBe('Please select a valid image file');
    const big = new FormData();
    big.append('image', new Blob([new Uint8Array(3 * 1024 * 1024)], { type: 'image/png' }), 'big.png');
    const tooLarge = await appendsNothing(() => putForm(path, big, owner.token));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toBe('Image size should be less than 2MB');
  });

  it('refuses anyone but the owner (403, even with an image, which is then not kept), a visitor (401) and bad input (400)', async () => {
    const created = await createAd(owner, { name: 'Mine' });
    const path = `/api/adoptions/${created._id}`;
    for (const other of [bob, { token: adminToken } as RegisteredUser]) {
      const res = await appendsNothing(() => api.put(path, { name: 'Stolen' }, other.token));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(M.notOwner);
    }
    const form = new FormData();
    form.append('name', 'Stolen');
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'x.png');
    const withImage = await appendsNothing(() => putForm(path, form, bob.token));
    expect(withImage.status).toBe(403);

    const visitor = await appendsNothing(() => api.put(path, { name: 'Stolen' }));
    expect(visitor.status).toBe(401);
    const blank = await appendsNothing(() => api.put(path, { name: '' }, owner.token));
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Name is required');
    const type = await appendsNothing(() => api.put(path, { petType: 'Dragon' }, owner.token));
    expect(type.status).toBe(400);

    const missing = await appendsNothing(() =>
      api.put(`/api/adoptions/${crypto.randomUUID()}`, { name: 'X' }, owner.token),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(M.adNotFound);
    expect((await api.put('/api/adoptions/not-an-id', { name: 'X' }, owner.token)).status).toBe(404);

    const ad = await read(path, undefined, created.position);
    expect(ad.body.name).toBe('Mine');
  });
});

// ---------------------------------------------------------------------------------------------- delete

describe('DELETE /api/adoptions/{id} (soft delete)', () => {
  it('hides the ad everywhere, closes its open requests and leaves an audited trail', async () => {
    const created = await createAd(owner, { name: 'Leaving', location: 'Quetta' });
    const req = await requestAdoption(bob, created._id);
    const del = await api.del(`/api/adoptions/${created._id}`, owner.token);
    expect(del.status, del.text).toBe(200);
    expect(del.body.message).toBe(M.deleted);
    const position = del.body.position as string;

    expect((await read(`/api/adoptions/${created._id}`, undefined, position)).status).toBe(404);
    const listing = await read('/api/adoptions?city=Quetta&limit=50', undefined, position);
    expect(listing.body.map((a: Json) => a._id)).not.toContain(created._id);
    const mine = await read(
      `/api/adoptions/user/${owner.user._id}?includeRequests=true`,
      owner.token,
      position,
    );
    expect(mine.body.map((a: Json) => a._id)).not.toContain(created._id);
    expect((await read(`/api/adoptions/${created._id}/requests`, owner.token, position)).status).toBe(404);

    // The requester's history keeps the request, closed with a reason.
    const history = await read('/api/adoptions/history', bob.token, position);
    expect(history.body.find((h: Json) => h._id === req.request._id)).toMatchObject({
      status: 'closed',
      reason: M.adDeleted,
      adStatus: 'deleted',
      petName: 'Leaving',
    });

    const events = await eventsOf(created._id);
    expect(events.map((e) => e.type)).toEqual([
      'AdoptionAdPublished',
      'AdoptionRequested',
      'AdoptionAdDeleted',
      'AdoptionRequestClosed',
    ]);
    expect(events[2]).toMatchObject({ data: { byAdmin: false }, metadata: { actorId: owner.user._id } });
    expect(events[3]!.data).toMatchObject({ requestId: req.request._id, reason: M.adDeleted });

    const audit = await read(`/api/admin/adoptions/${created._id}/history`, adminToken, position);
    expect(audit.status).toBe(200);
    expect(audit.body.ad).toMatchObject({ status: 'deleted', name: 'Leaving' });
    expect(audit.body.timeline.slice(2)).toMatchObject([
      {
        eventType: 'AdoptionAdDeleted',
        subject: 'ad',
        fromStatus: 'available',
        toStatus: 'deleted',
        actor: { username: owner.username },
      },
      {
        eventType: 'AdoptionRequestClosed',
        requestId: req.request._id,
        fromStatus: 'pending',
        toStatus: 'closed',
        actor: { username: owner.username },
      },
    ]);

    // A deleted ad takes no more commands.
    for (const res of [
      await api.del(`/api/adoptions/${created._id}`, owner.token),
      await api.put(`/api/adoptions/${created._id}`, { name: 'Back' }, owner.token),
      await api.post(`/api/adoptions/${created._id}/request`, requestBody(carol), carol.token),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(M.adNotFound);
    }
  });

  it('refuses other users (403) and visitors (401); an admin may delete, recorded as byAdmin', async () => {
    const created = await createAd(owner, { name: 'Moderated' });
    const path = `/api/adoptions/${created._id}`;
    const other = await appendsNothing(() => api.del(path, bob.token));
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(M.notOwner);
    expect((await appendsNothing(() => api.del(path))).status).toBe(401);
    const byAdmin = await api.del(path, adminToken);
    expect(byAdmin.status).toBe(200);
    const events = await eventsOf(created._id);
    expect(events.at(-1)).toMatchObject({ type: 'AdoptionAdDeleted', data: { byAdmin: true } });
    expect((await read(path, undefined, byAdmin.body.position)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------- request

describe('POST /api/adoptions/{postId}/request', () => {
  it('records a JSON request as pending; the ad stays available and counts it', async () => {
    const created = await createAd(owner, { name: 'Asked for' });
    const res = await api.post(`/api/adoptions/${created._id}/request`, requestBody(bob), bob.token);
    expect(res.status, res.text).toBe(201);
    expect(res.body.request).toMatchObject({
      adId: created._id,
      status: 'pending',
      petHistoryImage: null,
      email: bob.email,
    });
    const position = res.body.position as string;
    const ad = await read(`/api/adoptions/${created._id}`, bob.token, position);
    expect(ad.body).toMatchObject({
      status: 'available',
      requestCount: 1,
      myRequest: { _id: res.body.request._id, status: 'pending' },
    });
    const requests = await read(`/api/adoptions/${created._id}/requests`, owner.token, position);
    expect(requests.body).toEqual([
      expect.objectContaining({
        _id: res.body.request._id,
        adId: created._id,
        requester: { _id: bob.user._id, username: bob.username, email: bob.email },
        name: bob.username,
        email: bob.email,
        phone: '+92 300 1234567',
        message: 'We have a garden and a lot of love to give.',
        petHistoryImage: null,
        status: 'pending',
        reason: null,
        respondedAt: null,
      }),
    ]);
    const events = await eventsOf(created._id);
    expect(events[1]).toMatchObject({
      type: 'AdoptionRequested',
      data: { requesterId: bob.user._id },
      metadata: { actorId: bob.user._id },
    });
  });

  it('accepts a multipart request with a petHistoryImage, stored resized and served', async () => {
    const created = await createAd(owner, { name: 'Proof wanted' });
    const res = await api.upload(
      `/api/adoptions/${created._id}/request`,
      imageFile(await png(3000, 1500), 'petHistoryImage'),
      carol.token,
      requestBody(carol),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.request.petHistoryImage).toMatch(/^\/api\/images\/[a-f0-9]{24}$/);
    const requests = await read(`/api/adoptions/${created._id}/requests`, owner.token, res.body.position);
    expect(requests.body[0]).toMatchObject({
      petHistoryImage: res.body.request.petHistoryImage,
      requester: { _id: carol.user._id },
    });
    const img = await fetch(t.url + res.body.request.petHistoryImage);
    expect(img.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await sharp(Buffer.from(await img.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 1200,
      height: 600,
    });
  });

  it.each(['name', 'email', 'phone', 'message'])(
    'refuses a request without %s with 400 "All fields are required", as JSON and as multipart',
    async (field) => {
      const created = await createAd(owner, { name: `Missing ${field}` });
      const body = requestBody(bob) as Record<string, string>;
      delete body[field];
      const json = await appendsNothing(() =>
        api.post(`/api/adoptions/${created._id}/request`, body, bob.token),
      );
      expect(json.status).toBe(400);
      expect(json.body.message).toBe('All fields are required');
      const blank = await appendsNothing(() =>
        api.post(`/api/adoptions/${created._id}/request`, requestBody(bob, { [field]: '  ' }), bob.token),
      );
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe('All fields are required');
      const multipart = await appendsNothing(() =>
        api.upload(
          `/api/adoptions/${created._id}/request`,
          imageFile(new Uint8Array([137, 80]), 'petHistoryImage'),
          bob.token,
          body,
        ),
      );
      expect(multipart.status).toBe(400);
      expect(multipart.body.message).toBe('All fields are required');
    },
  );

  it('refuses an e-mail a mailto: link would read as more than one address (headers, a body, recipients)', async () => {
    const created = await createAd(owner, { name: 'Careful' });
    const path = `/api/adoptions/${created._id}/request`;
    const proof = imageFile(await png(), 'petHistoryImage');
    for (const email of [
      'a@b.co?cc=x%40evil.example&body=hi',
      'a@b.co&body=hi',
      'a@b.co,c@d.co',
      'a%40evil.example@b.co',
      '"a b"@c.co',
      'a@b.co#x',
    ]) {
      const res = await appendsNothing(() => api.post(path, requestBody(bob, { email }), bob.token));
      expect(res.status, email).toBe(400);
      expect(res.body.message).toBe('Please enter a valid email address');
      const form = await appendsNothing(() =>
        api.upload(path, proof, bob.token, requestBody(bob, { email })),
      );
      expect(form.status, email).toBe(400);
      expect(form.body.message).toBe('Please enter a valid email address');
    }
    const res = await api.post(path, requestBody(bob, { email: "o'neil+pets@gmail.com" }), bob.token);
    expect(res.status, res.text).toBe(201);
  });

  it('refuses an invalid e-mail and phone number with the exact messages', async () => {
    const created = await createAd(owner, { name: 'Picky' });
    const path = `/api/adoptions/${created._id}/request`;
    for (const email of ['bob', 'bob@', 'bob@gmail', 'b ob@gmail.com']) {
      const res = await appendsNothing(() => api.post(path, requestBody(bob, { email }), bob.token));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Please enter a valid email address');
    }
    for (const phone of ['12345', 'call me', '+92-300', '0300 12x4567']) {
      const res = await appendsNothing(() => api.post(path, requestBody(bob, { phone }), bob.token));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Please enter a valid phone number');
    }
    for (const phone of ['03001234567', '+92 300 1234567', '+92-300-123-4567']) {
      const res = await api.post(path, requestBody(bob, { phone }), bob.token);
      expect(res.status).toBe(201);
      const w = await read(`/api/adoptions/${created._id}/requests`, owner.token, res.body.position);
      expect(w.status).toBe(200);
      expect((await withdraw(bob, res.body.request._id)).status).toBe(200);
    }
  });

  it('refuses the owner (403), a duplicate pending request (409), a visitor (401), an unknown ad (404) and bad proof images', async () => {
    const created = await createAd(owner, { name: 'Popular' });
    const path = `/api/adoptions/${created._id}/request`;
    const own = await appendsNothing(() => api.post(path, requestBody(owner), owner.token));
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(M.ownAd);
    const ownWithImage = await appendsNothing(async () =>
      api.upload(path, imageFile(await png(), 'petHistoryImage'), owner.token, requestBody(owner)),
    );
    expect(ownWithImage.status).toBe(403);

    const visitor = await appendsNothing(() => api.post(path, requestBody(bob)));
    expect(visitor.status).toBe(401);
    expect(visitor.body.message).toBe('You must be logged in to request adoption');

    const first = await requestAdoption(bob, created._id);
    const dup = await appendsNothing(() =>
      api.post(path, requestBody(bob, { message: 'Again!' }), bob.token),
    );
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(M.alreadyRequested);
    const dupWithImage = await appendsNothing(async () =>
      api.upload(path, imageFile(await png(), 'petHistoryImage'), bob.token, requestBody(bob)),
    );
    expect(dupWithImage.status).toBe(409);

    // After withdrawing, asking again is fine.
    await read(`/api/adoptions/${created._id}`, undefined, first.position);
    expect((await withdraw(bob, first.request._id)).status).toBe(200);
    const again = await api.post(path, requestBody(bob), bob.token);
    expect(again.status).toBe(201);

    const text = new TextEncoder().encode('not an image at all, just text'.repeat(10));
    const invalid = await appendsNothing(() =>
      api.upload(
        path,
        imageFile(text, 'petHistoryImage', 'image/jpeg', 'proof.jpg'),
        carol.token,
        requestBody(carol),
      ),
    );
    expect(invalid.status).toBe(415);
    expect(invalid.body.message).toBe('Please select a valid image file');
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(await png());
    const tooLarge = await appendsNothing(() =>
      api.upload(path, imageFile(huge, 'petHistoryImage'), carol.token, requestBody(carol)),
    );
    expect(tooLarge.status).toBe(413);
    // The proof picture's own limit, in its own words (the ad picture's is 2MB).
    expect(tooLarge.body.message).toBe('Image size should be less than 5MB');

    const unknown = await appendsNothing(() =>
      api.post(`/api/adoptions/${crypto.randomUUID()}/request`, requestBody(carol), carol.token),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(M.adNotFound);
  });

  it('refuses a request on an adopted ad with 409 "This pet is no longer available for adoption"', async () => {
    const created = await createAd(owner, { name: 'Taken' });
    const req = await requestAdoption(bob, created._id);
    await read(`/api/adoptions/${created._id}`, undefined, req.position);
    expect((await decide(owner, req.request._id, 'accepted')).status).toBe(200);
    const res = await appendsNothing(() =>
      api.post(`/api/adoptions/${created._id}/request`, requestBody(carol), carol.token),
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(M.notAvailable);
  });
});

// ---------------------------------------------------------------------------------------------- accept / reject / withdraw

describe('PUT /api/adoptions/requests/{id} and POST …/withdraw', () => {
  it('accepting one request adopts the pet and rejects every other pending request; answered ones stay as they are', async () => {
    const dave = await api.registerVerifiedUser();
    const created = await createAd(owner, { name: 'Chosen' });
    const rb = await requestAdoption(bob, created._id);
    const rc = await requestAdoption(carol, created._id);
    const rd = await requestAdoption(dave, created._id);
    await read(`/api/adoptions/${created._id}`, undefined, rd.position);
    const w = await withdraw(dave, rd.request._id);
    expect(w.status).toBe(200);
    expect(w.body.message).toBe(M.withdrawn);

    const res = await decide(owner, rc.request._id, 'accepted');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Request accepted successfully',
      post: { _id: created._id, status: 'adopted' },
    });

    const requests = await read(`/api/adoptions/${created._id}/requests`, owner.token, res.body.position);
    const byId = Object.fromEntries(requests.body.map((r: Json) => [r._id, r]));
    expect(byId[rc.request._id]).toMatchObject({ status: 'accepted', reason: null });
    expect(byId[rb.request._id]).toMatchObject({
      status: 'rejected',
      reason: 'Another applicant was accepted',
    });
    expect(byId[rd.request._id]).toMatchObject({ status: 'withdrawn' });
    for (const r of requests.body)
      if (r.status !== 'pending') expect(Date.parse(r.respondedAt)).not.toBeNaN();
    expect((await read(`/api/adoptions/${created._id}`)).body.status).toBe('adopted');

    const events = await eventsOf(created._id);
    expect(events.slice(-3).map((e) => [e.type, e.data.requestId, e.metadata.actorId])).toEqual([
      ['AdoptionRequestAccepted', rc.request._id, owner.user._id],
      ['PetAdopted', rc.request._id, owner.user._id],
      ['AdoptionRequestRejected', rb.request._id, owner.user._id],
    ]);

    // Nothing more can be decided on an adopted ad.
    for (const [id, status] of [
      [rc.request._id, 'rejected'],
      [rb.request._id, 'accepted'],
    ] as const) {
      const again = await appendsNothing(() => decide(owner, id, status));
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(M.requestNotPending);
    }
    expect((await appendsNothing(() => withdraw(bob, rb.request._id))).status).toBe(409);
  });

  it('rejecting a request leaves the ad available for the others and for new requests', async () => {
    const created = await createAd(owner, { name: 'Still here' });
    const rb = await requestAdoption(bob, created._id);
    const rc = await requestAdoption(carol, created._id);
    await read(`/api/adoptions/${created._id}`, undefined, rc.position);
    const res = await decide(owner, rb.request._id, 'rejected');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Request rejected successfully',
      post: { status: 'available' },
    });
    const requests = await read(`/api/adoptions/${created._id}/requests`, owner.token, res.body.position);
    expect(requests.body.map((r: Json) => [r._id, r.status, r.reason])).toEqual([
      [rb.request._id, 'rejected', 'Declined by the owner'],
      [rc.request._id, 'pending', null],
    ]);
    expect((await read(`/api/adoptions/${created._id}`)).body.status).toBe('available');
    // A rejected requester may ask again.
    expect(
      (await api.post(`/api/adoptions/${created._id}/request`, requestBody(bob), bob.token)).status,
    ).toBe(201);
  });

  it('accept/reject: only the owner (403 otherwise, 401 for a visitor); bad status 400; unknown request 404', async () => {
    const created = await createAd(owner, { name: 'Guarded' });
    const rb = await requestAdoption(bob, created._id);
    await read(`/api/adoptions/${created._id}`, undefined, rb.position);
    for (const status of ['accepted', 'rejected']) {
      for (const who of [bob, carol, { token: adminToken } as RegisteredUser]) {
        const res = await appendsNothing(() => decide(who, rb.request._id, status));
        expect(res.status).toBe(403);
        expect(res.body.message).toBe(M.notOwner);
      }
      expect((await appendsNothing(() => decide(undefined, rb.request._id, status))).status).toBe(401);
    }
    for (const body of [{ status: 'maybe' }, {}, { status: 'pending' }]) {
      const res = await appendsNothing(() =>
        api.put(`/api/adoptions/requests/${rb.request._id}`, body, owner.token),
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("status must be 'accepted' or 'rejected'");
    }
    const unknown = await appendsNothing(() => decide(owner, crypto.randomUUID(), 'accepted'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(M.requestNotFound);
    expect((await decide(owner, 'nope', 'accepted')).status).toBe(404);
    expect((await read(`/api/adoptions/${created._id}/requests`, owner.token)).body[0].status).toBe(
      'pending',
    );
  });

  it('withdraw and accept work right after the request, before the read models have caught up', async () => {
    const created = await createAd(owner, { name: 'In a hurry' });
    const rb = await requestAdoption(bob, created._id);
    // No waiting: the ids come straight from the command answers.
    const w = await withdraw(bob, rb.request._id);
    expect(w.status, w.text).toBe(200);
    const rc = await requestAdoption(carol, created._id);
    const accepted = await decide(owner, rc.request._id, 'accepted');
    expect(accepted.status, accepted.text).toBe(200);
    const requests = await read(
      `/api/adoptions/${created._id}/requests`,
      owner.token,
      accepted.body.position,
    );
    expect(requests.body.map((r: Json) => r.status)).toEqual(['withdrawn', 'accepted']);
  });

  it('withdraw: only the requester, only while pending', async () => {
    const created = await createAd(owner, { name: 'Maybe not' });
    const rb = await requestAdoption(bob, created._id);
    await read(`/api/adoptions/${created._id}`, undefined, rb.position);
    for (const who of [carol, owner, { token: adminToken } as RegisteredUser]) {
      const res = await appendsNothing(() => withdraw(who, rb.request._id));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(M.notRequester);
    }
    expect((await appendsNothing(() => withdraw(undefined, rb.request._id))).status).toBe(401);
    const ok = await withdraw(bob, rb.request._id);
    expect(ok.status).toBe(200);
    const again = await appendsNothing(() => withdraw(bob, rb.request._id));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.requestNotPending);
    expect((await appendsNothing(() => decide(owner, rb.request._id, 'accepted'))).status).toBe(409);
    const ad = await read(`/api/adoptions/${created._id}`, bob.token, ok.body.position);
    expect(ad.body).toMatchObject({
      status: 'available',
      myRequest: { _id: rb.request._id, status: 'withdrawn' },
    });
    expect((await appendsNothing(() => withdraw(bob, crypto.randomUUID()))).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------- listing

describe('GET /api/adoptions (listing)', () => {
  const city = uniqueName('Multan');
  let lister: RegisteredUser;
  let other: RegisteredUser;
  const ids: Record<string, string> = {};
  let last = '';

  beforeAll(async () => {
    [lister, other] = await api.registerVerifiedUsers(2);
    const ads: [RegisteredUser, Record<string, string>][] = [
      [lister, { name: 'Rex', petType: 'Dog', breed: 'German Shepherd' }],
      [lister, { name: 'Billi', petType: 'Cat', breed: 'Persian' }],
      [lister, { name: 'Bunny', petType: 'Rabbit', description: 'Loves carrots and quiet evenings.' }],
      [other, { name: 'Snowy', petType: 'Cat' }],
      [lister, { name: 'Tommy', petType: 'Dog', location: `Old Town, ${city.toUpperCase()}` }],
    ];
    // One at a time, so the newest-first order is known.
    for (const [user, fields] of ads) {
      const created = await createAd(user, { location: `${city} Cantt`, ...fields });
      ids[fields.name!] = created._id;
      last = created.position;
    }
  });

  const names = (res: ApiResponse) => res.body.map((a: Json) => a.name);

  it('lists every live ad to a visitor, newest first, with X-Total-Count', async () => {
    const res = await read(`/api/adoptions?city=${city}`, undefined, last);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Tommy', 'Snowy', 'Bunny', 'Billi', 'Rex']);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.body[0]).toMatchObject({
      userId: { _id: lister.user._id, username: lister.username },
      myRequest: null,
      requestCount: 0,
    });
  });

  it.each([
    ['all', ['Tommy', 'Snowy', 'Bunny', 'Billi', 'Rex']],
    ['dog', ['Tommy', 'Rex']],
    ['cat', ['Snowy', 'Billi']],
    ['other', ['Bunny']],
  ])('filter=%s', async (filter, expected) => {
    const res = await read(`/api/adoptions?filter=${filter}&city=${city}`, undefined, last);
    expect(names(res)).toEqual(expected);
    expect(res.headers.get('x-total-count')).toBe(String(expected.length));
  });

  it('matches the city case-insensitively anywhere in the location, and searches text by word prefixes with q', async () => {
    expect(names(await read(`/api/adoptions?city=${city.toUpperCase()}`, undefined, last))).toHaveLength(5);
    expect(names(await read(`/api/adoptions?city=${city}&q=germ%20shep`, undefined, last))).toEqual(['Rex']);
    expect(names(await read(`/api/adoptions?city=${city}&q=PERSIAN`, undefined, last))).toEqual(['Billi']);
    expect(names(await read(`/api/adoptions?city=${city}&q=carrot`, undefined, last))).toEqual(['Bunny']);
    expect(names(await read(`/api/adoptions?city=${city}&filter=dog&q=carrot`, undefined, last))).toEqual([]);
    const none = await read(`/api/adoptions?city=${city}&q=zebra`, undefined, last);
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
    // Punctuation only: no search at all rather than an error.
    expect(names(await read(`/api/adoptions?city=${city}&q=%26%7C!`, undefined, last))).toHaveLength(5);
  });

  it('pages with page and limit; X-Total-Count is the total over all pages', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await read(`/api/adoptions?city=${city}&limit=2&page=${page}`, undefined, last);
      expect(res.headers.get('x-total-count')).toBe('5');
      expect(res.headers.get('x-page')).toBe(String(page));
      expect(res.headers.get('x-per-page')).toBe('2');
      pages.push(names(res));
    }
    expect(pages).toEqual([['Tommy', 'Snowy'], ['Bunny', 'Billi'], ['Rex']]);
    const past = await read(`/api/adoptions?city=${city}&limit=2&page=4`, undefined, last);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe('5');
    for (const bad of ['limit=51', 'limit=0', 'page=0', 'page=x', 'filter=fish']) {
      const res = await api.get(`/api/adoptions?city=${city}&${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('never shows a signed-in owner their own ads', async () => {
    expect(names(await read(`/api/adoptions?city=${city}`, lister.token, last))).toEqual(['Snowy']);
    expect(names(await read(`/api/adoptions?city=${city}`, other.token, last))).toEqual([
      'Tommy',
      'Bunny',
      'Billi',
      'Rex',
    ]);
  });

  it("shows the viewer's own request state in myRequest, and nobody else's", async () => {
    const viewer = await api.registerVerifiedUser();
    const req = await requestAdoption(viewer, ids.Rex!);
    let res = await read(`/api/adoptions?city=${city}&filter=dog`, viewer.token, req.position);
    const rex = () => res.body.find((a: Json) => a.name === 'Rex');
    expect(rex()).toMatchObject({
      myRequest: { _id: req.request._id, status: 'pending' },
      requestCount: 1,
      status: 'available',
    });
    expect(res.body.find((a: Json) => a.name === 'Tommy').myRequest).toBeNull();
    expect(
      (await read(`/api/adoptions?city=${city}&filter=dog`, other.token)).body.find(
        (a: Json) => a.name === 'Rex',
      ).myRequest,
    ).toBeNull();
    expect(
      (await read(`/api/adoptions?city=${city}&filter=dog`)).body.find((a: Json) => a.name === 'Rex')
        .myRequest,
    ).toBeNull();

    const rejected = await decide(lister, req.request._id, 'rejected');
    expect(rejected.status).toBe(200);
    res = await read(`/api/adoptions?city=${city}&filter=dog`, viewer.token, rejected.body.position);
    expect(rex().myRequest).toEqual({ _id: req.request._id, status: 'rejected' });

    // A newer request wins over the rejected one.
    const again = await requestAdoption(viewer, ids.Rex!);
    res = await read(`/api/adoptions?city=${city}&filter=dog`, viewer.token, again.position);
    expect(rex()).toMatchObject({
      myRequest: { _id: again.request._id, status: 'pending' },
      requestCount: 2,
    });
  });
});

describe('GET /api/adoptions (order: available pets first)', () => {
  it('lists available ads before adopted ones, newest first within each, across pages', async () => {
    const city = uniqueName('Sialkot');
    const [poster, adopter] = await api.registerVerifiedUsers(2);
    const ids: Record<string, string> = {};
    // Oldest first: A1 … A6; then A2, A4 and A6 (the newest) find homes.
    for (const name of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'])
      ids[name] = (await createAd(poster, { name, location: city }))._id;
    let last = '';
    for (const name of ['A2', 'A4', 'A6']) {
      const req = await requestAdoption(adopter, ids[name]!);
      const res = await decide(poster, req.request._id, 'accepted');
      expect(res.status, res.text).toBe(200);
      last = res.body.position;
    }
    const expected = [
      ['A5', 'available'],
      ['A3', 'available'],
      ['A1', 'available'],
      ['A6', 'adopted'],
      ['A4', 'adopted'],
      ['A2', 'adopted'],
    ];
    const all = await read(`/api/adoptions?city=${city}`, undefined, last);
    expect(all.body.map((a: Json) => [a.name, a.status])).toEqual(expected);
    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await read(`/api/adoptions?city=${city}&limit=2&page=${page}`, adopter.token, last);
      expect(res.headers.get('x-total-count')).toBe('6');
      pages.push(...res.body.map((a: Json) => [a.name, a.status]));
    }
    expect(pages).toEqual(expected);
    const dogs = await read(`/api/adoptions?city=${city}&filter=dog&limit=4`, undefined, last);
    expect(dogs.body.map((a: Json) => a.name)).toEqual(['A5', 'A3', 'A1', 'A6']);
  });
});

// ---------------------------------------------------------------------------------------------- owner reads

describe('GET /api/adoptions/user/{userId} and /api/adoptions/{postId}/requests', () => {
  it("lists a user's live ads publicly; with includeRequests=true only to the owner or an admin", async () => {
    const poster = await api.registerVerifiedUser();
    const first = await createAd(poster, { name: 'First' });
    await createAd(poster, { name: 'Second' });
    const gone = await createAd(poster, { name: 'Gone' });
    const rb = await requestAdoption(bob, first._id);
    const rc = await requestAdoption(carol, first._id);
    const del = await api.del(`/api/adoptions/${gone._id}`, poster.token);
    const position = del.body.position as string;

    const pub = await read(`/api/adoptions/user/${poster.user._id}`, undefined, position);
    expect(pub.status).toBe(200);
    expect(pub.body.map((a: Json) => a.name)).toEqual(['Second', 'First']);
    expect(pub.body[0]).not.toHaveProperty('requests');

    for (const who of [poster, { token: adminToken } as RegisteredUser]) {
      const res = await read(
        `/api/adoptions/user/${poster.user._id}?includeRequests=true`,
        who.token,
        position,
      );
      expect(res.status).toBe(200);
      expect(res.body.map((a: Json) => [a.name, a.requests.map((r: Json) => r._id)])).toEqual([
        ['Second', []],
        ['First', [rb.request._id, rc.request._id]],
      ]);
      expect(res.body[1].requests[0]).toMatchObject({
        requester: { _id: bob.user._id, username: bob.username },
        name: bob.username,
        email: bob.email,
        phone: '+92 300 1234567',
        status: 'pending',
      });
    }
    const stranger = await api.get(`/api/adoptions/user/${poster.user._id}?includeRequests=true`, bob.token);
    expect(stranger.status).toBe(403);
    const visitor = await api.get(`/api/adoptions/user/${poster.user._id}?includeRequests=true`);
    expect(visitor.status).toBe(401);
    expect(visitor.body.message).toBe('No token provided');
    expect((await api.get(`/api/adoptions/user/${crypto.randomUUID()}`)).body).toEqual([]);

    // The requests of one ad, in the order they came.
    const reqs = await read(`/api/adoptions/${first._id}/requests`, poster.token, position);
    expect(reqs.body.map((r: Json) => r._id)).toEqual([rb.request._id, rc.request._id]);
    expect((await api.get(`/api/adoptions/${first._id}/requests`, adminToken)).status).toBe(200);
    const other = await api.get(`/api/adoptions/${first._id}/requests`, bob.token);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(M.notOwner);
    expect((await api.get(`/api/adoptions/${first._id}/requests`)).status).toBe(401);
    const unknown = await api.get(`/api/adoptions/${crypto.randomUUID()}/requests`, poster.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(M.adNotFound);
  });
});

// ---------------------------------------------------------------------------------------------- history

describe('GET /api/adoptions/history', () => {
  it("answers the requester's own requests, newest first, with the pet, dates, status and message; never cached", async () => {
    const seeker = await api.registerVerifiedUser();
    const cat = await createAd(owner, { name: 'Mano', petType: 'Cat' });
    const dog = await createAd(owner, { name: 'Tiger', petType: 'Dog' });
    const r1 = await requestAdoption(seeker, cat._id, { message: 'I adore cats.' });
    const r2 = await requestAdoption(seeker, dog._id, { message: 'Dogs are my life.' });
    await requestAdoption(bob, dog._id);

    const pending = await read('/api/adoptions/history', seeker.token, r2.position);
    expect(pending.status).toBe(200);
    expect(pending.headers.get('cache-control')).toBe('no-store');
    expect(pending.body).toHaveLength(2);
    expect(pending.body[0]).toEqual({
      _id: r2.request._id,
      adId: dog._id,
      petName: 'Tiger',
      petImage: dog.imageUrl,
      petType: 'Dog',
      requestDate: expect.any(String),
      status: 'pending',
      responseDate: null,
      message: 'Dogs are my life.',
      reason: null,
      adStatus: 'available',
    });
    expect(pending.body[1]).toMatchObject({
      _id: r1.request._id,
      petName: 'Mano',
      petType: 'Cat',
      message: 'I adore cats.',
    });
    expect(Date.parse(pending.body[0].requestDate)).toBeGreaterThanOrEqual(
      Date.parse(pending.body[1].requestDate),
    );

    const accepted = await decide(owner, r2.request._id, 'accepted');
    expect(accepted.status).toBe(200);
    const answered = await read('/api/adoptions/history', seeker.token, accepted.body.position);
    expect(answered.body[0]).toMatchObject({ status: 'accepted', adStatus: 'adopted' });
    expect(Date.parse(answered.body[0].responseDate)).toBeGreaterThanOrEqual(
      Date.parse(answered.body[0].requestDate),
    );
    expect(answered.body[1]).toMatchObject({ status: 'pending', responseDate: null });

    expect(
      (await read('/api/adoptions/history', carol.token)).body.every((h: Json) => h._id !== r1.request._id),
    ).toBe(true);
    const fresh = await api.registerVerifiedUser();
    expect((await api.get('/api/adoptions/history', fresh.token)).body).toEqual([]);
    const visitor = await api.get('/api/adoptions/history');
    expect(visitor.status).toBe(401);
    expect(visitor.body.message).toBe('No token provided');
  });
});

// ---------------------------------------------------------------------------------------------- live lists

describe('adoptionsChanged: the lists of the people concerned read themselves again', () => {
  it("reaches exactly the ad's owner and the requester concerned, on their sockets", async () => {
    const [poster, asker, other, bystander] = await Promise.all([
      api.registerVerifiedUser(),
      api.registerVerifiedUser(),
      api.registerVerifiedUser(),
      api.registerVerifiedUser(),
    ]);
    const sockets = await Promise.all(
      [poster, asker, other, bystander].map((u) => connectSocket(t.url, u.token)),
    );
    const [posterSocket, askerSocket, otherSocket, bystanderSocket] = sockets;
    const heard = (socket: (typeof sockets)[number]) =>
      socket.got.filter((g) => g.event === 'adoptionsChanged').length;
    try {
      const ad = await createAd(poster, { name: 'Livewire' });
      await expect.poll(() => heard(posterSocket!)).toBe(1);
      // `other` has a request on the same ad: a change of someone else's request is not theirs to hear.
      const theirs = await requestAdoption(other, ad._id);
      await expect.poll(() => heard(otherSocket!)).toBe(1);
      await expect.poll(() => heard(posterSocket!)).toBe(2);

      const mine = await requestAdoption(asker, ad._id);
      await expect.poll(() => heard(askerSocket!)).toBe(1);
      await expect.poll(() => heard(posterSocket!)).toBe(3);
      const answered = await decide(poster, mine.request._id, 'rejected');
      expect(answered.status, answered.text).toBe(200);
      await expect.poll(() => heard(askerSocket!)).toBe(2);
      await expect.poll(() => heard(posterSocket!)).toBe(4);

      // A later change that is theirs: pushes go out in commit order, so anything earlier would be here first.
      const withdrawn = await withdraw(other, theirs.request._id);
      expect(withdrawn.status, withdrawn.text).toBe(200);
      await expect.poll(() => heard(otherSocket!)).toBe(2);
      await expect.poll(() => heard(posterSocket!)).toBe(5);
      expect(heard(askerSocket!)).toBe(2);
      expect(heard(bystanderSocket!)).toBe(0);
      expect(posterSocket!.got.find((g) => g.event === 'adoptionsChanged')!.payload).toEqual({});
    } finally {
      for (const s of sockets) s.socket.close();
    }
  });
});
