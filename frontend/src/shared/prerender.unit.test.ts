import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it, vi } from 'vitest';

/**
 * public/prerender.js fetches a visitor's first list early, by address; the API client takes that answer only for the
 * same address. Pinned here to the addresses the pages really ask for, so a changed page size or parameter order is
 * caught instead of silently fetching twice.
 */
it('fetches early exactly the addresses the feed and the adoption listing ask for', async () => {
  const storage = () => ({ getItem: () => null, setItem() {}, removeItem() {} });
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('sessionStorage', storage());
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  const { communityApi } = await import('../community/api');
  const { adoptionApi } = await import('../adoption/api');
  await communityApi.feed(1);
  await adoptionApi.list({ filter: 'all', city: '', q: '' }, 1);
  const script = await readFile(path.resolve(import.meta.dirname, '../../public/prerender.js'), 'utf8');
  expect(asked).toHaveLength(2);
  for (const url of asked) expect(script).toContain(`'${url}'`);
  vi.unstubAllGlobals();
});
