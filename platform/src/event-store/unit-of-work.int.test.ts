import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { ConcurrencyError, type RecordedEvent } from './event-store';
import { PostgresEventStore } from './postgres-event-store';
import { afterCommit, afterUnitOfWork, UnitsOfWork, type UnitOfWork } from './unit-of-work';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

let db: TestDb;
let units: UnitsOfWork;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase({ max: 6 });
  units = new UnitsOfWork(db.connectionString, { max: 4 });
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store.close();
  await units.close();
  await db.drop();
});

const lockNo = () => BigInt(Math.floor(Math.random() * 2 ** 40));
const event = (n: number) => ({ type: 'Noted', data: { n } });
const read = async (streamId: string) => {
  const out: RecordedEvent[] = [];
  for await (const e of store.readStream(streamId)) out.push(e);
  return out;
};
const begin = async () => (await units.begin(lockNo()))!;

describe('a unit of work around the PostgreSQL event store', () => {
  it('reads its own appends, which no one else sees and no subscriber hears of before the commit', async () => {
    const streamId = `uow-${randomUUID()}`;
    const heard: RecordedEvent[] = [];
    const stop = new AbortController();
    const subscribed = store.subscribeAll(
      await store.headPosition(),
      async (batch) => void heard.push(...batch.filter((e) => e.streamId === streamId)),
      stop.signal,
    );
    const uow = await begin();
    await units.run(uow, async () => {
      await store.append(streamId, [event(1)], 'no_stream');
      await store.append(streamId, [event(2)], 0n);
      expect((await read(streamId)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    });
    expect(await read(streamId)).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toEqual([]);
    expect(await uow.commit()).toBe(true);
    const deadline = Date.now() + 5_000;
    while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(heard.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    // Both appends are one transaction: one transaction id.
    expect(new Set(heard.map((e) => e.transactionId)).size).toBe(1);
    stop.abort();
    await subscribed;
  });

  it('undoes only the append that lost a race; the transaction goes on and commits the rest', async () => {
    const contested = `uow-${randomUUID()}`;
    const mine = `uow-${randomUUID()}`;
    await store.append(contested, [event(0)], 'no_stream');
    const uow = await begin();
    await units.run(uow, async () => {
      await store.append(mine, [event(1)], 'no_stream');
      await expect(store.append(contested, [event(1)], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
      await store.append(contested, [event(1)], 0n);
    });
    expect(await uow.commit()).toBe(true);
    expect((await read(mine)).map((e) => e.data)).toEqual([{ n: 1 }]);
    expect((await read(contested)).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }]);
  });

  it('is claimed by one at a time, and a dead connection gives the claim back at once', async () => {
    const lock = lockNo();
    const first = (await units.begin(lock))!;
    expect(first).not.toBeNull();
    expect(await units.begin(lock)).toBeNull();
    const streamId = `uow-${randomUUID()}`;
    await units.run(first, () => store.append(streamId, [event(1)], 'no_stream'));
    // As when its process is killed: the server ends the session, rolls back and releases the lock.
    const { rows } = await first.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await db.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    let second: UnitOfWork | null = null;
    for (let i = 0; i < 100 && !second; i++) {
      second = await units.begin(lock);
      if (!second) await new Promise((r) => setTimeout(r, 10));
    }
    expect(second).not.toBeNull();
    await second!.rollback();
    await expect(first.commit()).rejects.toThrow();
    expect(await read(streamId)).toEqual([]);
  });

  it('runs work deferred until after the commit only if it commits, work deferred until the end either way', async () => {
    const ran: string[] = [];
    for (const outcome of ['commit', 'rollback'] as const) {
      const uow = await begin();
      await units.run(uow, async () => {
        await afterCommit(async () => void ran.push(`${outcome}: after commit`));
        await afterUnitOfWork(async () => void ran.push(`${outcome}: after the end`));
      });
      expect(ran.filter((r) => r.startsWith(outcome))).toEqual([]);
      if (outcome === 'commit') await uow.commit();
      else await uow.rollback();
    }
    await afterCommit(async () => void ran.push('without one: at once'));
    expect(ran).toEqual([
      'commit: after commit',
      'commit: after the end',
      'rollback: after the end',
      'without one: at once',
    ]);
  });
});
