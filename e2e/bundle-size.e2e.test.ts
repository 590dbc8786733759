import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE §8: the community pages' initial JavaScript stays within 200 KB gzipped; pages and the admin
 * dashboard load as separate chunks. Measured on the production build (frontend/dist).
 */
const DIST = path.resolve(import.meta.dirname, '../frontend/dist');
const BUDGET_BYTES = 200 * 1024;

describe('frontend bundle', () => {
  it('keeps the initial JavaScript (entry and its preloaded chunks) under 200 KB gzipped', async () => {
    const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
    const scripts = [
      ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
      ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const src of new Set(scripts)) total += gzipSync(await readFile(path.join(DIST, src))).length;
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
    // Account pages and the dashboard are not part of it.
    expect(scripts.some((s) => /SignUpPage|ProfilePage|AdminDashboardPage/.test(s))).toBe(false);
  });
});
