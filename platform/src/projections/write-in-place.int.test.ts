import { to as copyTo } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { comparePositions, START } from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { applyBatch } from './checkpoints';
import { defineProjection, type FoldedRow } from './projection';
import { rebuildProjection } from './rebuild';
import { copyEscape } from './shadow-tables';
import { canonicalFor } from './write-in-place';

/**
 * The in-place rebuild compares a fold's values with the live tables as PostgreSQL prints them: for every supported
 * type, the text `canonicalFor` writes must be exactly what COPY TO prints for the value `apply` would bind, and a
 * value it cannot vouch for must answer undefined (its row is then rewritten, never wrongly taken as equal).
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await db.drop();
});

/** What a projection's `apply` binds: JSON text for json columns (bigints as their digits), the value otherwise. */
const bound = (type: string, value: unknown) =>
  type === 'jsonb'
    ? JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
    : typeof value === 'bigint'
      ? value.toString()
      : value;

/** The values as COPY TO prints them (escapes included), in the session settings the in-place write uses. */
async function printed(type: string, values: unknown[]): Promise<string[]> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL TimeZone = 'UTC'`);
    await client.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
    await client.query(`CREATE TEMPORARY TABLE printed (i int, v ${type}) ON COMMIT DROP`);
    for (const [i, value] of values.entries())
      await client.query(`INSERT INTO printed VALUES ($1, $2)`, [i, bound(type, value)]);
    let text = '';
    for await (const chunk of client.query(copyTo(`COPY (SELECT v FROM printed ORDER BY i) TO STDOUT`)))
      text += (chunk as Buffer).toString('utf8');
    await client.query('COMMIT');
    return text.split('\n').slice(0, -1);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

const cases: Record<string, unknown[]> = {
  text: ['plain', '', 'tab\there back\\slash\nline\r\n\b\v\f', 'cat 🐈 ñ', '\\N', 'quote"\'{},'],
  'character varying(40)': ['short', 'ünïcode'],
  uuid: [
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
    'a0eebc99-9c0b-4ef8-BB6D-6bb9bd380a11',
  ],
  integer: [0, 42, -7, '15'],
  bigint: [9007199254740991, 1234567890123456789n, '-12', 0],
  boolean: [true, false],
  'timestamp with time zone': [
    '2026-11-26T11:32:08.123Z',
    '2026-11-26T11:32:08.000Z',
    '2026-11-26T11:32:08.120Z',
    '2026-11-26T11:32:08.100Z',
    '0999-01-02T03:04:05.007Z',
    '2026-11-26T11:32:08.1205Z',
    '2026-11-26T11:32:08.123456Z',
    '2026-11-26T11:32:08Z',
    '2026-11-26T11:32:08.5+00:00',
    new Date('2026-02-03T04:05:06.789Z'),
  ],
  jsonb: [
    {
      b: 1,
      a: [1, 'x', null, { z: true, yy: 0.5, x: -3 }],
      longer: {},
      '': 'empty key',
      q: 'quote " back \\ nl \n tab \t ctl \u0001 del \u007f ü 🐶 \u2028',
    },
    [],
    'text',
    0,
    -0,
    1.5,
    -0.001,
    123456789012,
    null,
    true,
    { when: new Date('2026-02-03T04:05:06.789Z'), gone: undefined, none: null },
    { big: 12345678901234567890n },
    { postId: 'p1', actorId: 'u1', commentId: 'c1' },
    // The same keys in another order, and the first shape again with other values: one key order cached per shape.
    { commentId: 'c2', postId: 'p2', actorId: 'u2' },
    { postId: 'p3', actorId: 'u3', commentId: 'c3' },
  ],
};

/** Values whose printed form this cannot vouch for: their rows are rewritten. */
const uncertain: Record<string, unknown[]> = {
  text: [5, true, { a: 1 }],
  uuid: ['not-a-uuid', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'],
  integer: [1.5, '015', 'x'],
  boolean: ['true', 1],
  'timestamp with time zone': ['2026-11-26T16:32:08+05:00', '2026-11-26 11:32:08', new Date(Number.NaN)],
  jsonb: [1e21, 1e-7, { ключ: 1 }, new Map([['a', 1]]), Number.NaN],
};

describe('in-place rebuild: values as PostgreSQL prints them', () => {
  for (const [type, values] of Object.entries(cases))
    it(`${type}: the canonical text is what PostgreSQL prints`, async () => {
      const canonical = canonicalFor(type)!;
      expect(canonical).toBeDefined();
      expect(values.map((v) => copyEscape(canonical(v)!))).toEqual(await printed(type, values));
    });

  it('answers undefined where it cannot tell, so the row is rewritten rather than taken as equal', () => {
    for (const [type, values] of Object.entries(uncertain))
      for (const v of values)
        expect({ type, v, text: canonicalFor(type)!(v) }).toEqual({ type, v, text: undefined });
  });

  it('leaves types it does not know to the shadow copies', () => {
    for (const type of [
      'numeric',
      'double precision',
      'json',
      'text[]',
      'date',
      'timestamp(3) with time zone',
    ])
      expect(canonicalFor(type)).toBeUndefined();
  });
});

describe('in-place rebuild, end to end', () => {
  /**
   * A small projection over three kinds of table: keyed (`wip_pets`), without a key and holding duplicates
   * (`wip_tags`), and, when `withForeignKey`, a child with a foreign key to it (`wip_visits`), which sends the rebuild
   * through shadow copies. Its fold writes `seen_at` in a zone other than UTC and `doc` with a non-ASCII key when
   * `uncertain`: values the comparison cannot vouch for.
   */
  const pets = (opts: { uncertain: boolean; withForeignKey?: boolean }) =>
    defineProjection({
      name: opts.withForeignKey ? 'wip_pets_fk' : 'wip_pets',
      tables: ['wip_pets', 'wip_tags', ...(opts.withForeignKey ? ['wip_visits'] : [])],
      handles: ['PetSeen'],
      async apply(tx, e) {
        const d = e.data as { id: string; n: number; tag: string };
        await tx.raw(
          `INSERT INTO wip_pets (id, n, seen_at, doc) VALUES (?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET n = EXCLUDED.n, seen_at = EXCLUDED.seen_at, doc = EXCLUDED.doc`,
          [d.id, d.n, '2026-11-26T11:32:08.5Z', JSON.stringify({ ключ: d.n, tab: 'a\tb' })],
        );
        await tx('wip_tags').insert({ tag: d.tag, n: d.n });
        if (opts.withForeignKey) await tx('wip_visits').insert({ pet_id: d.id, n: d.n });
      },
      fold: () => {
        const rows = new Map<string, FoldedRow>();
        const tags: FoldedRow[] = [];
        const visits: FoldedRow[] = [];
        return {
          apply(e) {
            const d = e.data as { id: string; n: number; tag: string };
            rows.set(d.id, {
              id: d.id,
              n: d.n,
              seen_at: opts.uncertain ? '2026-11-26T16:32:08.5+05:00' : '2026-11-26T11:32:08.500Z',
              doc: { ключ: d.n, tab: 'a\tb' },
            });
            tags.push({ tag: d.tag, n: d.n });
            if (opts.withForeignKey) visits.push({ pet_id: d.id, n: d.n });
          },
          rows: () => ({
            wip_pets: rows.values(),
            wip_tags: tags,
            ...(opts.withForeignKey ? { wip_visits: visits } : {}),
          }),
        };
      },
    });

  const dump = async () => ({
    pets: (await db.pool.query(`SELECT id, n, seen_at, doc FROM wip_pets ORDER BY id`)).rows,
    tags: (await db.pool.query(`SELECT tag, n FROM wip_tags ORDER BY tag, n`)).rows,
  });

  it('rewrites only rows holding values it cannot vouch for, replaces a keyless table that differs, and goes through shadow copies when a foreign key is involved', async () => {
    await db.pool.query(`
      CREATE TABLE wip_pets (id uuid PRIMARY KEY, n bigint NOT NULL, seen_at timestamptz NOT NULL, doc jsonb NOT NULL);
      CREATE TABLE wip_tags (tag text NOT NULL, n int NOT NULL)`);
    const store = new PostgresEventStore(db.pool);
    try {
      const ids = ['0b7e5a52-8f0a-4a53-9d6f-2d1c7c1f0a01', '0b7e5a52-8f0a-4a53-9d6f-2d1c7c1f0a02'];
      const appended = await store.append(
        'pets-1',
        [
          { type: 'PetSeen', data: { id: ids[0], n: 1, tag: 'calm' } },
          { type: 'PetSeen', data: { id: ids[1], n: 2, tag: 'calm' } },
          { type: 'PetSeen', data: { id: ids[0], n: 3, tag: 'playful' } },
        ],
        'any',
      );
      // Readers (and the rebuild) see the log up to the oldest transaction still open on the server, other test
      // files' too: wait until that is past these events.
      for (let waited = 0; comparePositions(await store.headPosition(), appended) < 0; waited += 10) {
        if (waited > 30_000) throw new Error('the appended events never became visible');
        await new Promise((r) => setTimeout(r, 10));
      }
      const events = [];
      for await (const e of store.readAll(START)) events.push(e);
      expect(events).toHaveLength(3);
      // Projected live, through apply.
      const certain = pets({ uncertain: false });
      await applyBatch(db.knex, [certain], events, START);
      const live = await dump();

      // The doc's non-ASCII key alone makes every pets row uncertain: each is deleted and inserted again, equal.
      const first = await rebuildProjection(db.knex, store, certain);
      expect(first.changedRows).toBe(4);
      expect(await dump()).toEqual(live);
      const again = await rebuildProjection(db.knex, store, pets({ uncertain: true }));
      expect(again.changedRows).toBe(4);
      expect(await dump()).toEqual(live);

      // A keyless table that differs as a multiset is replaced whole: 3 rows out (one invented), 3 rows in.
      await db.pool.query(
        `DELETE FROM wip_tags WHERE tag = 'playful'; INSERT INTO wip_tags VALUES ('calm', 1), ('ghost', 9)`,
      );
      await rebuildProjection(db.knex, store, certain);
      expect(await dump()).toEqual(live);

      // With a foreign key between its tables, the projection rebuilds through shadow copies, to the same model.
      await db.pool.query(
        `CREATE TABLE wip_visits (pet_id uuid NOT NULL REFERENCES wip_pets (id), n int NOT NULL); DELETE FROM wip_tags`,
      );
      const related = pets({ uncertain: false, withForeignKey: true });
      const viaShadows = await rebuildProjection(db.knex, store, related);
      expect(viaShadows.processed).toBe(3);
      // The shadow merge compares values, not text: the pets rows stay; 3 tags and 3 visits are added.
      expect(viaShadows.changedRows).toBe(6);
      expect(await dump()).toEqual(live);
      expect((await db.pool.query(`SELECT count(*)::int AS n FROM wip_visits`)).rows[0].n).toBe(3);
    } finally {
      await store.close();
    }
  });
});
