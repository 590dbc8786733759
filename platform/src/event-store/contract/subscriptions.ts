import { describe, expect, it } from 'vitest';
import { positionOf, type RecordedEvent } from '../event-store';
import { ev, sleep, expectStrictlyIncreasing, ids, type ContractContext } from './support';

/** Subscriptions: catch-up then live, resuming from a checkpoint, stopping, a failing handler, several subscribers. */
export function describeSubscriptions(t: ContractContext): void {
  const { mineFrom, followMine } = t;
  describe('subscriptions', () => {
    it('subscribeAll catches up on existing events, then delivers new ones live', async () => {
      for (let i = 0; i < 7; i++) await t.store.append(`${t.p}s`, [ev('Old', { i })], 'any');
      const sub = followMine(t.start, { batchSize: 3 });
      await sub.waitFor(7);
      for (let i = 0; i < 5; i++) {
        await t.store.append(`${t.p}s`, [ev('New', { i })], 'any');
        await sub.waitFor(8 + i);
      }
      const final = await mineFrom();
      expect(ids(sub.mine)).toEqual(ids(final));
      expect(sub.mine.map((e) => e.type)).toEqual([...Array(7).fill('Old'), ...Array(5).fill('New')]);
      expectStrictlyIncreasing(sub.all);
      for (const size of sub.batchSizes) expect(size).toBeLessThanOrEqual(3);
    });

    it('resuming from a checkpoint delivers every event exactly once across the restart', async () => {
      for (let i = 0; i < 20; i++) await t.store.append(`${t.p}s${i % 4}`, [ev('N', { i })], 'any');
      const received: RecordedEvent[] = [];
      let checkpoint = t.start;
      const controller = new AbortController();
      let batches = 0;
      // Stop from inside the handler after two batches: those two count as handled, nothing else does.
      await t.store.subscribeAll(
        t.start,
        async (batch) => {
          received.push(...batch);
          checkpoint = positionOf(batch[batch.length - 1]!);
          if (++batches === 2) controller.abort();
        },
        controller.signal,
        { batchSize: 5 },
      );
      expect(batches).toBe(2);
      for (let i = 20; i < 25; i++) await t.store.append(`${t.p}s${i % 4}`, [ev('N', { i })], 'any');
      const sub = followMine(checkpoint, { batchSize: 4 });
      const mineBefore = received.filter((e) => e.streamId.startsWith(t.p));
      await sub.waitFor(25 - mineBefore.length);
      await sleep(50);
      const together = [...mineBefore, ...sub.mine];
      expect(ids(together)).toEqual(ids(await mineFrom()));
      expect(new Set(ids(together)).size).toBe(25);
    });

    it('subscribeAll resolves when its signal aborts: while idle, while catching up, and when aborted before it starts', async () => {
      const idle = followMine(await t.store.headPosition());
      await sleep(50);
      await expect(idle.stop()).resolves.toBeUndefined();

      for (let i = 0; i < 30; i++) await t.store.append(`${t.p}s`, [ev('N', { i })], 'any');
      const controller = new AbortController();
      let calls = 0;
      const catchingUp = t.store.subscribeAll(
        t.start,
        async () => {
          calls++;
          controller.abort();
          await sleep(20);
        },
        controller.signal,
        { batchSize: 2 },
      );
      await expect(catchingUp).resolves.toBeUndefined();
      expect(calls).toBe(1);

      let called = false;
      await expect(
        t.store.subscribeAll(t.start, async () => void (called = true), AbortSignal.abort(), {
          batchSize: 2,
        }),
      ).resolves.toBeUndefined();
      expect(called).toBe(false);
    });

    it('subscribeAll rejects when the handler throws; a new subscription resumes after the last handled batch', async () => {
      for (let i = 0; i < 6; i++) await t.store.append(`${t.p}s`, [ev('N', { i })], 'any');
      const handled: RecordedEvent[] = [];
      let checkpoint = t.start;
      const failure = new Error('handler broke');
      let batch = 0;
      await expect(
        t.store.subscribeAll(
          t.start,
          async (events) => {
            if (++batch === 2) throw failure;
            handled.push(...events);
            checkpoint = positionOf(events[events.length - 1]!);
          },
          new AbortController().signal,
          { batchSize: 2 },
        ),
      ).rejects.toBe(failure);
      const sub = followMine(checkpoint, { batchSize: 2 });
      const mineHandled = handled.filter((e) => e.streamId.startsWith(t.p));
      await sub.waitFor(6 - mineHandled.length);
      expect(ids([...mineHandled, ...sub.mine])).toEqual(ids(await mineFrom()));
    });

    it('two subscribers on one store each get every event', async () => {
      const a = followMine(t.start, { batchSize: 1 });
      const b = followMine(t.start, { batchSize: 100 });
      for (let i = 0; i < 10; i++) await t.store.append(`${t.p}s`, [ev('N', { i })], 'any');
      await a.waitFor(10);
      await b.waitFor(10);
      expect(ids(a.mine)).toEqual(ids(b.mine));
    });
  });
}
