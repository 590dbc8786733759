import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { comparePositions, positionOf, type AppendResult } from '../event-store';
import { ev, collect, expectStrictlyIncreasing, ids, type ContractContext } from './support';

/** Appending and reading: what append returns, readStream and readAll (global order, paging, filters), the head. */
export function describeAppendAndRead(t: ContractContext): void {
  const { settled, mineFrom } = t;
  describe('append, readStream, readAll', () => {
    it('append returns the revision, position and transaction of its last event', async () => {
      const first = await t.store.append(`${t.p}a`, [ev('One'), ev('Two'), ev('Three')], 'no_stream');
      expect(first.nextRevision).toBe(2n);
      const [, , third] = await collect(t.store.readStream(`${t.p}a`));
      expect(third).toMatchObject({ position: first.position, transactionId: first.transactionId });
      const second = await t.store.append(`${t.p}a`, [ev('Four')], 2n);
      expect(second.nextRevision).toBe(3n);
      expect(comparePositions(second, first)).toBe(1);
    });

    it('readStream returns the events with revisions 0..n-1, their data, metadata and ids', async () => {
      const eventId = randomUUID();
      await t.store.append(
        `${t.p}pet-1`,
        [
          {
            eventId,
            type: 'PetListed',
            data: { name: 'Bilo', tags: ['cat', 'kitten'], age: 2 },
            metadata: { actorId: 'u-1' },
          },
          { type: 'PetRenamed', data: { name: 'Billo "the brave" \\ ünïcödé' } },
        ],
        'no_stream',
      );
      const events = await collect(t.store.readStream(`${t.p}pet-1`));
      expect(events.map((e) => [e.streamId, e.streamRevision, e.type])).toEqual([
        [`${t.p}pet-1`, 0n, 'PetListed'],
        [`${t.p}pet-1`, 1n, 'PetRenamed'],
      ]);
      expect(events[0]).toMatchObject({
        eventId,
        data: { name: 'Bilo', tags: ['cat', 'kitten'], age: 2 },
        metadata: { actorId: 'u-1' },
      });
      expect(events[1]!.data).toEqual({ name: 'Billo "the brave" \\ ünïcödé' });
      expect(events[1]!.eventId).toMatch(/^[0-9a-f-]{36}$/);
      expect(events[0]!.createdAt).toBeInstanceOf(Date);
    });

    it('readStream honours fromRevision and maxCount; an unknown stream reads empty', async () => {
      await t.store.append(
        `${t.p}s`,
        [0, 1, 2, 3, 4].map((n) => ev('N', { n })),
        'no_stream',
      );
      const rev = async (opts: { fromRevision?: bigint; maxCount?: number }) =>
        (await collect(t.store.readStream(`${t.p}s`, opts))).map((e) => e.streamRevision);
      expect(await rev({ fromRevision: 2n })).toEqual([2n, 3n, 4n]);
      expect(await rev({ maxCount: 2 })).toEqual([0n, 1n]);
      expect(await rev({ fromRevision: 1n, maxCount: 3 })).toEqual([1n, 2n, 3n]);
      expect(await collect(t.store.readStream(`${t.p}nothing-here`))).toEqual([]);
    });

    it('readAll returns every appended event once, in global order, with the positions append returned', async () => {
      const appended: { id: string; result: AppendResult }[] = [];
      for (let i = 0; i < 12; i++) {
        const id = randomUUID();
        const stream = `${t.p}s${i % 3}`;
        const result = await t.store.append(stream, [ev('N', { i }, id)], 'any');
        appended.push({ id, result });
      }
      const all = await mineFrom();
      expect(ids(all)).toEqual(appended.map((a) => a.id));
      expectStrictlyIncreasing(all);
      all.forEach((e, i) => {
        expect(positionOf(e)).toEqual({
          transactionId: appended[i]!.result.transactionId,
          position: appended[i]!.result.position,
        });
      });
      // Every stream's events keep their revision order inside the global order.
      for (const s of [0, 1, 2]) {
        expect(all.filter((e) => e.streamId === `${t.p}s${s}`).map((e) => e.streamRevision)).toEqual([
          0n,
          1n,
          2n,
          3n,
        ]);
      }
    });

    it('readAll starts strictly after its position and pages with any batch size without loss or repeat', async () => {
      for (let i = 0; i < 10; i++) await t.store.append(`${t.p}s`, [ev('N', { i })], 'any');
      const all = await mineFrom();
      expect(all).toHaveLength(10);
      for (const batchSize of [1, 3, 7, 10, 1000]) {
        expect(ids(await mineFrom(t.start, { batchSize }))).toEqual(ids(all));
      }
      const after3 = await mineFrom(positionOf(all[3]!), { batchSize: 2 });
      expect(ids(after3)).toEqual(ids(all.slice(4)));
      expect(await mineFrom(positionOf(all[9]!))).toEqual([]);
    });

    it('readAll honours maxCount and upTo', async () => {
      for (let i = 0; i < 6; i++) await t.store.append(`${t.p}s`, [ev('N', { i })], 'any');
      const all = await mineFrom();
      const after0 = positionOf(all[0]!);
      expect(ids(await collect(t.store.readAll(after0, { maxCount: 3, batchSize: 2 })))).toEqual(
        ids(all.slice(1, 4)),
      );
      expect(
        ids(await collect(t.store.readAll(after0, { upTo: positionOf(all[3]!), batchSize: 2 }))),
      ).toEqual(ids(all.slice(1, 4)));
    });

    it('readAll with types reads only events of those types, in order, paging past the others', async () => {
      for (let i = 0; i < 12; i++)
        await t.store.append(
          `${t.p}s`,
          [ev(i % 3 === 0 ? 'Wanted' : i % 3 === 1 ? 'Other' : 'Also', { i })],
          'any',
        );
      const all = await mineFrom();
      const wanted = all.filter((e) => e.type === 'Wanted' || e.type === 'Also');
      expect(wanted).toHaveLength(8);
      for (const batchSize of [1, 2, 5, 1000])
        expect(ids(await mineFrom(t.start, { batchSize, types: ['Wanted', 'Also'] }))).toEqual(ids(wanted));
      const upTo = positionOf(all[7]!);
      expect(ids(await mineFrom(t.start, { types: ['Wanted'], upTo, batchSize: 2 }))).toEqual(
        ids(all.slice(0, 8).filter((e) => e.type === 'Wanted')),
      );
      expect(await mineFrom(t.start, { types: ['Nothing'] })).toEqual([]);
    });

    it('headPosition is the position of the last appended event', async () => {
      await t.store.append(`${t.p}a`, [ev('N')], 'no_stream');
      const last = await t.store.append(`${t.p}b`, [ev('N'), ev('N')], 'no_stream');
      await settled();
      const head = await t.store.headPosition();
      expect(head).toEqual({ transactionId: last.transactionId, position: last.position });
      expect(comparePositions(head, t.start)).toBe(1);
    });

    it('an empty append is refused', async () => {
      await expect(t.store.append(`${t.p}a`, [], 'any')).rejects.toThrow();
      expect(await mineFrom()).toEqual([]);
    });
  });
}
