import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { raInAppRouter } from './ra-in-app-router';

type Transform = (this: { warn(message: string): void }, code: string, id: string) => { code: string } | null;

const transform = raInAppRouter().transform as unknown as Transform;
const warnings: string[] = [];
const context = { warn: (message: string) => void warnings.push(message) };

describe('raInAppRouter', () => {
  it("drops the installed react-admin's own hash router, keeping everything else of the adapter", async () => {
    // ra-core's entry is dist/index.js; the adapter sits beside it.
    const entry = createRequire(import.meta.url).resolve('ra-core');
    const id = path.join(path.dirname(entry), 'routing/adapters/reactRouterProvider.js');
    const code = await readFile(id, 'utf8');
    const out = transform.call(context, code, id);
    expect(out, 'the adapter of this react-admin version is recognised').not.toBeNull();
    expect(out!.code).not.toMatch(/createHashRouter|ReactRouterProvider/);
    expect(out!.code).toContain('export const reactRouterProvider');
    expect(out!.code).toContain('useInRouterContext');
    expect(warnings).toEqual([]);
  });

  it('leaves other modules alone', () => {
    expect(transform.call(context, 'export {}', '/x/node_modules/react-router/dist/index.mjs')).toBeNull();
  });
});
