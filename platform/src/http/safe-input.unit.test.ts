import { describe, expect, it } from 'vitest';
import { assertSafeInput, findInputProblem, MAX_INPUT_DEPTH } from './safe-input';

const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('findInputProblem', () => {
  it('accepts objects and arrays nested as deep as the limit', () => {
    expect(findInputProblem(nested(MAX_INPUT_DEPTH))).toBeNull();
  });

  it('refuses one level more, and 100,000 levels without overflowing the stack', () => {
    expect(findInputProblem(nested(MAX_INPUT_DEPTH + 1))).toEqual({ tooDeep: 'a.'.repeat(31) + 'a' });
    expect(findInputProblem(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)))).toMatchObject({
      tooDeep: expect.any(String),
    });
    expect(() => assertSafeInput(nested(100_000), '')).toThrow(/nested too deeply/);
  });

  it('finds unsafe text at any depth up to the limit, the first one in depth-first order', () => {
    expect(findInputProblem(nested(30, 'pet\u0000name'))).toEqual({ unsafe: 'a.'.repeat(29) + 'a' });
    expect(findInputProblem({ x: { y: 'ok', z: 'b\ud800' }, w: '\u0000' })).toEqual({ unsafe: 'x.z' });
    expect(findInputProblem({ ok: 1, ['k\u0000']: 'v' })).toEqual({ unsafe: 'k\u0000' });
  });
});
