import { ACCOUNT_LIMITS, type UserEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { userDecider } from '.';

/** The user's history as the decider unit tests give it: one registration, its code, a session, a reset. */
export const given = deciderSpec(userDecider);
export const now = new Date('2026-11-21T10:00:00.000Z');
export const later = (s: number) => new Date(now.getTime() + s * 1000);
export const iso = (d: Date) => d.toISOString();

export const HOUR = ACCOUNT_LIMITS.registrationSeconds;

export const registered = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    username: 'ayesha',
    email: 'ayesha@gmail.com',
    passwordHash: 'hash-1',
    isVeterinarian: false,
    isAdmin: false,
    via: 'password',
    registeredAt: iso(now),
    usernameKeys: ['ayesha'],
    registration: { registrationId: 'r1', tokenHash: 't1', expiresAt: iso(later(HOUR)) },
  },
} satisfies UserEvent;
/** As the first version recorded it: no keys, no registration token or expiry. */
export const legacyRegistered = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    username: 'ayesha',
    email: 'ayesha@gmail.com',
    passwordHash: 'hash-1',
    isVeterinarian: false,
    isAdmin: false,
    via: 'password',
    registeredAt: iso(now),
  },
} satisfies UserEvent;
export const codeIssued = {
  type: 'RegistrationCodeIssued',
  data: { codeHash: 'c1', expiresAt: iso(later(120)) },
} satisfies UserEvent;
export const verified = { type: 'EmailVerified', data: { verifiedAt: iso(now) } } satisfies UserEvent;
export const session = {
  type: 'SessionStarted',
  data: {
    sessionId: 's1',
    secretHash: 'sh',
    rememberMe: false,
    expiresAt: iso(later(86400)),
    startedAt: iso(now),
  },
} satisfies UserEvent;
export const resetIssued = {
  type: 'PasswordResetCodeIssued',
  data: { codeHash: 'r1', expiresAt: iso(later(600)) },
} satisfies UserEvent;
export const rejected = (attempt: number): UserEvent => ({
  type: 'RegistrationCodeRejected',
  data: { attempt },
});

export const register = {
  type: 'RegisterUser' as const,
  data: {
    userId: 'u1',
    registrationId: 'r1',
    username: 'ayesha',
    usernameKeys: ['ayesha'],
    email: 'ayesha@gmail.com',
    passwordHash: 'hash-1',
    isVeterinarian: false,
    codeHash: 'c1',
    tokenHash: 't1',
    now,
  },
};
export const verify = (codeHash: string, at: Date = now, tokenHash: string | null = 't1') => ({
  type: 'VerifyEmail' as const,
  data: { codeHash, tokenHash, now: at },
});
