import { describe, expect, it } from 'vitest';
import { toggleOpen } from './faq';

describe('FAQ one-open rule', () => {
  it('opens a question when none is open', () => {
    expect(toggleOpen(null, 'a')).toBe('a');
  });

  it('closes the open question when it is clicked again', () => {
    expect(toggleOpen('a', 'a')).toBeNull();
  });

  it('opening another question closes the first: only one is open', () => {
    let open: string | null = null;
    open = toggleOpen(open, 'a');
    open = toggleOpen(open, 'b');
    expect(open).toBe('b');
    open = toggleOpen(open, 'c');
    expect(open).toBe('c');
    open = toggleOpen(open, 'c');
    expect(open).toBeNull();
  });
});
