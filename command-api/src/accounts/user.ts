import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, type UserEvent } from '@pawhaven/contracts';
import {
  badRequest,
  conflict,
  forbidden,
  gone,
  notFound,
  RefusedWithEvents,
  unauthorized,
  type DomainError,
} from '@pawhaven/platform';

/**
 * The user aggregate, stream `user-{userId}`: registration, e-mail verification, sessions, password and profile.
 * Hashing and token checks are async and happen in the routes; the decider gets their outcome and stays pure.
 *
 * A sign-up by password is a *registration*: an id, the hashes of the secret tokens handed to whoever chose its
 * password, and an expiry (ACCOUNT_LIMITS.registrationSeconds). The mailed code verifies it only together with one
 * of its tokens: a later sign-up of the same address replaces the registration (and its tokens), so the owner of
 * the mailbox can never verify into a password someone else chose, nor can that someone verify without the code.
 */

/** Kept for importers outside command-api (the stream names live in contracts). */
export { userStream } from '@pawhaven/contracts';

export type { UserEvent, UserEventType } from '@pawhaven/contracts';

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
  | {
      type: 'StartSession';
      data: { sessionId: string; secretHash: string; rememberMe: boolean; rememberMeDays: number; now: Date };
    }
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

type CodeState = { codeHash: string; expiresAt: string } & { attempts: number; verified: boolean };

export type Session = { secretHash: string; expiresAt: string; rememberMe: boolean; revoked: boolean };

/** The pending sign-up; `registrationId` is 'legacy' for one made before tokens (no token: sign in first). */
export type Registration = { registrationId: string; tokenHashes: string[]; expiresAt: string };

/** A sign-in from another browser adds a token; the newest few are kept. */
const MAX_REGISTRATION_TOKENS = 5;

export type UserState = {
  /** 'deleted' is final: an administrator removed the account (UserDeleted); nothing is decided on it any more. */
  status: 'unregistered' | 'pending_verification' | 'active' | 'deleted';
  userId: string;
  username: string;
  /** The keys the username is claimed under (username-keys.ts). */
  usernameKeys: string[];
  /** Set while pending_verification. */
  registration: Registration | null;
  email: string;
  passwordHash: string | null;
  isVeterinarian: boolean;
  isAdmin: boolean;
  googleSubject: string | null;
  phone: string;
  city: string;
  about: string;
  profileImage: string | null;
  registeredAt: string;
  lastActive: string | null;
  registrationCode: CodeState | null;
  resetCode: CodeState | null;
  sessions: Record<string, Session>;
};

export const initialUserState = (): UserState => ({
  status: 'unregistered',
  userId: '',
  username: '',
  usernameKeys: [],
  registration: null,
  email: '',
  passwordHash: null,
  isVeterinarian: false,
  isAdmin: false,
  googleSubject: null,
  phone: '',
  city: '',
  about: '',
  profileImage: null,
  registeredAt: '',
  lastActive: null,
  registrationCode: null,
  resetCode: null,
  sessions: {},
});

const addSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      const pending = d.via === 'password';
      return {
        ...state,
        status: pending ? 'pending_verification' : 'active',
        userId: d.userId,
        username: d.username,
        // Events recorded without keys got them at start (username-keys.ts pseudonymiseUsernameKeys).
        usernameKeys: d.usernameKeys ?? [],
        registration: !pending
          ? null
          : d.registration
            ? {
                registrationId: d.registration.registrationId,
                tokenHashes: [d.registration.tokenHash],
                expiresAt: d.registration.expiresAt,
              }
            : // Recorded before registrations had tokens and an expiry.
              {
                registrationId: 'legacy',
                tokenHashes: [],
                expiresAt: addSeconds(d.registeredAt, ACCOUNT_LIMITS.registrationSeconds),
              },
        registrationCode: null,
        email: d.email,
        passwordHash: d.passwordHash,
        isVeterinarian: d.isVeterinarian,
        isAdmin: d.isAdmin,
        googleSubject: d.googleSubject ?? null,
        registeredAt: d.registeredAt,
      };
    }
    case 'RegistrationRenewed': {
      const d = event.data;
      return {
        ...state,
        username: d.username,
        usernameKeys: d.usernameKeys ?? [],
        passwordHash: d.passwordHash,
        isVeterinarian: d.isVeterinarian,
        registration: d.registration
          ? {
              registrationId: d.registration.registrationId,
              tokenHashes: [d.registration.tokenHash],
              expiresAt: d.registration.expiresAt,
            }
          : state.registration,
      };
    }
    case 'RegistrationTokenIssued': {
      const r = state.registration;
      if (!r || r.registrationId !== event.data.registrationId) return state;
      return {
        ...state,
        registration: {
          ...r,
          tokenHashes: [...r.tokenHashes, event.data.tokenHash].slice(-MAX_REGISTRATION_TOKENS),
        },
      };
    }
    case 'RegistrationCodeIssued':
      return { ...state, registrationCode: { ...event.data, attempts: 0, verified: false } };
    case 'RegistrationCodeRejected':
      return state.registrationCode
        ? { ...state, registrationCode: { ...state.registrationCode, attempts: event.data.attempt } }
        : state;
    case 'EmailVerified':
      return { ...state, status: 'active', registrationCode: null, registration: null };
    case 'GoogleAccountLinked':
      return { ...state, googleSubject: event.data.googleSubject };
    case 'UnverifiedPasswordDiscarded':
      return { ...state, passwordHash: null };
    case 'SessionStarted': {
      const { sessionId, secretHash, expiresAt, rememberMe, startedAt } = event.data;
      return {
        ...state,
        lastActive: startedAt,
        sessions: { ...state.sessions, [sessionId]: { secretHash, expiresAt, rememberMe, revoked: false } },
      };
    }
    case 'SessionRevoked': {
      const s = state.sessions[event.data.sessionId];
      return s
        ? { ...state, sessions: { ...state.sessions, [event.data.sessionId]: { ...s, revoked: true } } }
        : state;
    }
    case 'PasswordChanged':
      return { ...state, passwordHash: event.data.passwordHash };
    case 'PasswordResetCodeIssued':
      return { ...state, resetCode: { ...event.data, attempts: 0, verified: false } };
    case 'PasswordResetCodeRejected':
      return state.resetCode
        ? { ...state, resetCode: { ...state.resetCode, attempts: event.data.attempt } }
        : state;
    case 'PasswordResetCodeVerified':
      return state.resetCode ? { ...state, resetCode: { ...state.resetCode, verified: true } } : state;
    case 'PasswordReset':
      // A reset means the old password may be known to someone else: every session ends with it.
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        resetCode: null,
        sessions: Object.fromEntries(
          Object.entries(state.sessions).map(([id, s]) => [id, { ...s, revoked: true }]),
        ),
      };
    case 'ProfileUpdated':
      return { ...state, ...event.data };
    case 'ProfileImageChanged':
      return { ...state, profileImage: event.data.profileImage };
    case 'ProfileImageRemoved':
      return { ...state, profileImage: null };
    case 'UserDeleted':
      return { ...state, status: 'deleted', registration: null, registrationCode: null, resetCode: null };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

const expiresAt = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

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
function checkRegistration(state: UserState, now: Date, tokenHash: string | null | undefined) {
  if (registrationLapsed(state, now)) throw gone(ACCOUNT_MESSAGES.registrationExpired);
  if (tokenHash === undefined) return;
  if (tokenHash === null) throw forbidden(ACCOUNT_MESSAGES.registrationTokenMissing);
  if (!state.registration!.tokenHashes.includes(tokenHash))
    throw conflict(ACCOUNT_MESSAGES.registrationReplaced);
}

/** Checks a submitted code; a wrong one is recorded as an event (attempts are limited) and answered 400. */
function checkCode(
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

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  if (state.status === 'deleted') {
    // A retried deletion, or a sign-out racing it, has nothing left to do; everything else finds no account.
    if (command.type === 'DeleteUser' || command.type === 'RevokeSession') return [];
    if (command.type === 'RegisterUser' || command.type === 'RegisterWithGoogle')
      throw gone(USER_DELETION_MESSAGES.deleted);
    throw notFound(USER_DELETION_MESSAGES.notFound);
  }
  const requireActive = () => {
    if (state.status === 'unregistered') throw notFound('User not found');
    if (state.status !== 'active') throw forbidden(ACCOUNT_MESSAGES.emailNotVerified);
  };
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
    case 'StartSession': {
      requireActive();
      const d = command.data;
      const days = d.rememberMe ? d.rememberMeDays : 1;
      return [
        {
          type: 'SessionStarted',
          data: {
            sessionId: d.sessionId,
            secretHash: d.secretHash,
            rememberMe: d.rememberMe,
            expiresAt: expiresAt(d.now, days * 24 * 3600),
            startedAt: d.now.toISOString(),
          },
        },
      ];
    }
    case 'RevokeSession': {
      const s = state.sessions[command.data.sessionId];
      if (!s || s.revoked) return [];
      return [
        {
          type: 'SessionRevoked',
          data: { sessionId: command.data.sessionId, revokedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'ChangePassword': {
      requireActive();
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
    case 'UpdateProfile': {
      requireActive();
      return [{ type: 'ProfileUpdated', data: command.data }];
    }
    case 'ChangeProfileImage': {
      requireActive();
      return [{ type: 'ProfileImageChanged', data: command.data }];
    }
    case 'RemoveProfileImage': {
      requireActive();
      if (!state.profileImage) return [];
      return [{ type: 'ProfileImageRemoved', data: {} }];
    }
    case 'DeleteUser': {
      if (state.status === 'unregistered') throw notFound(USER_DELETION_MESSAGES.notFound);
      if (state.isAdmin) throw forbidden(USER_DELETION_MESSAGES.adminAccount);
      const at = command.data.now.toISOString();
      // Sessions end in the same append, so a token of the deleted user is refused at once (the session check
      // reads these events); the personal-data key goes when UserDeleted is projected.
      const revoked: UserEvent[] = Object.entries(state.sessions)
        .filter(([, s]) => !s.revoked)
        .map(([sessionId]) => ({ type: 'SessionRevoked', data: { sessionId, revokedAt: at } }));
      return [
        ...revoked,
        {
          type: 'UserDeleted',
          data: { userId: state.userId, deletedBy: command.data.deletedBy, deletedAt: at },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      throw unauthorized();
    }
  }
}

export const userDecider = { initialState: initialUserState, evolve: evolveUser, decide: decideUser };
