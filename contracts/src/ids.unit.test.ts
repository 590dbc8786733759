import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLowerCaseUuid, uuidIndex } from './ids';

/**
 * A UUID is recognised in one place, `ids.ts` (`isUuid`, `isLowerCaseUuid`, `uuidIndex`): this test refuses a
 * UUID pattern written out again in the runtime code of any workspace (tests may still spell out the exact form
 * they expect, a version digit included).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const WORKSPACES = [
  'contracts',
  'platform',
  'command-api',
  'projections',
  'query-api',
  'gateway',
  'frontend',
  'simulator',
  'testing',
];
/** Files being rewritten by others at the time of writing; this list may only shrink. */
const NOT_YET = [
  'platform/src/projections/write-in-place.ts',
  'projections/src/notifications/notifications.rows.ts',
];
/** Eight hex digits in a character class: how every hand-written UUID pattern starts. */
const HAND_WRITTEN = /\[(?:0-9a-f|0-9a-fA-F|0-9A-Fa-f|a-f0-9|\\da-f|0-9A-F)\]\{8\}/;

const runtimeFiles = (workspace: string) =>
  (readdirSync(join(ROOT, workspace, 'src'), { recursive: true }) as string[])
    .map((f) => `${workspace}/src/${f.replaceAll('\\', '/')}`)
    .filter((f) => /\.tsx?$/.test(f) && !/\.(unit|int|e2e)\.test\.tsx?$/.test(f));

describe('UUIDs', () => {
  it('isLowerCaseUuid takes only the lower-case form, as a uuid column prints it', () => {
    expect(isLowerCaseUuid('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe(true);
    expect(isLowerCaseUuid('3F2504E0-4f89-11d3-9a0c-0305e82c3301')).toBe(false);
    expect(isLowerCaseUuid('not-a-uuid')).toBe(false);
  });

  it('uuidIndex finds the first UUID inside a text', () => {
    expect(uuidIndex('adoption-ad-3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe(12);
    expect(uuidIndex('user-3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe(5);
    expect(uuidIndex('username-claim-abc')).toBe(-1);
  });

  it('no runtime file writes a UUID pattern of its own', () => {
    // The check recognises what it refuses.
    expect(HAND_WRITTEN.test('const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-/i;')).toBe(true);
    expect(HAND_WRITTEN.test(String.raw`/[\da-f]{8}-/`)).toBe(true);
    const offenders: string[] = [];
    for (const workspace of WORKSPACES)
      for (const file of runtimeFiles(workspace)) {
        if (file === 'contracts/src/ids.ts' || NOT_YET.includes(file)) continue;
        const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (HAND_WRITTEN.test(line)) offenders.push(`${file}:${i + 1}`);
        });
      }
    expect(offenders).toEqual([]);
  });
});
