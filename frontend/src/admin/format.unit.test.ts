import { describe, expect, it } from 'vitest';
import { formatCount, formatEta, prettyJson, requestStatusColour, truncate } from './format';

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
