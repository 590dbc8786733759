import { expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { PostgresEventStore } from './postgres-event-store';

it('40 any at once', async () => {
  const db = await createTestDatabase({ max: 100 });
  const store = new PostgresEventStore(db.pool);
  await Promise.all(Array.from({ length: 100 }, () => db.pool.query('SELECT pg_sleep(0.05)')));
  const r = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => store.append('busy', [{ type: 'N', data: { i } }], 'any')));
  console.log('max attempt', (globalThis as any).maxAttempt);
  console.log('any rejected', r.filter((x) => x.status === 'rejected').length);
  await store.close();
  await db.drop();
});

it('listener killed', async () => {
  const db = await createTestDatabase({ max: 5 });
  const store = new PostgresEventStore(db.pool);
  const other = new PostgresEventStore(db.pool);
  const got: unknown[] = [];
  const ac = new AbortController();
  const done = store.subscribeAll({ transactionId: 0n, position: 0n }, async (b) => void got.push(...b), ac.signal);
  await new Promise((r) => setTimeout(r, 100));
  await db.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()`);
  await new Promise((r) => setTimeout(r, 100));
  await other.append('x', [{ type: 'N', data: {} }], 'any');
  await new Promise((r) => setTimeout(r, 2000));
  console.log('got after listener killed', got.length);
  ac.abort();
  await done;
  expect(true).toBe(true);
  await db.drop();
});
