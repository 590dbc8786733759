import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { allProjections } from '../index';

/**
 * Every column a read model finds rows by (`lookups`) or asks ranges of (`ranges`) is served by an index of its live
 * table whose first column it is: the live projector looks rows up by them on every batch, and without an index
 * each lookup reads the whole table, a cost that grows with the data and shows only in production.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await db.drop();
});

describe('the columns read models find rows by', () => {
  it('each lead an index of the live table', async () => {
    const { rows } = await db.knex.raw<{ rows: { table: string; first: string }[] }>(
      `SELECT c.relname AS table, a.attname AS first
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]`,
    );
    const indexed = new Set(rows.map((r) => `${r.table}.${r.first}`));
    const unserved: string[] = [];
    let asked = 0;
    for (const projection of allProjections)
      for (const [table, spec] of Object.entries(projection.model?.tables ?? {}))
        for (const column of [...(spec.lookups ?? []), ...(spec.ranges ?? [])]) {
          asked++;
          if (!indexed.has(`${table}.${column}`)) unserved.push(`${projection.name}: ${table}.${column}`);
        }
    expect(asked).toBeGreaterThan(10);
    expect(unserved).toEqual([]);
  });
});
