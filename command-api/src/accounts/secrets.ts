import { hash, verify } from '@node-rs/argon2';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** argon2id with the library's defaults (OWASP-recommended memory cost). */
export const hashPassword = (password: string) => hash(password, { algorithm: 2 /* Argon2id */ });

/** A hash of nothing anyone knows, made like every real one: what a password is checked against without an account. */
let dummyHash: Promise<string> | undefined;
const passwordlessHash = () => (dummyHash ??= hashPassword(randomBytes(32).toString('base64url')));

/**
 * Whether `password` opens `passwordHash`. Without a hash (no such account, or one that signs in with Google only)
 * the password is still checked, against a hash nobody can match: an answer about an unknown e-mail takes as long
 * as one about a real account, so timing does not tell which addresses have one.
 */
export const passwordMatches = async (passwordHash: string | null, password: string) => {
  const matches = await verify(passwordHash || (await passwordlessHash()), password).catch(() => false);
  return Boolean(passwordHash) && matches;
};

/** One-time codes are six digits, stored only as a keyed hash bound to the user and purpose. */
export class CodeHasher {
  constructor(private readonly key: string) {}
  newCode(): string {
    return randomInt(0, 1_000_000).toString().padStart(6, '0');
  }
  hash(purpose: 'registration' | 'reset', userId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${userId}:${code.trim()}`).digest('hex');
  }
  /** Refresh-session secrets: random, stored hashed. */
  newSessionSecret(): string {
    return randomBytes(32).toString('base64url');
  }
  hashSessionSecret(secret: string): string {
    return createHmac('sha256', this.key).update(`session:${secret}`).digest('hex');
  }
  /**
   * A keyed name for `value` (an e-mail address a counter is kept under, a browser's proof of a past sign-in):
   * stable for this server, meaningless without its secret, so nothing stored names the address.
   */
  keyed(purpose: 'signin-account' | 'trusted-device', value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${value}`).digest('base64url');
  }
  sameHash(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
