import { describe, expect, it } from 'vitest';
import { memoryStore } from './row-store';

type Ad = { ad_id: string; owner_id: string | null; title: string };
type Like = { post_id: string; user_id: string };

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
});
