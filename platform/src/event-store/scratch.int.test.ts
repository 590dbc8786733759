import { it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';

it('noise: transactions holding the horizon in another database', async () => {
  const db = await createTestDatabase({ max: 5 });
  await db.pool.query('CREATE TABLE noise (n int)');
  const until = Date.now() + 9000;
  await Promise.all(Array.from({ length: 3 }, async () => {
    while (Date.now() < until) {
      const c = await db.pool.connect();
      await c.query('BEGIN'); await c.query('INSERT INTO noise VALUES (1)');
      await new Promise((r) => setTimeout(r, Math.random() * 30));
      await c.query('COMMIT'); c.release();
    }
  }));
  await db.drop();
}, 20000);
