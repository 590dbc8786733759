import type { UserEvent } from '@pawhaven/contracts';
import { gone, notFound } from '@pawhaven/platform';
import { USER_DELETION_MESSAGES, type UserCommand } from './commands';
import { decideDeletion } from './deletion';
import { decidePassword } from './password';
import { decideProfile } from './profile';
import { decideRegistration } from './registration';
import { decideSession } from './sessions';
import type { UserState } from './state';

/** The user's decisions, each responsibility in its own module; a deleted account decides nothing more. */
export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (state.status === 'deleted') {
    // A retried deletion, or a sign-out racing it, has nothing left to do; everything else finds no account.
    if (command.type === 'DeleteUser' || command.type === 'RevokeSession') return [];
    if (command.type === 'RegisterUser' || command.type === 'RegisterWithGoogle')
      throw gone(USER_DELETION_MESSAGES.deleted);
    throw notFound(USER_DELETION_MESSAGES.notFound);
  }
  switch (command.type) {
    case 'RegisterUser':
    case 'RegisterWithGoogle':
    case 'BootstrapAdmin':
    case 'IssueRegistrationCode':
    case 'ResumeRegistration':
    case 'VerifyEmail':
    case 'LinkGoogleAccount':
      return decideRegistration(command, state);
    case 'RevokeSession':
      return decideSession(command, state);
    case 'ChangePassword':
    case 'RequestPasswordReset':
    case 'VerifyResetCode':
    case 'ResetPassword':
      return decidePassword(command, state);
    case 'UpdateProfile':
    case 'ChangeProfileImage':
    case 'RemoveProfileImage':
      return decideProfile(command, state);
    case 'DeleteUser':
      return decideDeletion(command, state);
  }
}
