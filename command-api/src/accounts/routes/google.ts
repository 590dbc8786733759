import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response, Router } from 'express';
import {
  ACCOUNT_LIMITS,
  ACCOUNT_MESSAGES,
  completeGoogleRegistrationBody,
  loginGoogleBody,
  normalizeEmail,
  usernameFromGoogle,
} from '@pawhaven/contracts';
import { badRequest, HttpError, notFound, unauthorized } from '@pawhaven/platform';
import { claimEmail, holdExpiry, holdUsername } from '../claims';
import { registrationLapsed, type UserState } from '../user';
import { usernameClaimKeys } from '../username-keys';
import type { AccountsContext } from './context';

/** Google: /login-google (an account's sign-in, or the choice of a new one) and /complete-google-registration. */
export function googleRoutes(router: Router, ctx: AccountsContext): void {
  const {
    deps,
    store,
    now,
    limits,
    googleAttempts,
    run,
    findByEmail,
    requireAcceptedEmail,
    signIn,
    releaseQuietly,
    confirmIfVerified,
  } = ctx;

  /** Without GOOGLE_CLIENT_ID there is no Google sign-in: its routes answer 404, whatever the body. */
  const googleAvailable: RequestHandler = (_req, _res, next) =>
    next(deps.google ? undefined : notFound(ACCOUNT_MESSAGES.googleNotConfigured));

  router.post('/login-google', googleAvailable, googleAttempts.limit, async (req, res) => {
    const { credential } = loginGoogleBody.parse(req.body);
    const identity = await verifyGoogle(credential);
    await googleAttempts.succeeded(req);
    const user = await findByEmail(identity.email);
    // A lapsed sign-up is no account: Google's sign-up takes its place (below).
    if (user && !registrationLapsed(user, now())) {
      await linkGoogle(req, res, user, identity.subject);
      return;
    }
    requireAcceptedEmail(normalizeEmail(identity.email));
    res.json({
      needsUserType: true,
      email: normalizeEmail(identity.email),
      username: usernameFromGoogle(identity.name, identity.email),
      message: 'Please choose how you would like to register',
    });
  });

  router.post('/complete-google-registration', googleAvailable, limits.register, async (req, res) => {
    const body = completeGoogleRegistrationBody.parse(req.body);
    const identity = await verifyGoogle(body.credential);
    const email = normalizeEmail(identity.email);
    if (email !== normalizeEmail(body.email))
      throw badRequest('The e-mail does not match your Google account');
    requireAcceptedEmail(email);
    const existing = await findByEmail(email);
    if (existing && !registrationLapsed(existing, now())) {
      await linkGoogle(req, res, existing, identity.subject);
      return;
    }
    // The account stream the address names (a claim never registered, or a lapsed sign-up, is taken over).
    const userId = await claimEmail(store, email, randomUUID());
    // The name comes from Google and the user never typed it: when taken, add a short number rather than fail
    // (room made for it, and what is left still a valid name).
    const base = usernameFromGoogle(body.username.slice(0, ACCOUNT_LIMITS.usernameMaxLength - 5), email);
    const at = now();
    const registrationId = randomUUID();
    let username = base;
    for (let i = 0; ; i++) {
      try {
        await holdUsername(store, {
          userId,
          registrationId,
          username,
          keys: usernameClaimKeys(deps.pseudonyms, username),
          expiresAt: holdExpiry(at.toISOString()),
          now: at,
        });
        break;
      } catch (e) {
        if (!(e instanceof HttpError && e.status === 409) || i >= 8) throw e;
        username = `${base}${Math.floor(1000 + Math.random() * 9000)}`;
      }
    }
    const keys = usernameClaimKeys(deps.pseudonyms, username);
    let result;
    try {
      result = await run(userId, {
        type: 'RegisterWithGoogle',
        data: {
          userId,
          username,
          usernameKeys: keys,
          email,
          googleSubject: identity.subject,
          isVeterinarian: body.isVeterinarian,
          now: at,
        },
      });
    } catch (e) {
      await releaseQuietly({ userId, registrationId, keys, reason: 'not-registered' });
      throw e;
    }
    await confirmIfVerified(result.state);
    await signIn(
      req,
      res,
      { ...result.state, revision: result.nextRevision },
      true,
      'Registration successful',
    );
  });

  /** Google proved the address of an existing account (a pending one becomes verified, its password dropped). */
  const linkGoogle = async (req: Request, res: Response, user: UserState, googleSubject: string) => {
    const { state, nextRevision } = await run(user.userId, {
      type: 'LinkGoogleAccount',
      data: { googleSubject, now: now() },
    });
    if (user.status === 'pending_verification') await confirmIfVerified(state);
    await signIn(req, res, { ...state, revision: nextRevision }, true, 'Login successful');
  };

  const verifyGoogle = async (credential: string) => {
    if (!deps.google) throw notFound(ACCOUNT_MESSAGES.googleNotConfigured);
    const identity = await deps.google(credential).catch(() => {
      throw unauthorized(ACCOUNT_MESSAGES.googleFailed);
    });
    if (!identity.emailVerified) throw unauthorized('Your Google e-mail address is not verified');
    return identity;
  };
}
