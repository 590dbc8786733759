import { describe, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { given, now, later, iso, registered, verified, session, resetIssued } from './user.fixture';

describe('passwords', () => {
  it('changes the password when the current one matches', () =>
    given(registered, verified)
      .when({ type: 'ChangePassword', data: { currentPasswordMatches: true, passwordHash: 'hash-2', now } })
      .then([{ type: 'PasswordChanged', data: { passwordHash: 'hash-2', changedAt: iso(now) } }]));

  it('refuses when the current password is wrong', () =>
    given(registered, verified)
      .when({ type: 'ChangePassword', data: { currentPasswordMatches: false, passwordHash: 'hash-2', now } })
      .thenRefuses(400, ACCOUNT_MESSAGES.currentPasswordWrong));

  it('issues a reset code valid for 10 minutes', () =>
    given(registered, verified)
      .when({ type: 'RequestPasswordReset', data: { codeHash: 'r1', now } })
      .then([resetIssued]));

  it('refuses a reset for an unknown account', () =>
    given()
      .when({ type: 'RequestPasswordReset', data: { codeHash: 'r1', now } })
      .thenRefuses(404, 'No account found with this email'));

  it('verifies a reset code without using it up', () =>
    given(registered, verified, resetIssued)
      .when({ type: 'VerifyResetCode', data: { codeHash: 'r1', now } })
      .then([{ type: 'PasswordResetCodeVerified', data: { verifiedAt: iso(now) } }]));

  it('resets the password with the code', () =>
    given(registered, verified, session, resetIssued)
      .when({ type: 'ResetPassword', data: { codeHash: 'r1', passwordHash: 'hash-3', now } })
      .then([{ type: 'PasswordReset', data: { passwordHash: 'hash-3', resetAt: iso(now) } }]));

  it('a used reset code cannot be used again', () =>
    given(registered, verified, resetIssued, {
      type: 'PasswordReset',
      data: { passwordHash: 'hash-3', resetAt: iso(now) },
    })
      .when({ type: 'ResetPassword', data: { codeHash: 'r1', passwordHash: 'hash-4', now } })
      .thenRefuses(400, 'No reset code was requested for this email'));

  it('a wrong reset code is counted and refused', () =>
    given(registered, verified, resetIssued)
      .when({ type: 'ResetPassword', data: { codeHash: 'x', passwordHash: 'hash-4', now } })
      .thenRefuses(400, ACCOUNT_MESSAGES.codeInvalid, [
        { type: 'PasswordResetCodeRejected', data: { attempt: 1 } },
      ]));

  it('an expired reset code is refused', () =>
    given(registered, verified, resetIssued)
      .when({ type: 'ResetPassword', data: { codeHash: 'r1', passwordHash: 'hash-4', now: later(601) } })
      .thenRefuses(400, ACCOUNT_MESSAGES.codeExpired));
});
