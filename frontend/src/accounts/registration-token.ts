import { normalizeEmail } from '@pawhaven/contracts';
import { safeGet, safeRemove, safeSet } from '../shared/storage';

/**
 * The registration token of a pending sign-up (answered by sign-up, or by a sign-in before verifying), kept for
 * this tab only and per address. The mailed code verifies the sign-up only together with it. Never a password.
 */
const key = (email: string) => `registrationToken:${normalizeEmail(email)}`;

export const registrationTokens = {
  read: (email: string): string | undefined => safeGet(sessionStorage, key(email)) ?? undefined,
  save(email: string, token: unknown) {
    if (typeof token === 'string' && token) safeSet(sessionStorage, key(email), token);
  },
  clear: (email: string) => safeRemove(sessionStorage, key(email)),
};
