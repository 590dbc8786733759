import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatEta,
  prettyJson,
  requestStatusColour,
  truncate,
  weekLabel,
  weekTicks,
} from './format';

describe('admin display helpers', () => {
  it('colours request statuses as the spec says: pending yellow, accepted green, rejected red, others grey', () => {
    expect(requestStatusColour('pending')).toBe('yellow');
    expect(requestStatusColour('accepted')).toBe('green');
    expect(requestStatusColour('rejected')).toBe('red');
    expect(requestStatusColour('withdrawn')).toBe('grey');
    expect(requestStatusColour('closed')).toBe('grey');
  });

  it('truncates long messages by characters, not UTF-16 units', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('a'.repeat(60), 50)).toBe(`${'a'.repeat(50)}...`);
    expect(truncate('🐶'.repeat(5), 3)).toBe('🐶🐶🐶...');
    expect(truncate(null)).toBe('');
  });

  it('writes an ETA in hours, minutes or seconds, and an ellipsis until it is known', () => {
    expect(formatEta(null)).toBe('…');
    expect(formatEta(4.4)).toBe('4 s');
    expect(formatEta(184)).toBe('3 min 4 s');
    expect(formatEta(3720)).toBe('1 h 2 min');
  });

  it('shows counts with separators and "..." while they load', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(undefined)).toBe('...');
  });

  it('pretty-prints event payloads', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson(undefined)).toBe('');
  });
});

describe("the sign-ups chart's axis", () => {
  /** Twelve Mondays, oldest first, as the overview sends them. */
  const weeks = Array.from({ length: 12 }, (_, i) =>
    new Date(Date.UTC(2026, 8, 7 + 7 * i)).toISOString().slice(0, 10),
  );

  it("labels a week by its Monday, short: '3 Nov'", () => {
    expect(weekLabel('2026-11-02')).toBe('2 Nov');
    expect(weekLabel('2026-09-07')).toBe('7 Sep');
  });

  it('labels at most as many weeks as fit, evenly spaced, always the latest', () => {
    expect(weekTicks(weeks, 6)).toEqual(weeks.filter((_, i) => i % 2 === 1));
    expect(weekTicks(weeks, 4)).toEqual([weeks[2], weeks[5], weeks[8], weeks[11]]);
    expect(weekTicks(weeks, 12)).toEqual(weeks);
    expect(weekTicks(weeks.slice(0, 3), 6)).toEqual(weeks.slice(0, 3));
    expect(weekTicks([], 6)).toEqual([]);
  });
});
