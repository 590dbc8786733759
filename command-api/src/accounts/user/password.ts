import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, type UserEvent } from '@pawhaven/contracts';
import { badRequest, notFound, RefusedWithEvents } from '@pawhaven/platform';
import type { UserCommand } from './commands';
import { expiresAt, registrationLapsed, checkCode, requireActive } from './rules';
import type { UserState } from './state';

export type PasswordCommand = Extract<
  UserCommand,
  { type: 'ChangePassword' | 'RequestPasswordReset' | 'VerifyResetCode' | 'ResetPassword' }
>;

/**
 * The password: changed with the current one, or reset with a mailed code (a reset ends every session).
 */
export function decidePassword(command: PasswordCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'ChangePassword': {
      requireActive(state);
      if (!state.passwordHash)
        throw badRequest('This account signs in with Google and has no password to change');
      if (!command.data.currentPasswordMatches) throw badRequest(ACCOUNT_MESSAGES.currentPasswordWrong);
      return [
        {
          type: 'PasswordChanged',
          data: { passwordHash: command.data.passwordHash, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'RequestPasswordReset': {
      // A lapsed sign-up is no account (a reset would verify it under a username that may be someone else's).
      if (state.status === 'unregistered' || registrationLapsed(state, command.data.now))
        throw notFound('No account found with this email');
      return [
        {
          type: 'PasswordResetCodeIssued',
          data: {
            codeHash: command.data.codeHash,
            expiresAt: expiresAt(command.data.now, ACCOUNT_LIMITS.resetCodeSeconds),
          },
        },
      ];
    }
    case 'VerifyResetCode':
    case 'ResetPassword': {
      if (state.status === 'unregistered' || registrationLapsed(state, command.data.now))
        throw notFound('No account found with this email');
      const check = checkCode(
        state.resetCode,
        command.data.codeHash,
        command.data.now,
        'No reset code was requested for this email',
      );
      if (!check.ok) {
        if (check.rejection)
          throw new RefusedWithEvents(
            [{ type: 'PasswordResetCodeRejected', data: { attempt: check.rejection } }],
            check.error,
          );
        throw check.error;
      }
      const now = command.data.now.toISOString();
      if (command.type === 'VerifyResetCode')
        return [{ type: 'PasswordResetCodeVerified', data: { verifiedAt: now } }];
      const events: UserEvent[] = [
        { type: 'PasswordReset', data: { passwordHash: command.data.passwordHash, resetAt: now } },
      ];
      // The code reached the mailbox, which proves the address too.
      if (state.status === 'pending_verification')
        events.unshift({ type: 'EmailVerified', data: { verifiedAt: now } });
      return events;
    }
  }
}
