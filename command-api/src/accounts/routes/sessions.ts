import type { Router } from 'express';
import { ACCOUNT_MESSAGES, type PendingSignInResponse, signinBody, userStream } from '@pawhaven/contracts';
import { loadState, unauthorized } from '@pawhaven/platform';
import { hashRegistrationToken, newRegistrationToken } from '../registration-token';
import { passwordMatches } from '../secrets';
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

  router.post('/refresh', async (req, res) => {
    const cookie = readSessionCookie(req);
    if (!cookie) throw unauthorized('No session. Please sign in.');
    const { state } = await loadState(store, userStream(cookie.userId), userDecider);
    const session = state.sessions[cookie.sessionId];
    if (
      !session ||
      session.revoked ||
      new Date(session.expiresAt).getTime() <= now().getTime() ||
      !codes.sameHash(session.secretHash, codes.hashSessionSecret(cookie.secret))
    ) {
      res.clearCookie(SESSION_COOKIE, { path: '/api/auth' });
      throw unauthorized('Your session has ended. Please sign in again.');
    }
    const token = await tokens.sign({
      userId: state.userId,
      sessionId: cookie.sessionId,
      isAdmin: state.isAdmin,
    });
    res.json({ token, user: userDto(state) });
  });

  router.post('/signout', async (req, res) => {
    // Signing out works with the access token, the refresh cookie, or both; it always clears the cookie.
    const cookie = readSessionCookie(req);
    res.clearCookie(SESSION_COOKIE, { path: '/api/auth' });
    let target = req.auth ?? null;
    if (!target && cookie) {
      // The cookie alone must prove the session: its secret, not just the ids.
      const { state } = await loadState(store, userStream(cookie.userId), userDecider);
      const session = state.sessions[cookie.sessionId];
      if (session && codes.sameHash(session.secretHash, codes.hashSessionSecret(cookie.secret)))
        target = { userId: cookie.userId, sessionId: cookie.sessionId, isAdmin: state.isAdmin };
    }
    if (!target) throw unauthorized('No token provided');
    const result = await run(target.userId, {
      type: 'RevokeSession',
      data: { sessionId: target.sessionId, now: now() },
    });
    res.json({
      message: ACCOUNT_MESSAGES.signedOut,
      position: result.position === null ? undefined : String(result.position),
    });
  });
}
