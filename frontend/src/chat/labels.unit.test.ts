import { describe, expect, it } from 'vitest';
import { listTime } from './labels';

describe('time labels', () => {
  it('shows list times as a clock today, Yesterday, then a date', () => {
    const now = new Date('2026-03-10T15:00:00');
    expect(listTime('2026-03-10T09:05:00', now)).toBe('9:05 AM');
    expect(listTime('2026-03-09T09:05:00', now)).toBe('Yesterday');
    expect(listTime('2026-01-05T09:05:00', now)).toBe('Jan 5');
    expect(listTime('2025-01-05T09:05:00', now)).toBe('Jan 5, 2025');
    expect(listTime(null, now)).toBe('');
  });
});
