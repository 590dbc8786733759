import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  adoptionStream,
  clinicStream,
  contactMessageStream,
  conversationStream,
  emailClaimStream,
  faqStream,
  ngoStream,
  notificationsStream,
  postLikeStream,
  postStream,
  sessionStream,
  teamMemberStream,
  usernameClaimStream,
  userStream,
} from './index';

/**
 * Stream names are spelled once, here in contracts: the code that appends, reads or projects a stream calls these
 * helpers, so renaming a stream (or reading an old name beside a new one) is a change in one place. This test
 * refuses a stream name built by hand (`user-${id}`, `'user-'.length`) in the runtime code of the other workspaces.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const WORKSPACES = ['platform', 'command-api', 'projections', 'query-api', 'gateway'];
/** The realistic-log simulator is moving to a workspace of its own (it then imports these helpers). */
const NOT_YET = ['projections/src/testing/'];

const PREFIXES = [
  userStream(''),
  sessionStream(''),
  emailClaimStream(''),
  usernameClaimStream(''),
  postStream(''),
  postLikeStream('', '').slice(0, -1),
  adoptionStream(''),
  conversationStream(''),
  notificationsStream(''),
  ngoStream(''),
  clinicStream(''),
  faqStream(''),
  teamMemberStream(''),
  contactMessageStream(''),
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = PREFIXES.map(escape).join('|');
/** A template literal starting with a prefix and an interpolation, or a prefix's length taken to cut a stream id. */
const HAND_BUILT = new RegExp(`\`(?:${alternatives})\\$\\{|['"](?:${alternatives})['"]\\.length`);

const runtimeFiles = (workspace: string) =>
  (readdirSync(join(ROOT, workspace, 'src'), { recursive: true }) as string[])
    .map((f) => `${workspace}/src/${f.replaceAll('\\', '/')}`)
    .filter((f) => /\.tsx?$/.test(f) && !/\.(unit|int)\.test\.ts$/.test(f))
    .filter((f) => !NOT_YET.some((dir) => f.startsWith(dir)));

describe('stream names', () => {
  it('knows the prefixes it looks for', () => {
    expect(PREFIXES).toContain('user-');
    expect(PREFIXES).toContain('post-like-');
    expect(HAND_BUILT.test('const s = `user-${id}`;')).toBe(true);
    expect(HAND_BUILT.test("id.slice('adoption-'.length)")).toBe(true);
    expect(HAND_BUILT.test('const k = `user:${id}`;')).toBe(false);
  });

  it('are built by the contracts helpers, never by hand, in the runtime code', () => {
    const offenders = WORKSPACES.flatMap(runtimeFiles).flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (HAND_BUILT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
