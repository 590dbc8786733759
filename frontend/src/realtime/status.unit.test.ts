import { describe, expect, it } from 'vitest';
import { deriveStatus, isAuthRefusal, type ConnectionFacts } from './status';

const facts = (over: Partial<ConnectionFacts>): ConnectionFacts => ({
  browserOnline: true,
  phase: 'connecting',
  backend: 'unknown',
  wasConnected: false,
  ...over,
});

describe('real-time status', () => {
  it("is 'realtime' while connected, unless the browser is offline", () => {
    expect(deriveStatus(facts({ phase: 'connected', backend: 'up' }))).toBe('realtime');
    expect(deriveStatus(facts({ phase: 'connected', browserOnline: false }))).toBe('offline');
  });

  it("is 'polling' when not connected while the API answers", () => {
    expect(deriveStatus(facts({ phase: 'connecting' }))).toBe('polling');
    expect(deriveStatus(facts({ phase: 'down', backend: 'up' }))).toBe('polling');
    expect(deriveStatus(facts({ phase: 'down', backend: 'unknown' }))).toBe('polling');
  });

  it("is 'offline' when the browser is offline or the health check failed", () => {
    expect(deriveStatus(facts({ phase: 'down', browserOnline: false }))).toBe('offline');
    expect(deriveStatus(facts({ phase: 'down', backend: 'down' }))).toBe('offline');
    expect(deriveStatus(facts({ phase: 'connecting', backend: 'down', wasConnected: true }))).toBe('offline');
  });

  it('keeps Real-time during a short reconnection, until the fallback delay or an error', () => {
    expect(deriveStatus(facts({ phase: 'connecting', wasConnected: true, backend: 'up' }))).toBe('realtime');
    expect(deriveStatus(facts({ phase: 'down', wasConnected: true, backend: 'up' }))).toBe('polling');
  });

  it('knows the handshake refusals a renewed token can cure', () => {
    expect(isAuthRefusal('Authentication required')).toBe(true);
    expect(isAuthRefusal('Your session has ended. Please sign in again.')).toBe(true);
    expect(isAuthRefusal('xhr poll error')).toBe(false);
  });
});
