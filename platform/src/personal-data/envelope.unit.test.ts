import { describe, expect, it } from 'vitest';
import {
  isEnvelope,
  newDataKey,
  openEnvelope,
  pairKey,
  pairKeyId,
  parseEnvelope,
  sealedWith,
  sealedWithPath,
  sealFields,
  sealValue,
} from './envelope';

const KEY_ID = '6f1c1c8e-3f5e-4a65-9d0c-1f2e3d4c5b6a';

describe('personal-data envelope', () => {
  it('seals any JSON value and opens it again with the same key', () => {
    const key = newDataKey();
    for (const value of ['aisha@gmail.com', '+92 300 1234567', 'ümlaut ✓ 🐶', '', 42, ['a'], { a: 1 }]) {
      const sealed = sealValue(key, KEY_ID, value);
      expect(sealed.startsWith(`pii:v1:${KEY_ID}:`)).toBe(true);
      expect(isEnvelope(sealed)).toBe(true);
      expect(openEnvelope(key, parseEnvelope(sealed)!)).toEqual(value);
    }
  });

  it('never shows the plaintext and never repeats a ciphertext (fresh IV each time)', () => {
    const key = newDataKey();
    const a = sealValue(key, KEY_ID, 'aisha@gmail.com');
    const b = sealValue(key, KEY_ID, 'aisha@gmail.com');
    expect(a).not.toBe(b);
    expect(a).not.toContain('aisha');
    expect(Buffer.from(a.split(':').pop()!, 'base64url').toString('utf8')).not.toContain('aisha');
  });

  it('refuses another key, a changed ciphertext or a key id swapped in (authenticated)', () => {
    const key = newDataKey();
    const sealed = sealValue(key, KEY_ID, 'secret text');
    expect(() => openEnvelope(newDataKey(), parseEnvelope(sealed)!)).toThrow();
    const parts = sealed.split(':');
    const ct = Buffer.from(parts[5]!, 'base64url');
    ct[0] = ct[0]! ^ 1;
    parts[5] = ct.toString('base64url');
    expect(() => openEnvelope(key, parseEnvelope(parts.join(':'))!)).toThrow();
    const otherId = sealed.replace(KEY_ID, '00000000-0000-4000-8000-000000000000');
    expect(() => openEnvelope(key, parseEnvelope(otherId)!)).toThrow();
  });

  it('seals several fields together, bound to their kind: neither kind passes for the other', () => {
    const key = newDataKey();
    const values = { name: 'Aisha', 'details.location': 'Lahore' };
    const together = sealFields(key, KEY_ID, values);
    expect(together.startsWith(`pii:v2:${KEY_ID}:`)).toBe(true);
    expect(together).not.toContain('Lahore');
    expect(parseEnvelope(together)).toMatchObject({ keyId: KEY_ID, fields: true });
    expect(openEnvelope(key, parseEnvelope(together)!)).toEqual(values);
    const one = sealValue(key, KEY_ID, values);
    expect(parseEnvelope(one)).toMatchObject({ fields: false });
    expect(() => openEnvelope(key, parseEnvelope(together.replace('pii:v2:', 'pii:v1:'))!)).toThrow();
    expect(() => openEnvelope(key, parseEnvelope(one.replace('pii:v1:', 'pii:v2:'))!)).toThrow();
    // The other fields say where their values are sealed; they are sealed, not plaintext, and not an envelope.
    expect(sealedWith('name')).toBe('pii:v2:with:name');
    expect(sealedWithPath(sealedWith('details.location'))).toBe('details.location');
    expect(sealedWithPath('name')).toBeNull();
    expect(isEnvelope(sealedWith('name'))).toBe(true);
    expect(parseEnvelope(sealedWith('name'))).toBeNull();
  });

  it('tells legacy plaintext from an envelope', () => {
    expect(isEnvelope('aisha@gmail.com')).toBe(false);
    expect(isEnvelope(null)).toBe(false);
    expect(parseEnvelope('hello')).toBeNull();
    expect(parseEnvelope('pii:v1:only-two:parts')).toBeNull();
    expect(parseEnvelope('pii:v1:not-a-uuid:aaaa:bbbb:cccc')).toBeNull();
  });

  it("seals a pair's field under a key made from both keys, bound to both ids", () => {
    const OTHER_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const [mine, theirs] = [newDataKey(), newDataKey()];
    const id = pairKeyId(KEY_ID, OTHER_ID);
    expect(id).toBe(pairKeyId(OTHER_ID, KEY_ID));
    expect(id).toBe(`${OTHER_ID}+${KEY_ID}`);
    const key = pairKey(theirs, mine, id);
    const sealed = sealValue(key, id, 'Come at six');
    const envelope = parseEnvelope(sealed)!;
    expect(envelope.pair).toEqual([OTHER_ID, KEY_ID]);
    expect(openEnvelope(pairKey(theirs, mine, id), envelope)).toBe('Come at six');
    // Neither key alone, nor the pair in the other order, nor another pair's id opens it.
    for (const wrong of [
      mine,
      theirs,
      pairKey(mine, theirs, id),
      pairKey(theirs, mine, `${KEY_ID}+${OTHER_ID}`),
    ])
      expect(() => openEnvelope(wrong, envelope)).toThrow();
    expect(parseEnvelope(sealed.replace(OTHER_ID, 'not-a-uuid'))).toBeNull();
    expect(parseEnvelope(sealValue(mine, KEY_ID, 'x'))!.pair).toBeNull();
  });

  it('accepts 256-bit keys only', () => {
    expect(newDataKey()).toHaveLength(32);
    expect(() => sealValue(Buffer.alloc(16), KEY_ID, 'x')).toThrow(/256 bits/);
  });
});
