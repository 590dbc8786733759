export type UserCommand =
  | {
      type: 'RegisterUser';
      data: {
        userId: string;
        registrationId: string;
        username: string;
        usernameKeys: string[];
        email: string;
        passwordHash: string;
        isVeterinarian: boolean;
        codeHash: string;
        /** Hash of the secret token answered to the registrant. */
        tokenHash: string;
        now: Date;
      };
    }
  | {
      type: 'RegisterWithGoogle';
      data: {
        userId: string;
        username: string;
        usernameKeys: string[];
        email: string;
        googleSubject: string;
        isVeterinarian: boolean;
        now: Date;
      };
    }
  | {
      type: 'BootstrapAdmin';
      data: {
        userId: string;
        username: string;
        usernameKeys: string[];
        email: string;
        passwordHash: string;
        now: Date;
      };
    }
  /** Resend: `tokenHash` when the caller sent a token (then it must be one of the current registration's). */
  | { type: 'IssueRegistrationCode'; data: { codeHash: string; now: Date; tokenHash?: string } }
  /** A sign-in with the pending registration's password: one more token for it, and a new code. */
  | { type: 'ResumeRegistration'; data: { codeHash: string; tokenHash: string; now: Date } }
  | { type: 'VerifyEmail'; data: { codeHash: string; tokenHash: string | null; now: Date } }
  | { type: 'LinkGoogleAccount'; data: { googleSubject: string; now: Date } }
  /** The sign-out of a session recorded in this stream, before sessions had streams of their own (../session). */
  | { type: 'RevokeSession'; data: { sessionId: string; now: Date } }
  | { type: 'ChangePassword'; data: { currentPasswordMatches: boolean; passwordHash: string; now: Date } }
  | { type: 'RequestPasswordReset'; data: { codeHash: string; now: Date } }
  | { type: 'VerifyResetCode'; data: { codeHash: string; now: Date } }
  | { type: 'ResetPassword'; data: { codeHash: string; passwordHash: string; now: Date } }
  | { type: 'UpdateProfile'; data: { phone: string; city: string; about: string } }
  | { type: 'ChangeProfileImage'; data: { profileImage: string } }
  | { type: 'RemoveProfileImage'; data: Record<string, never> }
  /** An administrator deletes the account with all its data (admin/routes.ts). */
  | { type: 'DeleteUser'; data: { deletedBy: string; now: Date } };

/** Refusals of DeleteUser: an administrator's account is not deleted from the dashboard, their own included. */
export const USER_DELETION_MESSAGES = {
  notFound: 'User not found',
  adminAccount: 'Administrator accounts cannot be deleted from the dashboard',
  deleted: 'This account was deleted',
} as const;
