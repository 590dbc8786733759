import { createHash } from 'node:crypto';

/**
 * A UUID (version-5 layout: SHA-1, RFC 9562 variant) derived from `name` alone: the same name always gives the same
 * id. Ids already in event logs were made this way (the SHA-1 of the name, with no namespace UUID before it), so this
 * is not `uuid`'s `v5(name, namespace)`, whose hash starts with the namespace's 16 bytes and would give other ids.
 */
export function nameUuid(name: string): string {
  const h = createHash('sha1').update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
