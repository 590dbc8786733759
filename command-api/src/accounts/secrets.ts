import { hash, verify } from '@node-rs/argon2';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** argon2id with the library's defaults (OWASP-recommended memory cost). */
export const hashPassword = (password: string) => hash(password, { algorithm: 2 /* Argon2id */ });
export const passwordMatches = async (passwordHash: string | null, password: string) =>
  passwordHash ? verify(passwordHash, password).catch(() => false) : false;

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
  sameHash(a: string, b: string): boolean {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }
}
