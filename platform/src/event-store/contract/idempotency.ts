import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ev, collect, type ContractContext } from './support';

/** Idempotency: an append retried with the same event ids is stored once and answers the first result. */
export function describeIdempotency(t: ContractContext): void {
  const { mineFrom } = t;
  describe('idempotency', () => {
    it('retrying an append with the same event ids returns the first result and appends nothing', async () => {
      const batch = [ev('A', {}, randomUUID()), ev('B', {}, randomUUID())];
      const first = await t.store.append(`${t.p}a`, batch, 'no_stream');
      await t.store.append(`${t.p}a`, [ev('C')], first.nextRevision);
      // Whatever the retry expects (the original no_stream, any, the current revision, a wrong one).
      for (const expected of ['no_stream', 'any', 2n, 7n] as const) {
        expect(await t.store.append(`${t.p}a`, batch, expected)).toEqual(first);
      }
      const single = ev('D', {}, randomUUID());
      const d = await t.store.append(`${t.p}b`, [single], 'any');
      expect(await t.store.append(`${t.p}b`, [single], 'any')).toEqual(d);
      expect((await collect(t.store.readStream(`${t.p}a`))).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      expect(await mineFrom()).toHaveLength(4);
    });

    it('the same append retried concurrently is stored once and every attempt gets the same result', async () => {
      const batch = [ev('A', {}, randomUUID()), ev('B', {}, randomUUID())];
      const results = await Promise.all(
        Array.from({ length: 6 }, () => t.store.append(`${t.p}a`, batch, 'no_stream')),
      );
      for (const r of results) expect(r).toEqual(results[0]);
      expect(await mineFrom()).toHaveLength(2);
    });

    const perStream = t.fixture.eventIdsUniqueAcrossStreams === false;
    if (perStream) console.log('skipped: event ids are unique per stream only in this adapter (by design)');
    it.skipIf(perStream)(
      'an event id already used in another stream is not a retry: the append fails and appends nothing',
      async () => {
        const id = randomUUID();
        await t.store.append(`${t.p}a`, [ev('A', {}, id)], 'no_stream');
        await expect(t.store.append(`${t.p}b`, [ev('A', {}, id)], 'no_stream')).rejects.toThrow();
        expect(await collect(t.store.readStream(`${t.p}b`))).toEqual([]);
        expect(await mineFrom()).toHaveLength(1);
      },
    );
  });
}
