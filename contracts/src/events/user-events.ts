/**
 * Events of the user aggregate (stream `user-{userId}`), version 1. Shared by the command side that appends them
 * and the projections that read them. Claim streams (`user-email-…`, `username-…`) hold EmailClaimed / UsernameClaimed.
 */
export type IssuedCode = { codeHash: string; expiresAt: string };

export type UserEvent =
  | {
      type: 'UserRegistered';
      data: {
        userId: string;
        username: string;
        email: string;
        passwordHash: string | null;
        isVeterinarian: boolean;
        isAdmin: boolean;
        via: 'password' | 'google' | 'bootstrap';
        googleSubject?: string;
        registeredAt: string;
      };
    }
  | { type: 'RegistrationRenewed'; data: { username: string; passwordHash: string; isVeterinarian: boolean } }
  | { type: 'RegistrationCodeIssued'; data: IssuedCode }
  | { type: 'RegistrationCodeRejected'; data: { attempt: number } }
  | { type: 'EmailVerified'; data: { verifiedAt: string } }
  | { type: 'GoogleAccountLinked'; data: { googleSubject: string } }
  /** Google proved the address before the e-mail code did: a password chosen by whoever signed up is dropped. */
  | { type: 'UnverifiedPasswordDiscarded'; data: Record<string, never> }
  | {
      type: 'SessionStarted';
      data: {
        sessionId: string;
        secretHash: string;
        expiresAt: string;
        rememberMe: boolean;
        startedAt: string;
      };
    }
  | { type: 'SessionRevoked'; data: { sessionId: string; revokedAt: string } }
  | { type: 'PasswordChanged'; data: { passwordHash: string; changedAt: string } }
  | { type: 'PasswordResetCodeIssued'; data: IssuedCode }
  | { type: 'PasswordResetCodeRejected'; data: { attempt: number } }
  | { type: 'PasswordResetCodeVerified'; data: { verifiedAt: string } }
  | { type: 'PasswordReset'; data: { passwordHash: string; resetAt: string } }
  | { type: 'ProfileUpdated'; data: { phone: string; city: string; about: string } }
  | { type: 'ProfileImageChanged'; data: { profileImage: string } }
  | { type: 'ProfileImageRemoved'; data: Record<string, never> };

export type UserEventType = UserEvent['type'];

export type ClaimEvent = { type: 'EmailClaimed' | 'UsernameClaimed'; data: { userId: string } };

/** The user id of a `user-{id}` stream. */
export const userIdOfStream = (streamId: string) => streamId.slice('user-'.length);
