import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER, DIRECTORY_SEARCH_MAX, ngoStream, clinicStream } from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import { startTestApp, type Json, type TestApp } from '@pawhaven/testing';

/**
 * The public pages' reads over HTTP on the seeded content: the lists' shapes, and the directory search done by the
 * server (case-insensitive substring; NGOs by name or description, clinics by name or location; LIKE's wildcards
 * taken literally; an empty term lists everything).
 */

let t: TestApp;
let store: PostgresEventStore;
let last = '0';

const get = async (url: string) => {
  const res = await t.api.get(url, undefined, { [CONSISTENT_AFTER_HEADER]: last });
  return res;
};
const list = async (url: string): Promise<Json[]> => {
  const res = await get(url);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('x-consistency')).toBe('consistent');
  expect(Array.isArray(res.body)).toBe(true);
  return res.body;
};
const names = (items: Json[]) => items.map((i) => i.name as string);
const has = (text: string, term: string) => text.toLowerCase().includes(term.toLowerCase());

let allNgos: Json[];
let allClinics: Json[];

beforeAll(async () => {
  t = await startTestApp();
  store = new PostgresEventStore(t.db.pool);
  last = (await t.db.pool.query<{ p: string }>('SELECT max(position)::text AS p FROM events')).rows[0]!.p;
  allNgos = await list('/api/ngos');
  allClinics = await list('/api/clinics');
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

describe('the lists', () => {
  it('answers the NGOs as a plain array of records with _id and id', () => {
    expect(allNgos).toHaveLength(13);
    for (const ngo of allNgos) {
      expect(Object.keys(ngo).sort()).toEqual(
        ['_id', 'contact', 'description', 'id', 'image', 'mission', 'name', 'services'].sort(),
      );
      expect(ngo._id).toBe(ngo.id);
      expect(ngo.contact).toEqual({ phone: expect.any(String), email: expect.any(String) });
      expect(ngo.services.length).toBeGreaterThan(0);
      expect(ngo.image).toMatch(/^\/media\/directory\/.+\.svg$/);
    }
  });

  it('answers the clinics with veterinarians, services_offered and a contact whose e-mail is optional', () => {
    expect(allClinics).toHaveLength(14);
    for (const clinic of allClinics) {
      expect(clinic._id).toBe(clinic.id);
      expect(clinic.veterinarians.length).toBeGreaterThan(0);
      expect(clinic.veterinarians[0]).toEqual({
        name: expect.any(String),
        specialization: expect.any(String),
      });
      expect(clinic.services_offered.length).toBeGreaterThan(0);
    }
    const withoutEmail = allClinics.filter((c) => !('email' in c.contact));
    expect(withoutEmail.length).toBeGreaterThan(0);
    expect(withoutEmail[0].contact).toEqual({ phone: expect.any(String) });
  });

  it('answers the FAQ at its historical /api/faqRoutes and at /api/faq alike', async () => {
    const faq = await list('/api/faqRoutes');
    expect(faq.length).toBeGreaterThanOrEqual(10);
    expect(faq[0]).toEqual({
      _id: expect.any(String),
      id: faq[0]._id,
      question: expect.any(String),
      answer: expect.any(String),
    });
    expect(await list('/api/faq')).toEqual(faq);
  });

  it('answers the team with details and contact, ambassadors and collaborators', async () => {
    const team = await list('/api/team');
    expect(team.length).toBeGreaterThanOrEqual(5);
    for (const m of team) {
      expect(Object.keys(m.details).sort()).toEqual([
        'achievements',
        'education',
        'experience',
        'facilities',
      ]);
      expect(Object.keys(m.contact).sort()).toEqual(['email', 'location', 'phone', 'website']);
    }
    expect(team.filter((m) => m.role.includes('Ambassador')).length).toBeGreaterThan(0);
    expect(team.filter((m) => m.role.includes('Collaborator')).length).toBeGreaterThan(0);
  });

  it('answers the landing figures, all zero before anyone joins (the admin is not a community member)', async () => {
    const res = await get('/api/stats/landing');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ adsPublished: 0, petsAdopted: 0, registeredVets: 0, communityMembers: 0 });
  });
});

describe('the directory search', () => {
  const search = (kind: 'ngos' | 'clinics', q: string) => list(`/api/${kind}?q=${encodeURIComponent(q)}`);

  it('finds a case-insensitive substring of an NGO’s name or description', async () => {
    for (const term of ['LAHORE', 'lahore', 'LaHoRe']) {
      const found = await search('ngos', term);
      expect(names(found)).toEqual(
        names(allNgos.filter((n) => has(n.name, term) || has(n.description, term))),
      );
      expect(found.length).toBeGreaterThan(0);
    }
    // In a description only, and in a name only.
    const inDescription = await search('ngos', 'karachi');
    expect(inDescription.length).toBeGreaterThan(0);
    expect(inDescription.every((n) => !has(n.name, 'karachi') && has(n.description, 'karachi'))).toBe(true);
    const inName = await search('ngos', 'SEASIDE');
    expect(names(inName)).toEqual(['Seaside Strays Trust']);
    expect(has(inName[0].description, 'seaside')).toBe(false);
  });

  it('finds a case-insensitive substring of a clinic’s name or location, not of its services', async () => {
    const inLocation = await search('clinics', 'KARACHI');
    expect(names(inLocation)).toEqual(['Harbour Animal Hospital']);
    const inName = await search('clinics', 'hospital');
    expect(names(inName)).toEqual(
      names(allClinics.filter((c) => has(c.name, 'hospital') || has(c.location, 'hospital'))),
    );
    expect(inName.length).toBeGreaterThan(1);
    expect(await search('clinics', 'ultrasound')).toEqual([]);
    expect(names(await search('clinics', 'lahore'))).toEqual([
      'Green Valley Pet Clinic',
      'Lakeside Cat & Dog Hospital',
    ]);
  });

  it('lists everything for an empty or blank term, and nothing for a term nobody has', async () => {
    expect(await list('/api/ngos?q=')).toEqual(allNgos);
    expect(await search('ngos', '   ')).toEqual(allNgos);
    expect(await list('/api/clinics?q=')).toEqual(allClinics);
    expect(names(await search('ngos', '  lahore  '))).toEqual(names(await search('ngos', 'lahore')));
    expect(await search('ngos', 'zebra crossing')).toEqual([]);
    expect(await search('clinics', 'zebra crossing')).toEqual([]);
  });

  it('takes %, _ and \\ literally', async () => {
    for (const term of ['%', '_', '\\', '%%', 'a_b', '100%'])
      for (const kind of ['ngos', 'clinics'] as const) expect(await search(kind, term)).toEqual([]);

    const ngoId = randomUUID();
    const clinicId = randomUUID();
    const at = new Date().toISOString();
    await store.append(
      ngoStream(ngoId),
      [
        {
          type: 'NgoListed',
          data: {
            ngoId,
            name: '100% Volunteer_Run Rescue',
            description: 'Back\\slash friends',
            contact: { phone: '+92 300 0000999', email: 'x@wild.example.org' },
            image: '/media/directory/ngo-paw.svg',
            mission: 'm',
            services: [],
            order: 99,
            listedAt: at,
          },
        },
      ],
      'no_stream',
    );
    const appended = await store.append(
      clinicStream(clinicId),
      [
        {
          type: 'ClinicListed',
          data: {
            clinicId,
            name: 'Clinic_Plus',
            location: '50% Road, Lahore',
            image: '/media/directory/clinic-cross.svg',
            veterinarians: [],
            servicesOffered: [],
            contact: { phone: '+92 300 0000998', email: null },
            order: 99,
            listedAt: at,
          },
        },
      ],
      'no_stream',
    );
    last = String(appended.position);

    for (const term of ['%', '100%', '0% v', '_', 'r_r', '\\'])
      expect(names(await search('ngos', term)), term).toEqual(['100% Volunteer_Run Rescue']);
    expect(await search('ngos', '%%')).toEqual([]);
    expect(await search('ngos', 'a_b')).toEqual([]);
    expect(names(await search('clinics', '_'))).toEqual(['Clinic_Plus']);
    expect(names(await search('clinics', '%'))).toEqual(['Clinic_Plus']);
    expect(names(await search('clinics', 'c_p'))).toEqual(['Clinic_Plus']);
    expect(await search('clinics', 'c%p')).toEqual([]);
    const clinic = (await search('clinics', 'clinic_plus'))[0];
    expect(clinic.contact).toEqual({ phone: '+92 300 0000998' });
  });

  it(`refuses a term longer than ${DIRECTORY_SEARCH_MAX} characters, or given twice, with a 400`, async () => {
    for (const kind of ['ngos', 'clinics']) {
      const long = await get(`/api/${kind}?q=${'a'.repeat(DIRECTORY_SEARCH_MAX + 1)}`);
      expect(long.status).toBe(400);
      expect(long.body.message).toBe('Search is too long');
      expect((await get(`/api/${kind}?q=${'a'.repeat(DIRECTORY_SEARCH_MAX)}`)).body).toEqual([]);
      expect((await get(`/api/${kind}?q=a&q=b`)).status).toBe(400);
    }
  });
});
