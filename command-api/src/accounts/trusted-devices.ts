import type { Request, Response } from 'express';
import { normalizeEmail } from '@pawhaven/contracts';
import type { Config } from '@pawhaven/platform';
import type { CodeHasher } from './secrets';

const DEVICE_COOKIE = 'ph_device';
/** A browser shared by a family keeps the proofs of its last few accounts. */
const KEPT_PROOFS = 5;
const DEVICE_DAYS = 180;

/**
 * Browsers that have signed into an account before. After a successful sign-in the browser keeps an httpOnly
 * cookie holding a keyed proof of that account (nothing readable: an HMAC of the account's keyed e-mail), and
 * its later attempts are not charged to the account's budget of failures, only to their address's. So someone
 * guessing an account's password from many addresses can lock it for new browsers (for one window at most, and a
 * password reset lifts it), but never the owner's own browsers.
 */
export function trustedDevices(codes: CodeHasher, config: Pick<Config, 'NODE_ENV'>) {
  const accountKey = (email: string) => codes.keyed('signin-account', normalizeEmail(email));
  const proofOf = (account: string) => codes.keyed('trusted-device', account);
  const proofsOf = (req: Request) =>
    ((req.cookies as Record<string, string> | undefined)?.[DEVICE_COOKIE] ?? '')
      .split('.')
      .filter(Boolean)
      .slice(0, KEPT_PROOFS);

  return {
    accountKey,

    /** The account a sign-in attempt is charged to: the typed e-mail's key, or null for a trusted browser. */
    accountOf(req: Request): string | null {
      const email = (req.body as { email?: unknown } | undefined)?.email;
      if (typeof email !== 'string' || email.trim() === '') return null;
      const account = accountKey(email);
      const proof = proofOf(account);
      return proofsOf(req).some((p) => codes.sameHash(p, proof)) ? null : account;
    },

    /** After a successful sign-in: this browser is trusted for the account from now on. */
    remember(req: Request, res: Response, email: string) {
      const proof = proofOf(accountKey(email));
      const proofs = [proof, ...proofsOf(req).filter((p) => p !== proof)].slice(0, KEPT_PROOFS);
      res.cookie(DEVICE_COOKIE, proofs.join('.'), {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.NODE_ENV === 'production',
        path: '/api/auth',
        maxAge: DEVICE_DAYS * 24 * 3600 * 1000,
      });
    },
  };
}
