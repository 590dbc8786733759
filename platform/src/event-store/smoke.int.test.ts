import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { PostgresEventStore, START } from '@pawhaven/platform';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

it('appends and reads back', async () => {
  const r = await store.append('s-1', [{ type: 'A', data: { n: 1 } }], 'no_stream');
  expect(r.nextRevision).toBe(0n);
  const all = [];
  for await (const e of store.readAll(START)) all.push(e);
  expect(all.map((e) => e.type)).toEqual(['A']);
});
