import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { rebuildProjection } from '@pawhaven/platform';
import { testEventStore } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import { startTestApp, testImage, uniqueName, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * The listing's X-Total-Count without counting every ad per page: without a city or text search it comes from the
 * counts the adoption-ads projection keeps, with one from a count kept until the listed ads change. Either way it
 * must equal what counting the ads themselves gives, for every filter and viewer, through publishing, a change of
 * kind, deletions and an account's deletion; and a rebuild must give the same counts.
 */
let t: TestApp;
let admin: string;
let position = '';
const FILTERS = ['all', 'dog', 'cat', 'other'] as const;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signInAdmin()).token;
});
afterAll(async () => {
  await t?.stop();
});

const publish = async (user: RegisteredUser, petType: string, description = 'Calm and house-trained.') => {
  const res = await t.api.upload(
    '/api/adoptions',
    { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' },
    user.token,
    { name: 'Moti', age: '2', location: 'Lahore', petType, description },
  );
  expect(res.status, res.text).toBe(201);
  position = res.body.position;
  return res.body._id as string;
};

/** X-Total-Count once the read models have `position`. */
const totalOf = async (qs: string, viewer?: RegisteredUser) => {
  const res = await t.api.get(`/api/adoptions?${qs}`, viewer?.token, { [CONSISTENT_AFTER_HEADER]: position });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-consistency')).toBe('consistent');
  return Number(res.headers.get('x-total-count'));
};

/** The truth: the listed ads themselves, counted. */
const counted = async (filter: (typeof FILTERS)[number], viewer?: RegisteredUser, word?: string) => {
  const kinds = {
    all: null,
    dog: `pet_type = 'Dog'`,
    cat: `pet_type = 'Cat'`,
    other: `pet_type NOT IN ('Dog', 'Cat')`,
  };
  const where = [
    'deleted_at IS NULL',
    kinds[filter],
    viewer ? `owner_id <> $1` : null,
    word ? `description LIKE $2` : null,
  ]
    .filter(Boolean)
    .join(' AND ');
  const { rows } = await t.db.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM adoption_ads WHERE ${where.replace('$2', viewer ? '$2' : '$1')}`,
    [...(viewer ? [viewer.user._id] : []), ...(word ? [`%${word}%`] : [])],
  );
  return Number(rows[0]!.n);
};

const everyFilterAndViewer = async (viewers: (RegisteredUser | undefined)[]) => {
  for (const viewer of viewers)
    for (const filter of FILTERS)
      expect({ filter, viewer: viewer?.username, total: await totalOf(`filter=${filter}`, viewer) }).toEqual({
        filter,
        viewer: viewer?.username,
        total: await counted(filter, viewer),
      });
};

describe('the listing total', () => {
  it('equals the listed ads counted, for every filter and viewer, as ads come, change kind and go', async () => {
    const [a, b] = await t.api.registerVerifiedUsers(2);
    const [, aCat, aRabbit] = [await publish(a, 'Dog'), await publish(a, 'Cat'), await publish(a, 'Rabbit')];
    await publish(b, 'Cat');
    await everyFilterAndViewer([undefined, a, b]);

    // A rabbit becomes a dog, a cat is deleted, and B's account goes with its ads.
    const changed = await t.api.put(`/api/adoptions/${aRabbit}`, { petType: 'Dog' }, a.token);
    expect(changed.status, changed.text).toBe(200);
    const deleted = await t.api.del(`/api/adoptions/${aCat}`, a.token);
    expect(deleted.status, deleted.text).toBe(200);
    const gone = await t.api.del(`/api/admin/user/${b.user._id}`, admin);
    expect(gone.status, gone.text).toBe(200);
    position = gone.body.position ?? deleted.body.position;
    await everyFilterAndViewer([undefined, a]); // B's token opens nothing any more
    expect(await counted('all')).toBeGreaterThan(0);
  });

  it('a search total follows new matches and leaves the viewer’s own out', async () => {
    const word = uniqueName('zebrafinch');
    const [a, b] = await t.api.registerVerifiedUsers(2);
    await publish(a, 'Bird', `A ${word} that sings.`);
    expect(await totalOf(`q=${word}`)).toBe(1);
    expect(await totalOf(`q=${word}&page=2`)).toBe(1);
    await publish(b, 'Bird', `Another ${word}, quieter.`);
    expect(await totalOf(`q=${word}`)).toBe(2);
    expect(await totalOf(`q=${word}`, a)).toBe(1);
    expect(await totalOf(`q=${word}&city=lahore`, b)).toBe(await counted('all', b, word));
  });

  it('a rebuild of the adoption read models gives the same counts', async () => {
    const dump = async () =>
      (await t.db.pool.query(`SELECT * FROM adoption_listing_counts ORDER BY owner_id, bucket`)).rows;
    const before = await dump();
    await t.db.pool.query(`UPDATE adoption_listing_counts SET n = n + 7`);
    const store = testEventStore(t.db);
    try {
      const projection = allProjections.find((p) => p.name === 'adoption-ads')!;
      expect((await rebuildProjection(t.db.knex, store, projection)).changedRows).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
    expect(await dump()).toEqual(before);
  });
});
