import { describe, expect, it } from 'vitest';
import { ConcurrencyError } from '../event-store';
import { ev, collect, type ContractContext } from './support';

/** Conflicts: expected revisions (no_stream, an exact revision, any), and concurrent writers to one stream or many. */
export function describeConflicts(t: ContractContext): void {
  const { mineFrom } = t;
  describe('expected revision', () => {
    it('no_stream appends to a new stream and throws ConcurrencyError on an existing one, appending nothing', async () => {
      await t.store.append(`${t.p}a`, [ev('Created')], 'no_stream');
      const error = await t.store.append(`${t.p}a`, [ev('Again')], 'no_stream').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(error).toMatchObject({ streamId: `${t.p}a`, expected: 'no_stream', actual: 0n, status: 409 });
      expect((await collect(t.store.readStream(`${t.p}a`))).map((e) => e.type)).toEqual(['Created']);
      expect(await mineFrom()).toHaveLength(1);
    });

    it("an exact revision appends when it is the stream's last revision", async () => {
      await t.store.append(`${t.p}a`, [ev('A'), ev('B')], 'no_stream');
      const r = await t.store.append(`${t.p}a`, [ev('C')], 1n);
      expect(r.nextRevision).toBe(2n);
      const r2 = await t.store.append(`${t.p}a`, [ev('D'), ev('E')], 2n);
      expect(r2.nextRevision).toBe(4n);
      expect((await collect(t.store.readStream(`${t.p}a`))).map((e) => e.type)).toEqual([
        'A',
        'B',
        'C',
        'D',
        'E',
      ]);
    });

    it('a wrong exact revision (behind, ahead, on a missing stream) throws ConcurrencyError and appends nothing', async () => {
      await t.store.append(`${t.p}a`, [ev('A'), ev('B'), ev('C')], 'no_stream');
      for (const wrong of [0n, 1n, 3n, 10n]) {
        const error = await t.store.append(`${t.p}a`, [ev('X'), ev('Y')], wrong).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ streamId: `${t.p}a`, expected: wrong, actual: 2n });
      }
      const missing = await t.store.append(`${t.p}missing`, [ev('X')], 0n).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(ConcurrencyError);
      expect((missing as ConcurrencyError).actual).toBeUndefined();
      expect(await collect(t.store.readStream(`${t.p}missing`))).toEqual([]);
      expect((await collect(t.store.readStream(`${t.p}a`))).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      expect(await mineFrom()).toHaveLength(3);
    });

    it('any appends whatever the stream holds, new or not', async () => {
      expect((await t.store.append(`${t.p}a`, [ev('A')], 'any')).nextRevision).toBe(0n);
      expect((await t.store.append(`${t.p}a`, [ev('B'), ev('C')], 'any')).nextRevision).toBe(2n);
      expect((await collect(t.store.readStream(`${t.p}a`))).map((e) => e.streamRevision)).toEqual([
        0n,
        1n,
        2n,
      ]);
    });
  });

  describe('concurrency', () => {
    it('10 appends fired at once at the same exact revision: exactly one wins, nine get ConcurrencyError', async () => {
      await t.store.append(`${t.p}a`, [ev('Created')], 'no_stream');
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          t.store.append(`${t.p}a`, [ev('Racer', { i }), ev('Racer2', { i })], 0n),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(9);
      for (const l of lost) expect(l.reason).toBeInstanceOf(ConcurrencyError);
      const events = await collect(t.store.readStream(`${t.p}a`));
      expect(events.map((e) => e.streamRevision)).toEqual([0n, 1n, 2n]);
      // The winner's two events are both there, from one and the same append.
      expect(new Set(events.slice(1).map((e) => (e.data as { i: number }).i)).size).toBe(1);
      expect(await mineFrom()).toHaveLength(3);
    });

    it('10 appends fired at once with no_stream on a new stream: exactly one wins', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          t.store.append(`${t.p}new`, [ev('Created', { i })], 'no_stream'),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConcurrencyError);
      expect(await collect(t.store.readStream(`${t.p}new`))).toHaveLength(1);
    });

    it('20 appends fired at once with any to one stream all succeed, with gapless revisions', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.store.append(`${t.p}busy`, [ev('N', { i })], 'any')),
      );
      expect(results.map((r) => r.nextRevision).sort((a, b) => (a < b ? -1 : 1))).toEqual(
        Array.from({ length: 20 }, (_, i) => BigInt(i)),
      );
      const events = await collect(t.store.readStream(`${t.p}busy`));
      expect(events.map((e) => e.streamRevision)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i)));
    });

    it('writers on different streams never conflict', async () => {
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          let expected: 'no_stream' | bigint = 'no_stream';
          for (let i = 0; i < 5; i++)
            expected = (await t.store.append(`${t.p}w${w}`, [ev('N', { i })], expected)).nextRevision;
        }),
      );
      expect(await mineFrom()).toHaveLength(40);
    });
  });
}
