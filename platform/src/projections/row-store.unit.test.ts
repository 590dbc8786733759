import { describe, expect, it } from 'vitest';
import { memoryStore } from './row-store';

type Ad = { ad_id: string; owner_id: string | null; title: string };
type Like = { post_id: string; user_id: string };
type Term = { user_id: string; since: number; until: number | null };

describe('the in-memory row store a rebuild evolves', () => {
  const fresh = () =>
    memoryStore<{ ads: Ad; likes: Like }>({
      ads: { key: ['ad_id'], lookups: ['owner_id'] },
      likes: { key: ['post_id', 'user_id'], lookups: ['user_id'] },
    });

  it('finds rows by a lookup column as they are put, changed and deleted', () => {
    const { store } = fresh();
    store.ads.put({ ad_id: 'a1', owner_id: 'u1', title: 'Rex' });
    store.ads.put({ ad_id: 'a2', owner_id: 'u1', title: 'Tom' });
    expect(store.ads.find('owner_id', 'u1').map((r) => r.ad_id)).toEqual(['a1', 'a2']);
    store.ads.put({ ad_id: 'a1', owner_id: 'u2', title: 'Rex' });
    expect(store.ads.find('owner_id', 'u1').map((r) => r.ad_id)).toEqual(['a2']);
    expect(store.ads.find('owner_id', 'u2').map((r) => r.title)).toEqual(['Rex']);
    store.ads.delete('a2');
    expect(store.ads.find('owner_id', 'u1')).toEqual([]);
    expect(store.ads.get('a2')).toBeUndefined();
    // A null is nobody's: `= NULL` finds nothing in SQL either.
    store.ads.put({ ad_id: 'a3', owner_id: null, title: 'Kit' });
    expect(store.ads.find('owner_id', null)).toEqual([]);
  });

  it('keys rows by every column of a composite key', () => {
    const { store, rows } = fresh();
    store.likes.put({ post_id: 'p1', user_id: 'u1' });
    store.likes.put({ post_id: 'p1', user_id: 'u2' });
    store.likes.put({ post_id: 'p1', user_id: 'u1' });
    expect(store.likes.get('p1', 'u2')).toEqual({ post_id: 'p1', user_id: 'u2' });
    store.likes.delete('p1', 'u1');
    expect([...rows().likes!]).toEqual([{ post_id: 'p1', user_id: 'u2' }]);
    expect(store.likes.find('user_id', 'u1')).toEqual([]);
  });

  it('hands out the rows it holds, which change in place and are put back, lookups following', () => {
    const { store } = fresh();
    store.ads.put({ ad_id: 'a1', owner_id: 'u1', title: 'Rex' });
    const ad = store.ads.get('a1')!;
    ad.owner_id = 'u2';
    store.ads.put(ad);
    expect(store.ads.find('owner_id', 'u1')).toEqual([]);
    expect(store.ads.find('owner_id', 'u2')).toEqual([{ ad_id: 'a1', owner_id: 'u2', title: 'Rex' }]);
    ad.owner_id = null;
    store.ads.put(ad);
    expect(store.ads.find('owner_id', 'u2')).toEqual([]);
    expect(store.ads.get('a1')).toBe(ad);
    // Deleted, then put back: held again, found again.
    store.ads.delete('a1');
    ad.owner_id = 'u3';
    store.ads.put(ad);
    expect(store.ads.find('owner_id', 'u3')).toEqual([ad]);
  });

  it('keeps composite keys apart whatever characters their values hold', () => {
    const { store, rows } = fresh();
    store.likes.put({ post_id: 'p\u0000u', user_id: 'v' });
    store.likes.put({ post_id: 'p', user_id: 'u\u0000v' });
    expect([...rows().likes!]).toHaveLength(2);
    expect(store.likes.get('p', 'u\u0000v')).toEqual({ post_id: 'p', user_id: 'u\u0000v' });
  });

  it('refuses a lookup the table did not declare', () => {
    const { store } = fresh();
    expect(() => store.ads.find('title', 'Rex')).toThrow('title is not a declared lookup');
  });

  it('finds rows by a range of a number column, and those whose column is NULL', () => {
    const { store } = memoryStore<{ terms: Term }>({
      terms: { key: ['user_id', 'since'], lookups: ['user_id'], ranges: ['since', 'until'] },
    });
    const since = (rows: Term[]) => rows.map((r) => `${r.user_id}@${r.since}`).sort();
    store.terms.put({ user_id: 'u1', since: 10, until: 20 });
    store.terms.put({ user_id: 'u2', since: 5, until: null });
    store.terms.put({ user_id: 'u3', since: 30, until: null });
    store.terms.put({ user_id: 'u1', since: 25, until: null });
    store.terms.put({ user_id: 'u4', since: 10, until: 12 });
    // Bounds are exclusive; an undefined one does not bound.
    expect(since(store.terms.between('since', 5, 30))).toEqual(['u1@10', 'u1@25', 'u4@10']);
    expect(since(store.terms.between('since', undefined, 10))).toEqual(['u2@5']);
    expect(since(store.terms.between('since', 10, undefined))).toEqual(['u1@25', 'u3@30']);
    expect(store.terms.between('since', 10, 10)).toEqual([]);
    // NULL is not between anything, and is found on its own.
    expect(since(store.terms.between('until', undefined, undefined))).toEqual(['u1@10', 'u4@10']);
    expect(since(store.terms.findNull('until'))).toEqual(['u1@25', 'u2@5', 'u3@30']);
    // A change moves the row; a deletion takes it away.
    store.terms.put({ user_id: 'u2', since: 5, until: 40 });
    store.terms.delete('u3', 30);
    expect(since(store.terms.findNull('until'))).toEqual(['u1@25']);
    expect(since(store.terms.between('until', 15, undefined))).toEqual(['u1@10', 'u2@5']);
    store.terms.delete('u4', 10);
    expect(since(store.terms.between('since', 9, 11))).toEqual(['u1@10']);
    expect(() => store.terms.between('user_id' as 'since', 0, 1)).toThrow('user_id is not a declared range');
  });
});
