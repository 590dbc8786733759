import { ACCOUNT_LIMITS, type UserEvent } from '@pawhaven/contracts';

/**
 * The user aggregate's state and its evolve: what the decisions of the stream `user-{userId}` need to know.
 */
export type CodeState = { codeHash: string; expiresAt: string } & { attempts: number; verified: boolean };

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
  /** Sessions recorded in this stream before sessions had streams of their own (../session); none are added now. */
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
