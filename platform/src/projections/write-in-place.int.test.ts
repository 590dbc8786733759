import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { to as copyTo } from 'pg-copy-streams';
import { canonicalFor, escapeOut } from './write-in-place';

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
  uuid: ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'],
  integer: [0, 42, -7, '15'],
  bigint: [9007199254740991, 1234567890123456789n, '-12', 0],
  boolean: [true, false],
  'timestamp with time zone': [
    '2026-11-26T11:32:08.123Z',
    '2026-11-26T11:32:08.000Z',
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
      expect(values.map((v) => escapeOut(canonical(v)!))).toEqual(await printed(type, values));
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
