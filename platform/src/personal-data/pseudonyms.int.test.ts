import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { StartError } from '../embedded/start-error';
import { resolvePseudonyms } from './pseudonyms';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

const OUTSIDE = 'a-secret-kept-outside-the-database-0123';

describe('the pseudonym secret', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDatabase({ max: 4 });
  });
  afterAll(async () => {
    await db.drop();
  });
  const rows = async () =>
    (
      await db.pool.query<{ name: string }>(
        `SELECT name FROM runtime_secrets WHERE name LIKE 'pseudonym%' ORDER BY name`,
      )
    ).rows.map((r) => r.name);

  it('is generated once and kept (several processes at once agree); another secret is refused at start', async () => {
    const [a, b] = await Promise.all([resolvePseudonyms(db.pool), resolvePseudonyms(db.pool)]);
    expect(a.of('zoe@gmail.com')).toBe(b.of('zoe@gmail.com'));
    expect((await resolvePseudonyms(db.pool)).of('zoe@gmail.com')).toBe(a.of('zoe@gmail.com'));
    expect(await rows()).toEqual(['pseudonym', 'pseudonym-fingerprint']);
    const refused = await resolvePseudonyms(db.pool, OUTSIDE).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StartError);
    expect((refused as StartError).message).toBe(
      'PSEUDONYM_SECRET is not the secret this database was set up with.',
    );
    expect(await rows()).toEqual(['pseudonym', 'pseudonym-fingerprint']);

    // Moving it out: the generated secret given from outside is accepted, and the database's copy removed.
    const { rows: kept } = await db.pool.query<{ value: string }>(
      `SELECT value FROM runtime_secrets WHERE name = 'pseudonym'`,
    );
    const moved = await resolvePseudonyms(db.pool, kept[0]!.value);
    expect(moved.of('zoe@gmail.com')).toBe(a.of('zoe@gmail.com'));
    expect(await rows()).toEqual(['pseudonym-fingerprint']);
    // From then on a start without it is refused (rather than making a new secret that finds no claim).
    await expect(resolvePseudonyms(db.pool)).rejects.toThrow(/PSEUDONYM_SECRET is not set/);
  });
});
