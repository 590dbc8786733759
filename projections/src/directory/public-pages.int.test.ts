import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adoptionStream,
  clinicStream,
  CONSISTENT_AFTER_HEADER,
  contactMessageStream,
  faqStream,
  ngoStream,
  teamMemberStream,
} from '@pawhaven/contracts';
import { rebuildProjection, type EventStore } from '@pawhaven/platform';
import { testEventStore } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import { startTestApp, testImage, type Json, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * The public pages' read models: the landing page's figures driven by real commands (sign-ups, verification, ads,
 * an accepted request, deletions by the owner and by an admin) and by histories the commands write more rarely
 * (a lapsed sign-up registered again by Google, a renewed sign-up, a straggling PetAdopted), deletions of users by
 * an administrator, directory entries listed again, malformed or repeated entries and messages; then every table of
 * the three projections rebuilt from the log alone, identical.
 */

const TABLES: Record<string, string> = {
  ngos: 'id',
  clinics: 'id',
  faq_items: 'id',
  team_members: 'id',
  landing_stats: 'id',
  landing_stats_users: 'id',
  landing_stats_ads: 'id',
  contact_messages: 'id',
};

let t: TestApp;
let store: EventStore;
let last = 0n;
const state: { owner?: RegisteredUser; adopter?: RegisteredUser } = {};

const track = (position: string | bigint | undefined) => {
  if (position !== undefined && BigInt(position) > last) last = BigInt(position);
};

const settle = async () => {
  const res = await t.api.get('/api/config', undefined, { [CONSISTENT_AFTER_HEADER]: last.toString() });
  expect(res.headers.get('x-consistency')).toBe('consistent');
};

const stats = async () => {
  await settle();
  const res = await t.api.get('/api/stats/landing');
  expect(res.status).toBe(200);
  return res.body as Json;
};

async function dump(): Promise<Record<string, Json[]>> {
  const out: Record<string, Json[]> = {};
  for (const [table, key] of Object.entries(TABLES))
    out[table] = (await t.db.pool.query(`SELECT * FROM ${table} ORDER BY ${key}`)).rows;
  return out;
}

const publishAd = async (owner: RegisteredUser, name: string) => {
  const res = await t.api.upload(
    '/api/adoptions',
    { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' },
    owner.token,
    { name, age: '2', location: 'Lahore', petType: 'Dog', description: 'Friendly and house-trained.' },
  );
  expect(res.status, res.text).toBe(201);
  track(res.body.position);
  return res.body._id as string;
};

/** Events appended straight to the log, as the command side or the seeding records them. */
const append = async (streamId: string, type: string, data: Record<string, unknown>) =>
  track((await store.append(streamId, [{ type, data }], 'any')).position);

/** A user's events appended straight to the log, as the command side records them. */
const record = async (userId: string, type: string, data: Record<string, unknown>) =>
  track(
    (await store.append(`user-${userId}`, [{ type, data, metadata: { actorId: userId } }], 'any')).position,
  );

const registered = (userId: string, via: 'password' | 'google', isVeterinarian: boolean) => ({
  userId,
  username: `u${userId.slice(0, 8)}`,
  email: `${userId.slice(0, 8)}@gmail.com`,
  passwordHash: null,
  isVeterinarian,
  isAdmin: false,
  via,
  registeredAt: new Date().toISOString(),
});

/** A pet as an ad carries it, for ads appended straight to the log. */
const details = {
  name: 'Straggler',
  age: '1',
  ageUnit: 'yrs',
  petType: 'Cat',
  breed: 'Mixed',
  gender: null,
  size: null,
  vaccinated: null,
  spayedNeutered: null,
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
  description: 'A cat.',
  location: 'Lahore',
  imageUrl: '/api/images/none',
};

beforeAll(async () => {
  t = await startTestApp();
  // As the app reads and appends: a signed-in sender's message is sealed, and opened again for the rebuild.
  store = testEventStore(t.db);
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

describe('the landing page figures', () => {
  it('start at zero: the admin account is no community member', async () => {
    expect(await stats()).toEqual({
      adsPublished: 0,
      petsAdopted: 0,
      registeredVets: 0,
      communityMembers: 0,
    });
  });

  it('count verified accounts and verified vets only', async () => {
    const [owner, adopter, vet] = await Promise.all([
      t.api.registerVerifiedUser(),
      t.api.registerVerifiedUser(),
      t.api.registerVerifiedUser({ isVeterinarian: true }),
    ]);
    [owner, adopter, vet].forEach((u) => track(u.position));
    // Signed up but never verified: not (yet) a member, vet or not.
    for (const isVeterinarian of [false, true]) {
      const res = await t.api.post('/api/auth/register', {
        username: `pending${randomUUID().slice(0, 8)}`,
        email: `pending${randomUUID().slice(0, 8)}@gmail.com`,
        password: 'Str0ng!Passw0rd',
        isVeterinarian,
      });
      expect(res.status, res.text).toBe(201);
    }
    const head = await t.db.pool.query<{ p: string }>('SELECT max(position)::text AS p FROM events');
    track(head.rows[0]!.p);
    expect(await stats()).toMatchObject({ registeredVets: 1, communityMembers: 3 });
    state.owner = owner;
    state.adopter = adopter;
  });

  it('count ads published and pets adopted, from real commands', async () => {
    const { owner, adopter } = state;
    const adopted = await publishAd(owner!, 'Moti');
    const deletedByOwner = await publishAd(owner!, 'Billo');
    const removedByAdmin = await publishAd(owner!, 'Spam');
    expect(await stats()).toMatchObject({ adsPublished: 3, petsAdopted: 0 });

    const request = await t.api.post(
      `/api/adoptions/${adopted}/request`,
      {
        name: adopter!.username,
        email: adopter!.email,
        phone: '+92 300 1234567',
        message: 'We have a garden.',
      },
      adopter!.token,
    );
    expect(request.status, request.text).toBe(201);
    const accept = await t.api.put(
      `/api/adoptions/requests/${request.body.request._id}`,
      { status: 'accepted' },
      owner!.token,
    );
    expect(accept.status, accept.text).toBe(200);
    track(accept.body.position);
    expect(await stats()).toMatchObject({ adsPublished: 3, petsAdopted: 1 });

    // 'Rescued' counts the ads listed now: an owner's own deletion takes one off, as a moderator's removal does.
    const own = await t.api.del(`/api/adoptions/${deletedByOwner}`, owner!.token);
    expect(own.status, own.text).toBe(200);
    track(own.body.position);
    expect(await stats()).toMatchObject({ adsPublished: 2, petsAdopted: 1 });
    const removed = await t.api.del(`/api/adoptions/${removedByAdmin}`, (await t.signInAdmin()).token);
    expect(removed.status, removed.text).toBe(200);
    track(removed.body.position);
    expect(await stats()).toMatchObject({ adsPublished: 1, petsAdopted: 1 });
    // The adopted pet's ad deleted afterwards: no longer listed, but the adoption still happened.
    const afterAdoption = await t.api.del(`/api/adoptions/${adopted}`, owner!.token);
    expect(afterAdoption.status, afterAdoption.text).toBe(200);
    track(afterAdoption.body.position);
    expect(await stats()).toEqual({
      adsPublished: 0,
      petsAdopted: 1,
      registeredVets: 1,
      communityMembers: 3,
    });
  });

  it('follow rarer histories: Google re-registration, renewed sign-ups, Google links, a straggling adoption', async () => {
    // A lapsed vet sign-up whose stream Google registers again as a regular user: one member, no vet.
    const lapsed = randomUUID();
    await record(lapsed, 'UserRegistered', registered(lapsed, 'password', true));
    await record(lapsed, 'UserRegistered', registered(lapsed, 'google', false));
    // A sign-up renewed as a vet, then verified: one member, one vet; verified twice counts once.
    const renewed = randomUUID();
    await record(renewed, 'UserRegistered', registered(renewed, 'password', false));
    await record(renewed, 'RegistrationRenewed', {
      username: 'renewed',
      passwordHash: 'x',
      isVeterinarian: true,
    });
    await record(renewed, 'EmailVerified', { verifiedAt: new Date().toISOString() });
    await record(renewed, 'EmailVerified', { verifiedAt: new Date().toISOString() });
    // A pending sign-up that Google proves: verified by the link.
    const linked = randomUUID();
    await record(linked, 'UserRegistered', registered(linked, 'password', false));
    await record(linked, 'GoogleAccountLinked', { googleSubject: 'sub-1' });
    // Events of nobody known change nothing.
    await record(randomUUID(), 'EmailVerified', { verifiedAt: new Date().toISOString() });
    // A second PetAdopted on one ad counts once.
    const adId = randomUUID();
    const at = new Date().toISOString();
    const ad = async (type: string, data: Record<string, unknown>) =>
      track((await store.append(adoptionStream(adId), [{ type, data }], 'any')).position);
    await ad('AdoptionAdPublished', { adId, ownerId: lapsed, details, publishedAt: at });
    await ad('PetAdopted', { requestId: randomUUID(), adopterId: linked, adoptedAt: at });
    await ad('PetAdopted', { requestId: randomUUID(), adopterId: linked, adoptedAt: at });
    expect(await stats()).toEqual({
      adsPublished: 1,
      petsAdopted: 2,
      registeredVets: 2,
      communityMembers: 6,
    });
  });
});

describe('deletions, and entries or messages listed again', () => {
  it('forget a deleted user and their listed ads (not their adoptions) and count repeated or unknown ad events once', async () => {
    const gone = await t.api.registerVerifiedUser({ isVeterinarian: true });
    track(gone.position);
    await publishAd(gone, 'Left behind');
    expect(await stats()).toEqual({
      adsPublished: 2,
      petsAdopted: 2,
      registeredVets: 3,
      communityMembers: 7,
    });
    // A signed-in message goes with its sender's account; another user's and a visitor's stay.
    for (const [token, message] of [
      [gone.token, 'From the member who leaves'],
      [state.adopter!.token, 'From the member who stays'],
    ]) {
      const res = await t.api.post('/api/contact', { name: 'Member', email: 'm@gmail.com', message }, token);
      expect(res.status, res.text).toBe(201);
      track(res.body.position);
    }
    const deletion = await t.api.del(`/api/admin/user/${gone.user._id}`, (await t.signInAdmin()).token);
    expect(deletion.status, deletion.text).toBe(200);
    track(deletion.body.position);
    // A pending sign-up deleted, and a deletion of nobody: no member, no figure moves.
    const pending = randomUUID();
    await record(pending, 'UserRegistered', registered(pending, 'password', true));
    const deleted = { deletedBy: 'admin', deletedAt: new Date().toISOString() };
    await record(pending, 'UserDeleted', { userId: pending, ...deleted });
    const nobody = randomUUID();
    await record(nobody, 'UserDeleted', { userId: nobody, ...deleted });
    // A member registered again, now no vet, then deleted: the figures are back where they were.
    const twice = randomUUID();
    await record(twice, 'UserRegistered', registered(twice, 'google', true));
    await record(twice, 'UserRegistered', registered(twice, 'google', false));
    // The deleted user's ad is no longer listed: it no longer counts.
    expect(await stats()).toMatchObject({ adsPublished: 1, registeredVets: 2, communityMembers: 7 });
    await record(twice, 'UserDeleted', { userId: twice, ...deleted });

    // An ad published twice counts once; removed twice by an administrator, it stops counting once; its owner's
    // deletion after that changes nothing; events of an ad never published change nothing.
    const adId = randomUUID();
    const published = { adId, ownerId: pending, details, publishedAt: new Date().toISOString() };
    await append(adoptionStream(adId), 'AdoptionAdPublished', published);
    await append(adoptionStream(adId), 'AdoptionAdPublished', published);
    expect(await stats()).toMatchObject({ adsPublished: 2 });
    const removal = { deletedAt: new Date().toISOString(), byAdmin: true };
    await append(adoptionStream(adId), 'AdoptionAdDeleted', removal);
    await append(adoptionStream(adId), 'AdoptionAdDeleted', removal);
    await append(adoptionStream(adId), 'AdoptionAdDeleted', { ...removal, byAdmin: false });
    const unknown = randomUUID();
    await append(adoptionStream(unknown), 'AdoptionAdDeleted', removal);
    await append(adoptionStream(unknown), 'PetAdopted', {
      requestId: randomUUID(),
      adopterId: pending,
      adoptedAt: new Date().toISOString(),
    });
    expect(await stats()).toEqual({
      adsPublished: 1,
      petsAdopted: 2,
      registeredVets: 2,
      communityMembers: 6,
    });
    const { rows } = await t.db.pool.query<{ message: string }>(
      `SELECT message FROM contact_messages ORDER BY message`,
    );
    expect(rows.map((r) => r.message)).toEqual(['From the member who stays']);
  });

  it('take the latest listing of an entry, and skip what names nothing', async () => {
    const at = '2025-01-01T12:00:00.000Z';
    const ngo = randomUUID();
    await append(ngoStream(ngo), 'NgoListed', {
      ngoId: ngo,
      name: 'First name',
      description: 'First',
      contact: { phone: '1', email: 'first@ngo.pk' },
      image: '/first.png',
      mission: 'First mission',
      services: ['Rescue', 'Shelter'],
      order: 100,
      listedAt: at,
    });
    // Listed again with less: every column is the new listing's (missing texts blank, a bad time the record's).
    await append(ngoStream(ngo), 'NgoListed', {
      ngoId: ngo,
      name: 'Second name',
      services: ['Rescue', 7],
      order: 1.5,
      listedAt: 'not a time',
    });
    await append(ngoStream('not-a-uuid'), 'NgoListed', { ngoId: 'not-a-uuid', name: 'Nobody' });
    const clinic = randomUUID();
    await append(clinicStream(clinic), 'ClinicListed', {
      clinicId: clinic,
      name: 'Clinic without e-mail',
      location: 'Multan',
      veterinarians: [{ name: 'Dr Ayesha', specialization: 'Surgery' }, null, { name: 7 }],
      servicesOffered: ['Vaccination'],
      contact: { phone: '061', email: null },
      order: 50,
      listedAt: at,
    });
    const faq = randomUUID();
    for (const answer of ['First answer', 'Second answer'])
      await append(faqStream(faq), 'FaqPublished', {
        faqId: faq,
        question: 'Again?',
        answer,
        order: 2 ** 31,
        publishedAt: at,
      });
    const member = randomUUID();
    await append(teamMemberStream(member), 'TeamMemberAdded', {
      memberId: member,
      name: 'Partial member',
      role: 'Ambassador',
      details: { education: ['DVM'], experience: 'not a list' },
      contact: { website: 'https://example.pk' },
      order: -3,
      addedAt: at,
    });
    // Contact messages: one appended twice (the first stays), one of a time that is none, one of no message id.
    const message = randomUUID();
    const received = (text: string, receivedAt: unknown) => ({
      messageId: message,
      name: 'Visitor',
      email: 'v@example.com',
      message: text,
      userId: null,
      receivedAt,
    });
    await append(contactMessageStream(message), 'ContactMessageReceived', received('First', at));
    await append(contactMessageStream(message), 'ContactMessageReceived', received('Second', at));
    const timeless = randomUUID();
    await append(contactMessageStream(timeless), 'ContactMessageReceived', {
      ...received('Timeless', 'yesterday'),
      messageId: timeless,
    });
    await append(contactMessageStream('none'), 'ContactMessageReceived', { message: 'No id' });
    await settle();

    const row = async (table: string, id: string) =>
      (await t.db.pool.query(`SELECT * FROM ${table} WHERE id = $1`, [id])).rows[0];
    expect(await row('ngos', ngo)).toMatchObject({
      name: 'Second name',
      description: '',
      phone: '',
      services: ['Rescue'],
      sort_order: 0,
    });
    expect(await row('clinics', clinic)).toMatchObject({
      email: null,
      veterinarians: [
        { name: 'Dr Ayesha', specialization: 'Surgery' },
        { name: '', specialization: '' },
        { name: '', specialization: '' },
      ],
    });
    expect(await row('faq_items', faq)).toMatchObject({ answer: 'Second answer', sort_order: 0 });
    expect(await row('team_members', member)).toMatchObject({
      image: '',
      details: { education: ['DVM'], experience: [], achievements: [], facilities: [] },
      contact: { phone: '', email: '', website: 'https://example.pk', location: '' },
      sort_order: -3,
    });
    expect(await row('contact_messages', message)).toMatchObject({ message: 'First' });
    expect(await row('contact_messages', timeless)).toMatchObject({ received_at: expect.any(Date) });
  });
});

describe('rebuilding the public pages’ read models from the log', () => {
  const projections = () =>
    allProjections.filter((p) => ['directory', 'landing-stats', 'contact-messages'].includes(p.name));

  it('changes no row of what the live projections built', async () => {
    await settle();
    const before = await dump();
    expect(projections()).toHaveLength(3);
    for (const p of projections()) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.processed).toBeGreaterThan(0);
      expect(result.changedRows, p.name).toBe(0);
    }
    expect(await dump()).toEqual(before);
  });

  it('reproduces identical rows in every table, even from tampered tables', async () => {
    const contact = await t.api.post('/api/contact', {
      name: 'Visitor',
      email: 'visitor@example.com',
      message: 'Hello from the rebuild test',
    });
    expect(contact.status, contact.text).toBe(201);
    track(contact.body.position);
    await settle();
    const before = await dump();
    // The seed files' entries and one more of each; the messages of the visitors and the member who stays.
    expect(before.ngos).toHaveLength(14);
    expect(before.clinics).toHaveLength(15);
    expect(before.contact_messages).toHaveLength(4);
    expect(before.landing_stats).toHaveLength(1);
    await t.db.pool.query(`UPDATE ngos SET name = 'x', services = '[]'`);
    await t.db.pool.query(`DELETE FROM clinics WHERE sort_order < 3`);
    await t.db.pool.query(`UPDATE faq_items SET answer = ''`);
    await t.db.pool.query(`DELETE FROM team_members`);
    await t.db.pool.query(`UPDATE landing_stats SET ads_published = 99, community_members = 0`);
    await t.db.pool.query(`UPDATE landing_stats_users SET verified = NOT verified`);
    await t.db.pool.query(`DELETE FROM landing_stats_ads`);
    await t.db.pool.query(`UPDATE contact_messages SET message = 'tampered'`);
    expect(await dump()).not.toEqual(before);

    for (const p of projections()) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.processed).toBeGreaterThan(0);
    }
    expect(await dump()).toEqual(before);
  });

  it('leaves the live projectors working: later events still reach the read models', async () => {
    const user = await t.api.registerVerifiedUser({ isVeterinarian: true });
    track(user.position);
    expect(await stats()).toEqual({
      adsPublished: 1,
      petsAdopted: 2,
      registeredVets: 3,
      communityMembers: 7,
    });
  });
});
