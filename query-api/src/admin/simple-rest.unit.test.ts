import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { ADMIN_DEFAULT_SORT, ADMIN_FILTERS, ADMIN_LIMITS, ADMIN_SORTABLE } from '@pawhaven/contracts';
import { streamCategory } from './lists';
import { parseListParams } from './simple-rest';

const parse = (query: Record<string, string>) =>
  parseListParams(
    { query } as unknown as Request,
    'users',
    ADMIN_SORTABLE.users,
    ADMIN_DEFAULT_SORT.users,
    ADMIN_FILTERS.users,
  );

describe('parseListParams (ra-data-simple-rest)', () => {
  it('reads sort, range and filter as react-admin sends them', () => {
    const p = parse({
      sort: '["username","DESC"]',
      range: '[25,49]',
      filter: '{"q":"ali","isVeterinarian":true}',
    });
    expect(p).toMatchObject({
      sort: { field: 'username', order: 'DESC' },
      range: { start: 25, end: 49 },
      filter: { q: 'ali', isVeterinarian: true },
      offset: 25,
      limit: 25,
    });
  });

  it('defaults: newest first, the plain array capped', () => {
    expect(parse({})).toMatchObject({
      sort: { field: 'createdAt', order: 'DESC' },
      range: null,
      offset: 0,
      limit: ADMIN_LIMITS.plainListMax,
    });
  });

  it('refuses what it cannot serve from an index, or cannot read', () => {
    for (const query of <Record<string, string>[]>[
      { sort: '["isVeterinarian","DESC"]' },
      { sort: '["username","UP"]' },
      { sort: '{}' },
      { range: '[3,1]' },
      { range: '[0,100]' },
      { range: '[0.5,2]' },
      { range: '[0]' },
      { filter: '"q"' },
      { filter: '{"unknown":1}' },
    ])
      expect(() => parse(query), JSON.stringify(query)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('streamCategory', () => {
  it("is a stream id without its aggregate's own id", () => {
    expect(streamCategory('adoption-3f1b8f0e-9d2c-4c7e-8a55-6c1d2e3f4a5b')).toBe('adoption');
    expect(streamCategory('post-like-3f1b8f0e-9d2c-4c7e-8a55-6c1d2e3f4a5b-u1')).toBe('post-like');
    expect(streamCategory('user-email-sha256:abc')).toBe('user-email');
    expect(streamCategory('standalone')).toBe('standalone');
  });
});
