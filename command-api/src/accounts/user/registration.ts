import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, type UserEvent } from '@pawhaven/contracts';
import { conflict, gone, notFound, RefusedWithEvents } from '@pawhaven/platform';
import type { UserCommand } from './commands';
import { expiresAt, registrationLapsed, checkRegistration, checkCode } from './rules';
import type { UserState } from './state';

export type RegistrationCommand = Extract<
  UserCommand,
  {
    type:
      | 'RegisterUser'
      | 'RegisterWithGoogle'
      | 'BootstrapAdmin'
      | 'IssueRegistrationCode'
      | 'ResumeRegistration'
      | 'VerifyEmail'
      | 'LinkGoogleAccount';
  }
>;

/**
 * Signing up (by password, with Google, the bootstrap administrator) and verifying the address: the registration,
 * its tokens and its code.
 */
export function decideRegistration(command: RegistrationCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser': {
      const d = command.data;
      if (state.status === 'active') throw conflict(ACCOUNT_MESSAGES.emailTaken);
      const code: UserEvent = {
        type: 'RegistrationCodeIssued',
        data: { codeHash: d.codeHash, expiresAt: expiresAt(d.now, ACCOUNT_LIMITS.otpSeconds) },
      };
      const registration = {
        registrationId: d.registrationId,
        tokenHash: d.tokenHash,
        expiresAt: expiresAt(d.now, ACCOUNT_LIMITS.registrationSeconds),
      };
      if (state.status === 'pending_verification') {
        // Signing up again before verifying replaces the pending sign-up: new details, a fresh code, and a new
        // token, so the code can only verify it for whoever made this sign-up.
        return [
          {
            type: 'RegistrationRenewed',
            data: {
              username: d.username,
              passwordHash: d.passwordHash,
              isVeterinarian: d.isVeterinarian,
              usernameKeys: d.usernameKeys,
              registration,
              replaced: {
                registrationId: state.registration?.registrationId ?? 'legacy',
                usernameKeys: state.usernameKeys,
              },
              renewedAt: d.now.toISOString(),
            },
          },
          code,
        ];
      }
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: d.userId,
            username: d.username,
            email: d.email,
            passwordHash: d.passwordHash,
            isVeterinarian: d.isVeterinarian,
            isAdmin: false,
            via: 'password',
            registeredAt: d.now.toISOString(),
            usernameKeys: d.usernameKeys,
            registration,
          },
        },
        code,
      ];
    }
    case 'RegisterWithGoogle': {
      const d = command.data;
      // A lapsed sign-up of the address is no account: Google's proven sign-up takes its place.
      if (
        state.status === 'active' ||
        (state.status === 'pending_verification' && !registrationLapsed(state, d.now))
      )
        throw conflict(ACCOUNT_MESSAGES.emailTaken);
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: d.userId,
            username: d.username,
            usernameKeys: d.usernameKeys,
            email: d.email,
            passwordHash: null,
            isVeterinarian: d.isVeterinarian,
            isAdmin: false,
            via: 'google',
            googleSubject: d.googleSubject,
            registeredAt: d.now.toISOString(),
          },
        },
      ];
    }
    case 'BootstrapAdmin': {
      const d = command.data;
      if (state.status !== 'unregistered') return [];
      return [
        {
          type: 'UserRegistered',
          data: {
            userId: d.userId,
            username: d.username,
            usernameKeys: d.usernameKeys,
            email: d.email,
            passwordHash: d.passwordHash,
            isVeterinarian: false,
            isAdmin: true,
            via: 'bootstrap',
            registeredAt: d.now.toISOString(),
          },
        },
      ];
    }
    case 'IssueRegistrationCode': {
      if (state.status === 'unregistered') throw notFound(ACCOUNT_MESSAGES.noPendingVerification);
      if (state.status === 'active') throw conflict(ACCOUNT_MESSAGES.alreadyVerified);
      checkRegistration(state, command.data.now, command.data.tokenHash);
      return [
        {
          type: 'RegistrationCodeIssued',
          data: {
            codeHash: command.data.codeHash,
            expiresAt: expiresAt(command.data.now, ACCOUNT_LIMITS.otpSeconds),
          },
        },
      ];
    }
    case 'ResumeRegistration': {
      if (state.status === 'unregistered') throw notFound(ACCOUNT_MESSAGES.noPendingVerification);
      if (state.status === 'active') throw conflict(ACCOUNT_MESSAGES.alreadyVerified);
      checkRegistration(state, command.data.now, undefined);
      return [
        {
          type: 'RegistrationTokenIssued',
          data: { registrationId: state.registration!.registrationId, tokenHash: command.data.tokenHash },
        },
        {
          type: 'RegistrationCodeIssued',
          data: {
            codeHash: command.data.codeHash,
            expiresAt: expiresAt(command.data.now, ACCOUNT_LIMITS.otpSeconds),
          },
        },
      ];
    }
    case 'VerifyEmail': {
      if (state.status === 'unregistered') throw notFound(ACCOUNT_MESSAGES.noPendingVerification);
      if (state.status === 'active') throw conflict(ACCOUNT_MESSAGES.alreadyVerified);
      // Before the code: a caller without this sign-up's token learns nothing and uses up no attempt.
      checkRegistration(state, command.data.now, command.data.tokenHash);
      const check = checkCode(
        state.registrationCode,
        command.data.codeHash,
        command.data.now,
        ACCOUNT_MESSAGES.noPendingVerification,
      );
      if (!check.ok) {
        if (check.rejection)
          throw new RefusedWithEvents(
            [{ type: 'RegistrationCodeRejected', data: { attempt: check.rejection } }],
            check.error,
          );
        throw check.error;
      }
      return [{ type: 'EmailVerified', data: { verifiedAt: command.data.now.toISOString() } }];
    }
    case 'LinkGoogleAccount': {
      if (state.status === 'unregistered') throw notFound('User not found');
      // A lapsed sign-up's username may be someone else's by now: the route registers with Google instead.
      if (registrationLapsed(state, command.data.now)) throw gone(ACCOUNT_MESSAGES.registrationExpired);
      const events: UserEvent[] = [];
      if (state.googleSubject !== command.data.googleSubject)
        events.push({ type: 'GoogleAccountLinked', data: { googleSubject: command.data.googleSubject } });
      // Google has proven the address, which is all e-mail verification asks. A password set by an unverified
      // sign-up may belong to someone else who typed this address: it must not open the proven account.
      if (state.status === 'pending_verification') {
        if (state.passwordHash) events.push({ type: 'UnverifiedPasswordDiscarded', data: {} });
        events.push({ type: 'EmailVerified', data: { verifiedAt: command.data.now.toISOString() } });
      }
      return events;
    }
  }
}
