import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Pseudonyms } from './pseudonyms';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('pseudonyms (keyed hashes of claims)', () => {
  const p = new Pseudonyms(SECRET);

  it('gives the same value the same pseudonym, another secret another one, and no unsalted digest', () => {
    expect(p.of('zoe@gmail.com')).toMatch(/^hmac:[0-9a-f]{64}$/);
    expect(p.of('zoe@gmail.com')).toBe(new Pseudonyms(SECRET).of('zoe@gmail.com'));
    expect(p.of('zoe@gmail.com')).not.toBe(p.of('zoë@gmail.com'));
    expect(new Pseudonyms(`${SECRET}!`).of('zoe@gmail.com')).not.toBe(p.of('zoe@gmail.com'));
    expect(p.of('zoe@gmail.com')).not.toContain(sha256('zoe@gmail.com'));
    expect(Pseudonyms.is(p.of('x'))).toBe(true);
    expect(Pseudonyms.is('hmac:abc')).toBe(false);
    expect(() => new Pseudonyms('short')).toThrow(/32/);
  });

  it('stores claim streams under pseudonyms and leaves every other stream id as it is', () => {
    expect(p.streamId('user-email-zoe@gmail.com')).toBe(`user-email-${p.of('zoe@gmail.com')}`);
    expect(p.streamId('username-key:zoe q')).toBe(`username-key:${p.of('zoe q')}`);
    // The first version's claims, `username-{lower-case name}`.
    expect(p.streamId('username-zoe q')).toBe(`username-${p.of('zoe q')}`);
    for (const id of [
      'user-3f1b8f0e-9d2c-4c7e-8a55-6c1d2e3f4a5b',
      'conversation-x',
      'migration-username-keys-v1',
    ])
      expect(p.streamId(id)).toBe(id);
    // Idempotent: a pseudonymous id passes unchanged.
    const stored = p.streamId('username-key:zoe q');
    expect(p.streamId(stored)).toBe(stored);
  });

  it("re-keys the previous version's unsalted e-mail claim to the same id the address gets now", () => {
    const email = 'zoe@gmail.com';
    expect(p.streamId(`user-email-sha256:${sha256(email)}`)).toBe(p.streamId(`user-email-${email}`));
  });
});
