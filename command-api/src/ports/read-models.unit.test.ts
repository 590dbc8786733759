import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allProjections } from '@pawhaven/projections';

/**
 * The command side reaches the read models only through its port (read-models.ts): no other file of command-api/src
 * names a read-model table or function, so renaming one cannot break a command unseen.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const PORT = 'command-api/src/ports/read-models.ts';

const sources = (dir: string) =>
  (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
    .map((f) => `${dir}/${f.replaceAll('\\', '/')}`)
    .filter((f) => /\.tsx?$/.test(f) && !/\.(unit|int)\.test\.ts$/.test(f));

/** Every table a projection declares, and every table or function the projections' migrations create. */
const readModelNames = () => {
  const names = new Set(allProjections.flatMap((p) => p.tables));
  const created = /CREATE\s+(?:OR\s+REPLACE\s+)?(?:TABLE|FUNCTION|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/g;
  for (const file of sources('projections/src').filter((f) => !f.startsWith('projections/src/testing/')))
    for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(created)) names.add(m[1]!);
  return [...names].sort();
};

/**
 * A name as code uses it: a query builder's argument (`knex('post_likes')`, `table: 'adoption_requests'`) or SQL's
 * (after FROM, JOIN, INTO, UPDATE, TABLE). Comments are skipped.
 */
const naming = (name: string) =>
  new RegExp(`(?:\\(|\\btable:)\\s*['"\`]${name}['"\`]|\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+${name}\\b`);
const isComment = (line: string) => /^\s*(?:\/\/|\/\*|\*)/.test(line);

describe('the read-model port', () => {
  const names = readModelNames();

  it('knows the read models it guards', () => {
    expect(names).toEqual(
      expect.arrayContaining(['post_likes', 'adoption_ads', 'user_notifications', 'ngos']),
    );
    expect(naming('post_likes').test(".knex('post_likes')")).toBe(true);
    expect(naming('user_notifications').test('SELECT read FROM user_notifications($1)')).toBe(true);
    expect(naming('adoption_requests').test("table: 'adoption_requests',")).toBe(true);
    expect(naming('posts').test("router.get('/api/posts')")).toBe(false);
    expect(naming('ngos').test("type Kind = 'ngos' | 'clinics';")).toBe(false);
  });

  it('is the only file of command-api/src that names a read-model table or function', () => {
    const offenders = sources('command-api/src')
      .filter((f) => f !== PORT)
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            (isComment(line) ? [] : names)
              .filter((n) => naming(n).test(line))
              .map((n) => `${file}:${i + 1}: ${n}: ${line.trim()}`),
          ),
      );
    expect(offenders).toEqual([]);
  });
});
