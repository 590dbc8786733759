import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import { startTestApp, type Json, type TestApp } from '@pawhaven/testing';
import { SEED_DIR, seedEntityId, seedPublicContent } from './seed';

/**
 * The directory, FAQ and team content is appended from data/seed on every start, each entry once: a second start
 * on the same database, and two seeds running at the same moment, add nothing.
 */

const SEED_TYPES = ['NgoListed', 'ClinicListed', 'FaqPublished', 'TeamMemberAdded'];

let t: TestApp;
let store: PostgresEventStore;

const seedCounts = async (): Promise<Record<string, number>> => {
  const { rows } = await t.db.pool.query<{ type: string; n: string }>(
    `SELECT type, count(*) AS n FROM events WHERE type = ANY($1) GROUP BY type`,
    [SEED_TYPES],
  );
  return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
};

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** A GET that waits until the projections have passed every event in the log. */
const read = async (app: TestApp, url: string) => {
  const head = await app.db.pool.query<{ p: string | null }>('SELECT max(position)::text AS p FROM events');
  const res = await app.api.get(url, undefined, { [CONSISTENT_AFTER_HEADER]: head.rows[0]!.p ?? '0' });
  expect(res.headers.get('x-consistency')).toBe('consistent');
  expect(res.status, res.text).toBe(200);
  return res.body as Json;
};

const fileEntries = async (file: string) =>
  (JSON.parse(await readFile(path.join(SEED_DIR, file), 'utf8')) as { entries: Json[] }).entries;

beforeAll(async () => {
  t = await startTestApp();
  store = new PostgresEventStore(t.db.pool);
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

describe('the seed on first start', () => {
  it('appends every entry of the four seed files as one event in a stream of its own', async () => {
    const [ngos, clinics, faq, team] = await Promise.all(
      ['ngos.json', 'clinics.json', 'faq.json', 'team.json'].map(fileEntries),
    );
    expect(await seedCounts()).toEqual({
      NgoListed: ngos!.length,
      ClinicListed: clinics!.length,
      FaqPublished: faq!.length,
      TeamMemberAdded: team!.length,
    });
    const first = ngos![0]!;
    const id = seedEntityId('ngos', first.key);
    const { rows } = await t.db.pool.query(
      `SELECT stream_revision::int AS revision, type, data, metadata FROM events WHERE stream_id = $1`,
      [`ngo-${id}`],
    );
    expect(rows).toEqual([
      {
        revision: 0,
        type: 'NgoListed',
        data: expect.objectContaining({ ngoId: id, name: first.name, order: 0, services: first.services }),
        metadata: { actorId: 'system', source: 'data/seed/ngos.json', seedKey: first.key },
      },
    ]);
  });

  it('serves 13 NGOs, 14 clinics, the FAQ and the team from the read models, in the files’ order', async () => {
    const ngos = await read(t, '/api/ngos');
    const clinics = await read(t, '/api/clinics');
    const faq = await read(t, '/api/faqRoutes');
    const team = await read(t, '/api/team');
    expect(ngos).toHaveLength(13);
    expect(clinics).toHaveLength(14);
    expect(faq.length).toBeGreaterThanOrEqual(10);
    expect(team.length).toBeGreaterThanOrEqual(5);
    expect(ngos.map((n: Json) => n.name)).toEqual((await fileEntries('ngos.json')).map((e) => e.name));
    expect(faq.map((f: Json) => f.question)).toEqual((await fileEntries('faq.json')).map((e) => e.question));
    expect(team.some((m: Json) => m.role.includes('Ambassador'))).toBe(true);
    expect(team.some((m: Json) => m.role.includes('Collaborator'))).toBe(true);
  });

  it('appends nothing on a second start on the same database, and still serves the same lists', async () => {
    const before = await eventCount();
    const lists = await Promise.all(
      ['/api/ngos', '/api/clinics', '/api/faq', '/api/team'].map((u) => read(t, u)),
    );
    const again = await startTestApp({ db: t.db });
    try {
      expect(await eventCount()).toBe(before);
      const after = await Promise.all(
        ['/api/ngos', '/api/clinics', '/api/faq', '/api/team'].map((u) => read(again, u)),
      );
      expect(after).toEqual(lists);
    } finally {
      await again.stop();
    }
  });

  it('adds each entry once when two processes seed at the same moment', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pawhaven-seed-'));
    try {
      const entry = (key: string, question: string) => ({ key, question, answer: 'An answer.' });
      await writeFile(
        path.join(dir, 'faq.json'),
        JSON.stringify({ entries: [entry('race-one', 'Race one?'), entry('race-two', 'Race two?')] }),
      );
      const other = new PostgresEventStore(t.db.pool);
      try {
        const results = await Promise.all([
          seedPublicContent(store, t.db.knex, { dir }),
          seedPublicContent(other, t.db.knex, { dir }),
          seedPublicContent(store, t.db.knex, { dir }),
        ]);
        expect(results.every((r) => r.appended + r.present === 2)).toBe(true);
      } finally {
        await other.close();
      }
      const { rows } = await t.db.pool.query<{ stream_id: string; n: string }>(
        `SELECT stream_id, count(*) AS n FROM events WHERE stream_id = ANY($1) GROUP BY stream_id`,
        [[`faq-${seedEntityId('faq', 'race-one')}`, `faq-${seedEntityId('faq', 'race-two')}`]],
      );
      expect(rows.map((r) => Number(r.n))).toEqual([1, 1]);
      // An entry added to a file later is added on the next start, without touching the others.
      await writeFile(
        path.join(dir, 'faq.json'),
        JSON.stringify({ entries: [entry('race-one', 'Changed?'), entry('race-three', 'Race three?')] }),
      );
      expect(await seedPublicContent(store, t.db.knex, { dir })).toEqual({ appended: 1, present: 1 });
      const faq = await read(t, '/api/faq');
      expect(faq.map((f: Json) => f.question)).toEqual(expect.arrayContaining(['Race one?', 'Race three?']));
      expect(faq.map((f: Json) => f.question)).not.toContain('Changed?');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a broken seed file with a message naming the file and the field, appending nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pawhaven-seed-'));
    try {
      const before = await eventCount();
      await writeFile(
        path.join(dir, 'ngos.json'),
        JSON.stringify({
          entries: [
            {
              key: 'broken',
              name: 'Broken',
              description: 'x',
              contact: { phone: '+92 300 0000999', email: 'not-an-address' },
              image: '/media/directory/ngo-paw.svg',
              mission: 'x',
              services: [],
            },
          ],
        }),
      );
      await expect(seedPublicContent(store, t.db.knex, { dir })).rejects.toThrow(
        /ngos\.json is not valid at entries\.0\.contact\.email: Please enter a valid email address\./,
      );
      await writeFile(path.join(dir, 'ngos.json'), '{ "entries": [');
      await expect(seedPublicContent(store, t.db.knex, { dir })).rejects.toThrow(
        /ngos\.json is not valid JSON/,
      );
      await writeFile(
        path.join(dir, 'ngos.json'),
        JSON.stringify({ entries: [{ key: 'Not A Key', question: 'q' }] }),
      );
      await expect(seedPublicContent(store, t.db.knex, { dir })).rejects.toThrow(/ngos\.json is not valid/);
      expect(await eventCount()).toBe(before);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
