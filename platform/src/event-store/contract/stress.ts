import { describe, expect, it } from 'vitest';
import { positionOf, type RecordedEvent } from '../event-store';
import { ev, sleep, expectStrictlyIncreasing, ids, type ContractContext } from './support';

/** Stress: concurrent writers while a subscriber and a readAll pager follow. */
export function describeStress(t: ContractContext): void {
  const { settled, mineFrom, slow, followMine } = t;
  describe('stress', () => {
    it('writers append concurrently while a subscriber (batchSize 3) and a readAll pager (batchSize 3) follow: nothing lost, nothing repeated, one order', async () => {
      const writers = 6;
      const appendsPerWriter = 40;
      let expectedCount = 0;
      let writing = true;

      const sub = followMine(t.start, { batchSize: 3 });

      // A checkpointing reader built on readAll alone: resumes after the last event it saw, pages of 3.
      const paged: RecordedEvent[] = [];
      const pager = (async () => {
        let cursor = t.start;
        for (;;) {
          const last = !writing;
          for await (const e of t.store.readAll(cursor, { batchSize: 3 })) {
            cursor = positionOf(e);
            if (e.streamId.startsWith(t.p)) paged.push(e);
          }
          if (last) return;
          await sleep(1);
        }
      })();

      const fast = Array.from({ length: writers }, async (_, w) => {
        const revisions = new Map<string, bigint>();
        for (let i = 0; i < appendsPerWriter; i++) {
          const stream = `${t.p}w${w}-${i % 3}`;
          const expected = revisions.get(stream) ?? 'no_stream';
          const r = await t.store.append(stream, [ev('N', { w, i })], expected);
          revisions.set(stream, r.nextRevision);
          expectedCount++;
        }
      });
      // A shared stream with 'any': writers race for revisions there too.
      const shared = Array.from({ length: 2 }, async (_, w) => {
        for (let i = 0; i < 20; i++) {
          await t.store.append(`${t.p}shared`, [ev('S', { w, i }), ev('S2', { w, i })], 'any');
          expectedCount += 2;
        }
      });
      // Transactions that take a position and commit late (or never), where the adapter has them.
      const late = t.fixture.beginSlowAppend
        ? [
            (async () => {
              for (let i = 0; i < 15; i++) {
                const s = await slow(`${t.p}late-${i}`, [ev('L', { i }), ev('L', { i })]);
                await sleep(Math.floor(Math.random() * 15));
                if (i % 5 === 4) await s.rollback();
                else {
                  await s.commit();
                  expectedCount += 2;
                }
              }
            })(),
          ]
        : [];
      await Promise.all([...fast, ...shared, ...late]);
      // The pager's last pass starts once everything appended is visible (it may be held back for a while).
      await settled();
      writing = false;
      await pager;
      await sub.waitFor(expectedCount, 20_000);
      await sleep(100);

      const final = await mineFrom();
      expect(final).toHaveLength(expectedCount);
      expect(new Set(ids(final)).size).toBe(expectedCount);
      expectStrictlyIncreasing(final);
      expectStrictlyIncreasing(sub.all);
      expect(ids(sub.mine)).toEqual(ids(final));
      expect(ids(paged)).toEqual(ids(final));
      for (const size of sub.batchSizes) expect(size).toBeLessThanOrEqual(3);
      // Per stream, revisions are gapless and in order inside the global order.
      const byStream = new Map<string, bigint[]>();
      for (const e of final)
        byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.streamRevision]);
      for (const revisions of byStream.values()) {
        expect(revisions).toEqual(revisions.map((_, i) => BigInt(i)));
      }
    });
  });
}
