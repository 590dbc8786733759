import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ev, sleep, expectStrictlyIncreasing, ids, type SlowAppend, type ContractContext } from './support';

/** Late-committing transactions (adapters whose appends can commit out of position order): nobody skips one. */
export function describeLateCommits(t: ContractContext): void {
  const { mineNow, mineFrom, slow, followMine } = t;
  describe.skipIf(!t.fixture.beginSlowAppend)('late-committing transactions', () => {
    it('the transaction with the LOWER position commits LAST: a live subscriber gets both, in order, none skipped', async () => {
      const sub = followMine(t.start, { batchSize: 3 });
      const lateId = randomUUID();
      const late = await slow(`${t.p}late`, [ev('Late', {}, lateId)]);
      const early = await t.store.append(`${t.p}early`, [ev('Early')], 'no_stream');
      expect(late.position < early.position).toBe(true);
      // Give the subscriber every chance to (wrongly) move past the open transaction.
      await sleep(150);
      const beforeCommit = await mineNow(); // 'early' may be held back: do not wait for it
      await late.commit();
      await sub.waitFor(2);
      await sleep(50);
      const final = await mineFrom();
      expect(final.map((e) => e.streamId)).toEqual([`${t.p}late`, `${t.p}early`]);
      expect(final[0]!.eventId).toBe(lateId);
      expect(ids(sub.mine)).toEqual(ids(final));
      expectStrictlyIncreasing(sub.all);
      // What readers saw before the commit is a prefix of what they see after: no one skipped the late event.
      expect(ids(final).slice(0, beforeCommit.length)).toEqual(ids(beforeCommit));
    });

    it('several late transactions committing in reverse order all arrive once, in global order', async () => {
      const sub = followMine(t.start, { batchSize: 2 });
      const opened: SlowAppend[] = [];
      for (let i = 0; i < 4; i++) {
        opened.push(await slow(`${t.p}late-${i}`, [ev('Late', { i }), ev('Late', { i })]));
        await t.store.append(`${t.p}fast-${i}`, [ev('Fast', { i })], 'no_stream');
      }
      const seen: string[][] = [];
      for (const o of opened.reverse()) {
        await o.commit();
        await sleep(30);
        seen.push(ids(await mineNow()));
      }
      await sub.waitFor(12);
      const final = await mineFrom();
      expect(final).toHaveLength(12);
      expectStrictlyIncreasing(final);
      expect(ids(sub.mine)).toEqual(ids(final));
      for (const s of seen) expect(ids(final).slice(0, s.length)).toEqual(s);
    });

    it('a rolled-back transaction is never delivered and does not stall the subscriber', async () => {
      const sub = followMine(t.start);
      const gone = await slow(`${t.p}gone`, [ev('Gone')]);
      await t.store.append(`${t.p}kept`, [ev('Kept')], 'no_stream');
      await gone.rollback();
      await sub.waitFor(1);
      await t.store.append(`${t.p}kept`, [ev('Kept2')], 0n);
      await sub.waitFor(2);
      expect(sub.mine.map((e) => e.type)).toEqual(['Kept', 'Kept2']);
      expect((await mineFrom()).map((e) => e.type)).toEqual(['Kept', 'Kept2']);
    });
  });
}
