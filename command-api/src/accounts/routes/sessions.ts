import type { Router } from 'express';
import {
  ACCOUNT_MESSAGES,
  type PendingSignInResponse,
  sessionStream,
  signinBody,
  userStream,
} from '@pawhaven/contracts';
import { loadState, unauthorized } from '@pawhaven/platform';
import { hashRegistrationToken, newRegistrationToken } from '../registration-token';
import { passwordMatches } from '../secrets';
import { sessionDecider } from '../session';
import { userDecider } from '../user';
import { userDto } from '../user-dto';
import { SESSION_COOKIE, type AccountsContext } from './context';

/** Sessions: /signin (a pending sign-up gets a new code instead), /refresh (the cookie's session) and /signout. */
export function sessionRoutes(router: Router, ctx: AccountsContext): void {
  const {
    store,
    codes,
    tokens,
    now,
    signinAttempts,
    run,
    runSession,
    findByEmail,
    sendRegistrationCode,
    signIn,
    readSessionCookie,
  } = ctx;

  router.post('/signin', signinAttempts.limit, async (req, res) => {
    const body = signinBody.parse(req.body);
    const user = await findByEmail(body.email);
    // The password is checked in every case, against a dummy hash without an account, so the answer takes as
    // long for an unknown e-mail as for a known one.
    const matches = await passwordMatches(user?.passwordHash ?? null, body.password);
    if (!user || !matches) throw unauthorized(ACCOUNT_MESSAGES.invalidCredentials);
    // The right password is no failure, whatever follows.
    await signinAttempts.succeeded(req);
    if (user.status === 'pending_verification') {
      // The right password proves this is whoever made the pending sign-up: a new code, and a token for this
      // browser so the code can verify it here (410 when the sign-up has expired).
      const code = codes.newCode();
      const registrationToken = newRegistrationToken();
      await run(user.userId, {
        type: 'ResumeRegistration',
        data: {
          codeHash: codes.hash('registration', user.userId, code),
          tokenHash: hashRegistrationToken(registrationToken),
          now: now(),
        },
      });
      await sendRegistrationCode(user.email, code);
      res.status(403).json({
        message: ACCOUNT_MESSAGES.emailNotVerified,
        error: ACCOUNT_MESSAGES.emailNotVerified,
        needsVerification: true,
        email: user.email,
        registrationToken,
      } satisfies PendingSignInResponse);
      return;
    }
    // Admins always stay signed in persistently.
    await signIn(req, res, user, body.rememberMe || user.isAdmin);
  });

  /**
   * The cookie's session, whichever stream holds it: its own (sessions since they have one), or the user's (older
   * ones). Undefined when the cookie names no session of its user, or its secret is not the session's.
   */
  const sessionOfCookie = async (cookie: { userId: string; sessionId: string; secret: string }) => {
    const [user, own] = await Promise.all([
      loadState(store, userStream(cookie.userId), userDecider),
      loadState(store, sessionStream(cookie.sessionId), sessionDecider),
    ]);
    const recorded =
      own.state.status !== 'none'
        ? own.state.userId === cookie.userId
          ? {
              ...own.state,
              revoked: own.state.status === 'revoked',
              // A password reset or deletion after the revision the sign-in was decided on ends the session.
              endedByUser: user.events.some(
                (e) =>
                  (e.type === 'PasswordReset' || e.type === 'UserDeleted') &&
                  e.streamRevision > BigInt(own.state.userRevision),
              ),
            }
          : undefined
        : user.state.sessions[cookie.sessionId] && {
            ...user.state.sessions[cookie.sessionId]!,
            endedByUser: false, // the user's own evolve already revoked it
          };
    if (!recorded || !codes.sameHash(recorded.secretHash, codes.hashSessionSecret(cookie.secret)))
      return undefined;
    return { user: user.state, session: recorded };
  };

  router.post('/refresh', async (req, res) => {
    const cookie = readSessionCookie(req);
    if (!cookie) throw unauthorized('No session. Please sign in.');
    const found = await sessionOfCookie(cookie);
    if (
      !found ||
      found.session.revoked ||
      found.session.endedByUser ||
      found.user.status !== 'active' ||
      new Date(found.session.expiresAt).getTime() <= now().getTime()
    ) {
      res.clearCookie(SESSION_COOKIE, { path: '/api/auth' });
      throw unauthorized('Your session has ended. Please sign in again.');
    }
    const { user, session } = found;
    const token = await tokens.sign({
      userId: user.userId,
      sessionId: cookie.sessionId,
      isAdmin: user.isAdmin,
    });
    const lastActive =
      'startedAt' in session && (!user.lastActive || session.startedAt > user.lastActive)
        ? session.startedAt
        : user.lastActive;
    res.json({ token, user: userDto({ ...user, lastActive }) });
  });

  router.post('/signout', async (req, res) => {
    // Signing out works with the access token, the refresh cookie, or both; it always clears the cookie.
    const cookie = readSessionCookie(req);
    res.clearCookie(SESSION_COOKIE, { path: '/api/auth' });
    let target = req.auth ?? null;
    if (!target && cookie) {
      // The cookie alone must prove the session: its secret, not just the ids.
      const found = await sessionOfCookie(cookie);
      if (found) target = { userId: cookie.userId, sessionId: cookie.sessionId, isAdmin: found.user.isAdmin };
    }
    if (!target) throw unauthorized('No token provided');
    const at = now();
    // The session's own stream, or, for a session recorded in the user's stream before that, the user's.
    const own = await runSession(
      target.sessionId,
      { type: 'RevokeSession', data: { now: at } },
      target.userId,
    );
    const result =
      own.events.length > 0 || own.nextRevision >= 0n
        ? own
        : await run(target.userId, { type: 'RevokeSession', data: { sessionId: target.sessionId, now: at } });
    res.json({
      message: ACCOUNT_MESSAGES.signedOut,
      position: result.position === null ? undefined : String(result.position),
    });
  });
}
