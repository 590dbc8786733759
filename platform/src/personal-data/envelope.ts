import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A personal field as stored in the log: `pii:v1:{keyId}:{iv}:{tag}:{ciphertext}` (base64url parts), AES-256-GCM
 * over the field's JSON. Self-describing, so a reader tells an encrypted field from a legacy plaintext one, and
 * finds the key without looking at anything else; the key id is authenticated (AAD), so a ciphertext cannot be
 * passed off under another person's key.
 */
export const ENVELOPE_PREFIX = 'pii:v1:';
const ALGORITHM = 'aes-256-gcm';
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Envelope = { keyId: string; iv: Buffer; tag: Buffer; ciphertext: Buffer };

export const isEnvelope = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(ENVELOPE_PREFIX);

export function sealValue(key: Buffer, keyId: string, value: unknown): string {
  if (key.length !== KEY_BYTES) throw new Error('a personal-data key is 256 bits');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(keyId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return `${ENVELOPE_PREFIX}${keyId}:${parts.join(':')}`;
}

/** The envelope's parts, or null when `value` is not a well-formed envelope. */
export function parseEnvelope(value: unknown): Envelope | null {
  if (!isEnvelope(value)) return null;
  const parts = value.slice(ENVELOPE_PREFIX.length).split(':');
  if (parts.length !== 4 || parts.some((p) => p === '')) return null;
  const [keyId, iv, tag, ciphertext] = parts as [string, string, string, string];
  // Key ids are uuids: anything else is not ours (and must not reach the key lookup's uuid cast).
  if (!UUID.test(keyId)) return null;
  return {
    keyId,
    iv: Buffer.from(iv, 'base64url'),
    tag: Buffer.from(tag, 'base64url'),
    ciphertext: Buffer.from(ciphertext, 'base64url'),
  };
}

/** The sealed value; throws if the key is wrong or the envelope was tampered with. */
export function openEnvelope(key: Buffer, envelope: Envelope): unknown {
  const decipher = createDecipheriv(ALGORITHM, key, envelope.iv);
  decipher.setAAD(Buffer.from(envelope.keyId, 'utf8'));
  decipher.setAuthTag(envelope.tag);
  // GCM is a stream mode: final() adds no bytes, only checks the tag (and throws on a mismatch).
  return JSON.parse(decipher.update(envelope.ciphertext, undefined, 'utf8') + decipher.final('utf8'));
}

export const newDataKey = () => randomBytes(KEY_BYTES);
