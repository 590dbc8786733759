import { normalizeEmail } from '../accounts';

/**
 * Events of the user aggregate (stream `user-{userId}`). Shared by the command side that appends them and the
 * projections that read them. Fields marked "v2" are absent from events recorded before registrations were bound
 * to a token and usernames compared by their keys; readers fill them in (command-api accounts/user/state.ts `evolveUser`).
 *
 * Claim streams: `user-email-{email}` holds EmailClaimed (permanent: the address's account stream);
 * `username-key:{key}` holds a username's hold / confirmation / release (UsernameClaimEvent). The older
 * `username-{lower-case name}` streams with UsernameClaimed are history, migrated once at start.
 */
export type IssuedCode = { codeHash: string; expiresAt: string };

/** A sign-up by password waiting for its e-mail code (v2). Only the hash of its secret token is recorded. */
export type PendingRegistration = { registrationId: string; tokenHash: string; expiresAt: string };

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
        /** v2: the keys the username is compared by (and claimed under). */
        usernameKeys?: string[];
        /** v2, via 'password': the pending sign-up. */
        registration?: PendingRegistration;
      };
    }
  /** Signing up again before verifying: a new sign-up replaces the pending one (its token no longer verifies). */
  | {
      type: 'RegistrationRenewed';
      data: {
        username: string;
        passwordHash: string;
        isVeterinarian: boolean;
        /** v2 */
        usernameKeys?: string[];
        /** v2 */
        registration?: PendingRegistration;
        /** v2: the sign-up replaced, and the username keys it held (released by the command side). */
        replaced?: { registrationId: string; usernameKeys: string[] };
        /** v2 */
        renewedAt?: string;
      };
    }
  /** A sign-in with the pending sign-up's password hands out one more token for it (another browser). */
  | { type: 'RegistrationTokenIssued'; data: { registrationId: string; tokenHash: string } }
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
        /**
         * In the session's own stream (`session-{sessionId}`): whose session it is, and the revision of their user
         * stream the sign-in was decided on (a password reset or deletion after it ends the session). Sessions
         * recorded in the user's stream, before sessions had streams of their own, have neither.
         */
        userId?: string;
        userRevision?: number;
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
  | { type: 'ProfileImageRemoved'; data: Record<string, never> }
  /**
   * An administrator deleted the account with all its data: every read model forgets the user, their open sessions
   * end (those in their own streams by this event; older ones, recorded in the user's stream, by SessionRevoked
   * events in the same append), and crypto-shredding destroys their key. Final: the stream
   * accepts nothing after it.
   */
  | { type: 'UserDeleted'; data: { userId: string; deletedBy: string; deletedAt: string } };

export type UserEventType = UserEvent['type'];

/** Every user event type, for projections that follow all of them. */
export const USER_EVENT_TYPES = [
  'UserRegistered',
  'RegistrationRenewed',
  'RegistrationTokenIssued',
  'RegistrationCodeIssued',
  'RegistrationCodeRejected',
  'EmailVerified',
  'GoogleAccountLinked',
  'UnverifiedPasswordDiscarded',
  'SessionStarted',
  'SessionRevoked',
  'PasswordChanged',
  'PasswordResetCodeIssued',
  'PasswordResetCodeRejected',
  'PasswordResetCodeVerified',
  'PasswordReset',
  'ProfileUpdated',
  'ProfileImageChanged',
  'ProfileImageRemoved',
  'UserDeleted',
] as const satisfies readonly UserEventType[];

export type EmailClaimEvent = { type: 'EmailClaimed'; data: { userId: string } };

/**
 * A username key's stream (`username-key:{key}`): held by a pending sign-up until it expires, is released (replaced,
 * failed) or confirmed (verified, Google, admin: permanent).
 */
export type UsernameClaimEvent =
  | {
      type: 'UsernameHeld';
      data: { userId: string; registrationId: string; username: string; expiresAt: string };
    }
  | { type: 'UsernameConfirmed'; data: { userId: string; username: string; migrated?: boolean } }
  | { type: 'UsernameReleased'; data: { userId: string; registrationId: string; reason: string } };

/** The claim of the first version, in `username-{lower-case name}` streams: permanent from sign-up on. */
export type LegacyUsernameClaimEvent = { type: 'UsernameClaimed'; data: { userId: string } };

export type ClaimEvent = EmailClaimEvent | UsernameClaimEvent | LegacyUsernameClaimEvent;

/** The user aggregate's stream: registration, e-mail verification, sessions, password and profile. */
export const userStream = (userId: string) => `user-${userId}`;

/**
 * A sign-in's session (`session-{sessionId}`: SessionStarted, then SessionRevoked at sign-out). Its own stream, so
 * that a user's stream, which every command on the user replays, does not grow with their sign-ins.
 */
export const sessionStream = (sessionId: string) => `session-${sessionId}`;

/** The user id of a `user-{id}` stream. */
export const userIdOfStream = (streamId: string) => streamId.slice('user-'.length);

/**
 * The e-mail claim of an address (`user-email-{address}`, claimed once, names the address's account stream for
 * good); the store keeps it under the address's pseudonym, so the address itself is never in the log.
 */
export const emailClaimStream = (email: string) => `user-email-${normalizeEmail(email)}`;

/** The claim of one username comparison key (`username-key:{key}`); events in UsernameClaimEvent. */
export const usernameClaimStream = (key: string) => `username-key:${key}`;
