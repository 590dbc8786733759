import { createHash, randomBytes } from 'node:crypto';

/**
 * The secret that binds a pending sign-up to whoever chose its password: answered by /register (and by a sign-in
 * with that password), kept by the browser, sent with the mailed code. 256 random bits, so a plain SHA-256 is
 * all the stored hash needs; the token itself is never recorded.
 */
export const newRegistrationToken = () => randomBytes(32).toString('base64url');
export const hashRegistrationToken = (token: string) =>
  createHash('sha256').update(`registration-token:${token}`).digest('hex');
