import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { badRequest, conflict, forbidden, gone, notFound, type DomainError } from '@pawhaven/platform';
import type { CodeState, UserState } from './state';

/** Rules the user's decisions share: expiries, the pending registration's and a code's checks, an active account. */

export const expiresAt = (now: Date, seconds: number) =>
  new Date(now.getTime() + seconds * 1000).toISOString();

/** A pending sign-up past its expiry: it can no longer be verified, and its username is free (after a grace). */
export const registrationLapsed = (state: UserState, now: Date) =>
  state.status === 'pending_verification' &&
  (!state.registration || Date.parse(state.registration.expiresAt) <= now.getTime());

/** Whether the account uses this username key now: verified under it, or its current sign-up has it. */
export const usesUsernameKey = (state: UserState, key: string) =>
  state.status !== 'unregistered' && state.usernameKeys.includes(key);

/** Like usesUsernameKey, but a lapsed sign-up no longer keeps its name. */
export const keepsUsernameKey = (state: UserState, key: string, now: Date) =>
  usesUsernameKey(state, key) && !registrationLapsed(state, now);

/** The pending registration's checks before a code is sent or accepted: not lapsed, and the caller's token. */
export function checkRegistration(state: UserState, now: Date, tokenHash: string | null | undefined) {
  if (registrationLapsed(state, now)) throw gone(ACCOUNT_MESSAGES.registrationExpired);
  if (tokenHash === undefined) return;
  if (tokenHash === null) throw forbidden(ACCOUNT_MESSAGES.registrationTokenMissing);
  if (!state.registration!.tokenHashes.includes(tokenHash))
    throw conflict(ACCOUNT_MESSAGES.registrationReplaced);
}

/** Checks a submitted code; a wrong one is recorded as an event (attempts are limited) and answered 400. */
export function checkCode(
  code: CodeState | null,
  submittedHash: string,
  now: Date,
  missing: string,
): { ok: true } | { ok: false; rejection?: number; error: DomainError } {
  if (!code) return { ok: false, error: badRequest(missing) };
  if (code.attempts >= ACCOUNT_LIMITS.codeMaxAttempts)
    return { ok: false, error: badRequest(ACCOUNT_MESSAGES.codeAttemptsExceeded) };
  if (new Date(code.expiresAt).getTime() <= now.getTime())
    return { ok: false, error: badRequest(ACCOUNT_MESSAGES.codeExpired) };
  if (code.codeHash !== submittedHash)
    return { ok: false, rejection: code.attempts + 1, error: badRequest(ACCOUNT_MESSAGES.codeInvalid) };
  return { ok: true };
}

/** Most commands need a verified account: an unknown one is 404, a sign-up not yet verified 403. */
export const requireActive = (state: UserState) => {
  if (state.status === 'unregistered') throw notFound('User not found');
  if (state.status !== 'active') throw forbidden(ACCOUNT_MESSAGES.emailNotVerified);
};
