import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { isUuid } from '@pawhaven/contracts';

/**
 * A personal field as stored in the log: `pii:v1:{keyId}:{iv}:{tag}:{ciphertext}` (base64url parts), AES-256-GCM
 * over the field's JSON. Self-describing, so a reader tells an encrypted field from a legacy plaintext one, and
 * finds the key without looking at anything else; the key id is authenticated (AAD), so a ciphertext cannot be
 * passed off under another person's key.
 *
 * An event's several personal fields are sealed together (`sealFields`): `pii:v2:…`, the same parts over a JSON
 * object of the fields' values by path, kept in the first of them; each other one holds `pii:v2:with:{that path}`.
 * Opening costs about the same whatever the size, so an adoption request (name, e-mail, phone, message) is opened
 * once instead of four times: a rebuild opens hundreds of thousands of them.
 *
 * A private conversation's field belongs to both its members (contracts' `members` owner): its key id is the pair
 * `{keyId}+{keyId}` of their keys, and its key is derived from both (`pairKey`), so destroying either one's makes it
 * unreadable.
 */
export const ENVELOPE_PREFIX = 'pii:v1:';
const FIELDS_PREFIX = 'pii:v2:';
const WITH_PREFIX = `${FIELDS_PREFIX}with:`;
const ALGORITHM = 'aes-256-gcm';
export const KEY_BYTES = 32;
const IV_BYTES = 12;
/**
 * A well-formed envelope's parts, still base64url (decoded where it is opened: maybe on another thread); `fields` when
 * it holds several fields by path (`sealFields`); `pair` the two key ids of a key derived from both (`pairKey`).
 */
export type Envelope = {
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
  fields: boolean;
  pair: readonly [string, string] | null;
};

/** The id of the key made from two (`pairKey`): their ids, sorted, so a pair always has the same one. */
export const pairKeyId = (a: string, b: string) => (a < b ? `${a}+${b}` : `${b}+${a}`);

/**
 * The key of a pair (`pairKeyId`), derived from both keys in the id's order and bound to the id: it exists only
 * while both do. HKDF-SHA256's expand step (RFC 5869) with both keys as its pseudorandom key, which they are (random
 * 256-bit keys), so the extract step is not needed: one HMAC, a fifth of what node's hkdfSync costs.
 */
export function pairKey(first: Uint8Array, second: Uint8Array, keyId: string): Buffer {
  return createHmac('sha256', Buffer.concat([first, second]))
    .update(`pawhaven pair key ${keyId}\x01`, 'utf8')
    .digest();
}

/** Whether a field is sealed: an envelope of either kind, or a field sealed with another one (`sealedWith`). */
export const isEnvelope = (value: unknown): value is string =>
  typeof value === 'string' && (value.startsWith(ENVELOPE_PREFIX) || value.startsWith(FIELDS_PREFIX));

/** What an envelope's ciphertext is bound to: its key id, and for several fields their prefix (no relabelling). */
const aadOf = (keyId: string, fields: boolean) =>
  Buffer.from(fields ? `${FIELDS_PREFIX}${keyId}` : keyId, 'utf8');

function seal(prefix: string, key: Buffer, keyId: string, value: unknown): string {
  if (key.length !== KEY_BYTES) throw new Error('a personal-data key is 256 bits');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(aadOf(keyId, prefix === FIELDS_PREFIX));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return `${prefix}${keyId}:${parts.join(':')}`;
}

/** One field's value, sealed. */
export const sealValue = (key: Buffer, keyId: string, value: unknown): string =>
  seal(ENVELOPE_PREFIX, key, keyId, value);

/** Several fields' values (by path) sealed together: stored in the first field, the others `sealedWith` it. */
export const sealFields = (key: Buffer, keyId: string, values: Record<string, unknown>): string =>
  seal(FIELDS_PREFIX, key, keyId, values);

/** What a field sealed together with others holds: where their envelope is. */
export const sealedWith = (path: string): string => `${WITH_PREFIX}${path}`;

/** The path of the field holding this field's envelope (`sealedWith`), or null. */
export const sealedWithPath = (value: unknown): string | null =>
  typeof value === 'string' && value.startsWith(WITH_PREFIX) ? value.slice(WITH_PREFIX.length) : null;

/** The envelope's parts, or null when `value` is not a well-formed envelope. */
export function parseEnvelope(value: unknown): Envelope | null {
  if (typeof value !== 'string') return null;
  const fields = value.startsWith(FIELDS_PREFIX);
  if (!fields && !value.startsWith(ENVELOPE_PREFIX)) return null;
  // indexOf rather than split: a million-event read parses as many envelopes. (Both prefixes are as long.)
  const a = value.indexOf(':', ENVELOPE_PREFIX.length);
  const b = a < 0 ? -1 : value.indexOf(':', a + 1);
  const c = b < 0 ? -1 : value.indexOf(':', b + 1);
  if (c < 0 || value.indexOf(':', c + 1) >= 0) return null;
  const keyId = value.slice(ENVELOPE_PREFIX.length, a);
  const plus = keyId.indexOf('+');
  const envelope: Envelope = {
    keyId,
    iv: value.slice(a + 1, b),
    tag: value.slice(b + 1, c),
    ciphertext: value.slice(c + 1),
    fields,
    pair: plus < 0 ? null : [keyId.slice(0, plus), keyId.slice(plus + 1)],
  };
  if (envelope.iv === '' || envelope.tag === '' || envelope.ciphertext === '') return null;
  // Key ids are uuids: anything else is not ours (and must not reach the key lookup's uuid cast).
  return (envelope.pair ?? [keyId]).every((id) => isUuid(id)) ? envelope : null;
}

/** The sealed value's JSON text; throws if the key is wrong or the envelope was tampered with. */
export function openEnvelopeText(key: Uint8Array, envelope: Envelope): string {
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(envelope.iv, 'base64url'));
  decipher.setAAD(aadOf(envelope.keyId, envelope.fields));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64url'));
  // GCM is a stream mode: final() adds no bytes, only checks the tag (and throws on a mismatch).
  return (
    decipher.update(Buffer.from(envelope.ciphertext, 'base64url'), undefined, 'utf8') + decipher.final('utf8')
  );
}

/** The sealed value; throws if the key is wrong or the envelope was tampered with. */
export const openEnvelope = (key: Uint8Array, envelope: Envelope): unknown =>
  JSON.parse(openEnvelopeText(key, envelope));

export const newDataKey = () => randomBytes(KEY_BYTES);
