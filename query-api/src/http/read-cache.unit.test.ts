import { describe, expect, it } from 'vitest';
import { projectionsWriting, ReadCache } from './read-cache';

/** The projections' state as a ConsistencyWaiter would report it; `null` is a listener that is down. */
function heardState() {
  const state = { value: '1' as string | null };
  return { state, waiter: { stateOf: () => state.value } };
}

function counter<T>(answer: () => T) {
  const calls = { n: 0 };
  return {
    calls,
    load: async () => {
      calls.n++;
      return answer();
    },
  };
}

describe('ReadCache', () => {
  it('answers from memory while the read models it watches have not changed', async () => {
    const { waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 10, maxAgeMs: 60_000 });
    const { calls, load } = counter(() => 'page 1');
    expect(await cache.get('feed:1', ['posts'], load)).toBe('page 1');
    expect(await cache.get('feed:1', ['posts'], load)).toBe('page 1');
    expect(calls.n).toBe(1);
  });

  it('queries again once a projection it watches has committed', async () => {
    const { state, waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 10, maxAgeMs: 60_000 });
    let body = 'before';
    const { calls, load } = counter(() => body);
    expect(await cache.get('feed:1', ['posts'], load)).toBe('before');
    body = 'after';
    state.value = '2';
    expect(await cache.get('feed:1', ['posts'], load)).toBe('after');
    expect(calls.n).toBe(2);
  });

  it('keeps nothing while the listener is down', async () => {
    const { state, waiter } = heardState();
    state.value = null;
    const cache = new ReadCache(waiter, { maxEntries: 10, maxAgeMs: 60_000 });
    const { calls, load } = counter(() => 'x');
    await cache.get('feed:1', ['posts'], load);
    await cache.get('feed:1', ['posts'], load);
    expect(calls.n).toBe(2);
  });

  it('never keeps an answer longer than its maximum age', async () => {
    const { waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 10, maxAgeMs: 20 });
    const { calls, load } = counter(() => 'x');
    await cache.get('feed:1', ['posts'], load);
    await new Promise((r) => setTimeout(r, 30));
    await cache.get('feed:1', ['posts'], load);
    expect(calls.n).toBe(2);
  });

  it('shares one query between concurrent misses of one key', async () => {
    const { waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 10, maxAgeMs: 60_000 });
    const { calls, load } = counter(() => 'x');
    await Promise.all(Array.from({ length: 5 }, () => cache.get('feed:1', ['posts'], load)));
    expect(calls.n).toBe(1);
  });

  it('forgets a failed query, so the next reader tries again', async () => {
    const { waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 10, maxAgeMs: 60_000 });
    await expect(
      cache.get('feed:1', ['posts'], async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    expect(await cache.get('feed:1', ['posts'], async () => 'back')).toBe('back');
  });

  it('evicts the least recently used key beyond its size', async () => {
    const { waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 2, maxAgeMs: 60_000 });
    const { calls, load } = counter(() => 'x');
    await cache.get('a', ['posts'], load);
    await cache.get('b', ['posts'], load);
    await cache.get('a', ['posts'], load); // a is now the most recent
    await cache.get('c', ['posts'], load); // evicts b
    expect(calls.n).toBe(3);
    await cache.get('a', ['posts'], load);
    expect(calls.n).toBe(3);
    await cache.get('b', ['posts'], load);
    expect(calls.n).toBe(4);
  });

  it('with no entries allowed, always queries', async () => {
    const { waiter } = heardState();
    const cache = new ReadCache(waiter, { maxEntries: 0, maxAgeMs: 60_000 });
    const { calls, load } = counter(() => 'x');
    await cache.get('a', ['posts'], load);
    await cache.get('a', ['posts'], load);
    expect(calls.n).toBe(2);
  });
});

describe('projectionsWriting', () => {
  const projections = [
    { name: 'community-posts', tables: ['posts', 'post_likes'] },
    { name: 'users', tables: ['users'] },
  ];
  it('names each projection that writes one of the tables, once', () => {
    expect(projectionsWriting(projections, ['posts', 'post_likes', 'users'])).toEqual([
      'community-posts',
      'users',
    ]);
  });
  it('refuses a table nobody writes (a renamed table must not silently disable freshness)', () => {
    expect(() => projectionsWriting(projections, ['likes'])).toThrow(
      "No projection writes the table 'likes'",
    );
  });
});
