import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import {
  ACCOUNT_LIMITS,
  emailClaimStream,
  invalidDomainEmailMessage,
  isAcceptedEmail,
  passwordProblem,
  sessionStream,
  userStream,
} from '@pawhaven/contracts';
import {
  badRequest,
  currentUserId,
  forbidden,
  handleCommand,
  loadState,
  logger,
  type EventMetadata,
} from '@pawhaven/platform';
import type { CommandDeps } from '../../deps';
import { rateLimits, signInAttempts } from '../../http/rate-limits';
import { claimOwner, confirmVerifiedUsername, releaseUsername } from '../claims';
import { sessionDecider, type SessionCommand } from '../session';
import { trustedDevices } from '../trusted-devices';
import { userDecider, type UserCommand, type UserState } from '../user';
import { userDto } from '../user-dto';

/** The refresh session's cookie (httpOnly, path /api/auth). */
export const SESSION_COOKIE = 'ph_session';

/**
 * What the account routes share: the user stream's commands, finding an account by its address, the mails, the
 * session cookie and the sign-in that starts a session. Built once per app (accountRoutes); each group of routes
 * (registration, sessions, google, password, profile) takes what it needs.
 */
export function accountsContext(deps: CommandDeps) {
  const { config, store, codes, mailer, tokens } = deps;
  const now = deps.now ?? (() => new Date());
  const limits = rateLimits(deps);
  // Sign-ins count their failures only: per address, and per account unless the browser signed into it before.
  const devices = trustedDevices(codes, config);
  const signinAttempts = signInAttempts(deps, (req) => devices.accountOf(req));
  // A Google credential is signed, not guessed: its failures count per address only.
  const googleAttempts = signInAttempts(deps, () => null);

  const run = (userId: string, command: UserCommand | ((s: UserState) => UserCommand), actorId = userId) =>
    handleCommand(store, userStream(userId), userDecider, command, { actorId } satisfies EventMetadata);

  const runSession = (sessionId: string, command: SessionCommand, actorId: string) =>
    handleCommand(store, sessionStream(sessionId), sessionDecider, command, {
      actorId,
    } satisfies EventMetadata);

  /** The account an address names, with the revision of its stream it was read at (a sign-in records it). */
  const findByEmail = async (email: string): Promise<Account | null> => {
    const userId = await claimOwner(store, emailClaimStream(email));
    if (!userId) return null;
    const { state, revision } = await loadState(store, userStream(userId), userDecider);
    // A deleted account is no account: its address signs into nothing.
    return state.status === 'unregistered' || state.status === 'deleted' ? null : { ...state, revision };
  };

  const requireAcceptedEmail = (
    email: string,
    message = invalidDomainEmailMessage(config.ACCEPTED_EMAIL_DOMAIN),
  ) => {
    if (!isAcceptedEmail(email, config.ACCEPTED_EMAIL_DOMAIN)) throw badRequest(message);
  };

  const requireStrongPassword = (password: string) => {
    const problem = passwordProblem(password);
    if (problem) throw badRequest(problem);
  };

  const sendRegistrationCode = (email: string, code: string) =>
    mailer.send({
      to: email,
      subject: 'Your PawHaven verification code',
      text: `Welcome to PawHaven!\n\nYour verification code is ${code}. It is valid for ${ACCOUNT_LIMITS.otpSeconds / 60} minutes.\n\nIf you did not sign up, you can ignore this e-mail.`,
    });

  /** A sign-up of an address that has an account: its owner hears of it, the caller is answered as for any sign-up. */
  const sendAccountExists = (email: string) =>
    mailer.send({
      to: email,
      subject: 'Someone tried to sign up with your PawHaven email',
      text: `Someone tried to create a PawHaven account with this address, which already has one. Nothing was changed.\n\nIf it was you, sign in instead, or use "Forgot Password?" on the sign-in page if you do not remember your password.\n\nIf it was not you, you can ignore this e-mail.`,
    });

  /** The log's newest position: what an answer that appended nothing hands back where others hand their own. */
  const headPosition = async () => {
    const row = await deps.db.knex('events').max<{ max: string | null }>('position as max').first();
    return String(row?.max ?? 0);
  };

  const sendResetCode = (email: string, code: string) =>
    mailer.send({
      to: email,
      subject: 'Your PawHaven password reset code',
      text: `Your password reset code is ${code}. It is valid for ${ACCOUNT_LIMITS.resetCodeSeconds / 60} minutes.\n\nIf you did not ask to reset your password, you can ignore this e-mail.`,
    });

  /**
   * Starts a refresh session (httpOnly cookie) in a stream of its own and answers with a short-lived access token
   * and the user. The session names the revision of the user's stream it was decided on: a password reset or the
   * account's deletion recorded after that revision ends it, even one that lands while this sign-in is under way.
   */
  const signIn = async (
    req: Request,
    res: Response,
    account: Account,
    rememberMe: boolean,
    message?: string,
  ) => {
    const { revision: userRevision, ...state } = account;
    const sessionId = randomUUID();
    const secret = codes.newSessionSecret();
    const startedAt = now();
    const result = await runSession(
      sessionId,
      {
        type: 'StartSession',
        data: {
          user: state,
          userRevision,
          sessionId,
          secretHash: codes.hashSessionSecret(secret),
          rememberMe,
          rememberMeDays: config.REMEMBER_ME_DAYS,
          now: startedAt,
        },
      },
      state.userId,
    );
    res.cookie(SESSION_COOKIE, `${state.userId}.${sessionId}.${secret}`, {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.NODE_ENV === 'production',
      path: '/api/auth',
      // Without remember-me the cookie ends with the browser session.
      ...(rememberMe ? { maxAge: config.REMEMBER_ME_DAYS * 24 * 3600 * 1000 } : {}),
    });
    devices.remember(req, res, state.email);
    const token = await tokens.sign({ userId: state.userId, sessionId, isAdmin: state.isAdmin });
    res.json({
      token,
      user: userDto({ ...state, lastActive: startedAt.toISOString() }),
      position: String(result.position),
      ...(message ? { message } : {}),
    });
  };

  const readSessionCookie = (req: Request) => {
    const raw = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    const [userId, sessionId, secret] = raw?.split('.') ?? [];
    return userId && sessionId && secret ? { userId, sessionId, secret } : null;
  };

  /** Releases a sign-up's username hold; a failure only leaves the hold to expire, so it is logged, not shown. */
  const releaseQuietly = (r: Parameters<typeof releaseUsername>[1]) =>
    releaseUsername(store, r).catch((err: unknown) =>
      logger.error({ err, userId: r.userId }, 'releasing a username hold failed'),
    );

  /** The username of a pending account is its own for good once the address is proven. */
  const confirmIfVerified = async (state: UserState) => {
    if (state.status === 'active')
      await confirmVerifiedUsername(store, {
        userId: state.userId,
        username: state.username,
        keys: state.usernameKeys,
      });
  };

  /** The body's `id` (the spec sends one) must be the signed-in user's own. */
  const ownId = (req: Request, bodyId: string | undefined) => {
    const userId = currentUserId(req);
    if (bodyId && bodyId !== userId) throw forbidden('You can only change your own account');
    return userId;
  };

  return {
    deps,
    config,
    store,
    codes,
    tokens,
    now,
    limits,
    devices,
    signinAttempts,
    googleAttempts,
    run,
    runSession,
    findByEmail,
    requireAcceptedEmail,
    requireStrongPassword,
    sendRegistrationCode,
    sendAccountExists,
    headPosition,
    sendResetCode,
    signIn,
    readSessionCookie,
    releaseQuietly,
    confirmIfVerified,
    ownId,
  };
}

export type AccountsContext = ReturnType<typeof accountsContext>;

/** A user's state with the revision of their stream it was read at. */
export type Account = UserState & { revision: bigint };
