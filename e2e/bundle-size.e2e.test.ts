import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The community pages' initial JavaScript stays within its budget; pages and the admin dashboard load as separate
 * chunks. Measured on the production build (frontend/dist). The shell measures 150 KB gzipped; the guard leaves 2 KB
 * of room, so the first screens stay as fast as Lighthouse measures them (docs/decisions.md, "Public pages"). The
 * drawer, account menu, toasts, real-time connection and zod stay out of it.
 */
const DIST = path.resolve(import.meta.dirname, '../frontend/dist');
const BUDGET_BYTES = 152 * 1024;

describe('frontend bundle', () => {
  it('keeps the initial JavaScript (entry and its preloaded chunks) under 152 KB gzipped', async () => {
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
    // Nor zod's schema builders: the shell reads only constants of @pawhaven/contracts.
    for (const src of new Set(scripts)) {
      const code = await readFile(path.join(DIST, src), 'utf8');
      expect(code, src).not.toContain('ZodObject');
    }
  });
});
