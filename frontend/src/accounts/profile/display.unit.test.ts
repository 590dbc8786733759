import { describe, expect, it } from 'vitest';
import { tokenIsStale } from '../../shared/session-store';
import { mmss } from '../useCountdown';
import { displayUserType, relativeActive } from './display';

describe('profile display helpers', () => {
  it('capitalises userType and derives it when missing', () => {
    expect(
      displayUserType({ userType: 'regular user' as never, isVeterinarian: false, isAdmin: false }),
    ).toBe('Regular User');
    expect(displayUserType({ userType: undefined as never, isVeterinarian: true, isAdmin: false })).toBe(
      'Veterinarian',
    );
    expect(
      displayUserType({ userType: undefined as never, isVeterinarian: undefined as never, isAdmin: false }),
    ).toBe('Standard User');
  });

  it('words the last-active time: under an hour, hours, days, never', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(relativeActive(null, now)).toBe('Never');
    expect(relativeActive('2026-01-10T11:30:00Z', now)).toBe('Less than an hour ago');
    expect(relativeActive('2026-01-10T11:00:00Z', now)).toBe('1 hour ago');
    expect(relativeActive('2026-01-10T07:00:00Z', now)).toBe('5 hours ago');
    expect(relativeActive('2026-01-09T12:00:00Z', now)).toBe('1 day ago');
    expect(relativeActive('2026-01-01T12:00:00Z', now)).toBe('9 days ago');
  });

  it('shows the OTP countdown as mm:ss', () => {
    expect(mmss(120)).toBe('02:00');
    expect(mmss(65)).toBe('01:05');
    expect(mmss(0)).toBe('00:00');
  });

  it('treats a missing or expiring token as stale', () => {
    const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;
    expect(tokenIsStale(null)).toBe(true);
    expect(tokenIsStale(jwt(Math.floor(Date.now() / 1000) + 600))).toBe(false);
    expect(tokenIsStale(jwt(Math.floor(Date.now() / 1000) + 5))).toBe(true);
    expect(tokenIsStale('opaque')).toBe(false);
  });
});
