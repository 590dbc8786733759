import { randomUUID } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  ACCOUNT_LIMITS,
  ACCOUNT_MESSAGES,
  changePasswordBody,
  completeGoogleRegistrationBody,
  forgotPasswordBody,
  invalidDomainEmailMessage,
  invalidResetEmailMessage,
  isAcceptedEmail,
  loginGoogleBody,
  normalizeEmail,
  passwordProblem,
  registerBody,
  type PendingSignInResponse,
  type RegisterResponse,
  resendOtpBody,
  resetPasswordBody,
  signinBody,
  updateProfileBody,
  usernameFromGoogle,
  verifyRegistrationBody,
  verifyResetCodeBody,
  userStream,
} from '@pawhaven/contracts';
import {
  badRequest,
  currentUserId,
  forbidden,
  handleCommand,
  HttpError,
  loadState,
  logger,
  notFound,
  requireUser,
  unauthorized,
  type EventMetadata,
} from '@pawhaven/platform';
import type { CommandDeps } from '../deps';
import { rateLimits, signInAttempts } from '../http/rate-limits';
import { singleUpload, uploadedFile } from '../http/upload';
import { withStagedImage } from '../images/image-store';
import {
  assertUsernameFree,
  claimEmail,
  claimOwner,
  confirmVerifiedUsername,
  emailClaimStream,
  holdExpiry,
  holdUsername,
  releaseUsername,
} from './claims';
import { hashRegistrationToken, newRegistrationToken } from './registration-token';
import { hashPassword, passwordMatches } from './secrets';
import { trustedDevices } from './trusted-devices';
import { registrationLapsed, userDecider, type UserCommand, type UserState } from './user';
import { usernameClaimKeys } from './username-keys';
import { userDto } from './user-dto';

const SESSION_COOKIE = 'ph_session';

export function accountRoutes(deps: CommandDeps): Router {
  const { config, store, codes, mailer, tokens } = deps;
  const now = deps.now ?? (() => new Date());
  const limits = rateLimits(deps);
  // Sign-ins count their failures only: per address, and per account unless the browser signed into it before.
  const devices = trustedDevices(codes, config);
  const signinAttempts = signInAttempts(deps, (req) => devices.accountOf(req));
  // A Google credential is signed, not guessed: its failures count per address only.
  const googleAttempts = signInAttempts(deps, () => null);
  const router = Router();

  const run = (userId: string, command: UserCommand | ((s: UserState) => UserCommand), actorId = userId) =>
    handleCommand(store, userStream(userId), userDecider, command, { actorId } satisfies EventMetadata);

  const findByEmail = async (email: string) => {
    const userId = await claimOwner(store, emailClaimStream(email));
    if (!userId) return null;
    const { state } = await loadState(store, userStream(userId), userDecider);
    // A deleted account is no account: its address signs into nothing.
    return state.status === 'unregistered' || state.status === 'deleted' ? null : state;
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

  /** Starts a refresh session (httpOnly cookie) and answers with a short-lived access token and the user. */
  const signIn = async (
    req: Request,
    res: Response,
    state: UserState,
    rememberMe: boolean,
    message?: string,
  ) => {
    const sessionId = randomUUID();
    const secret = codes.newSessionSecret();
    const result = await run(state.userId, {
      type: 'StartSession',
      data: {
        sessionId,
        secretHash: codes.hashSessionSecret(secret),
        rememberMe,
        rememberMeDays: config.REMEMBER_ME_DAYS,
        now: now(),
      },
    });
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
      user: userDto(result.state),
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

  router.post('/register', limits.register, async (req, res) => {
    const body = registerBody.parse(req.body);
    const email = normalizeEmail(body.email);
    requireAcceptedEmail(email);
    requireStrongPassword(body.password);
    const keys = usernameClaimKeys(deps.pseudonyms, body.username);
    const at = now();
    // Refusals that need no write come first, so they leave nothing behind.
    const owner = await claimOwner(store, emailClaimStream(email));
    const taken = owner && (await loadState(store, userStream(owner), userDecider)).state.status === 'active';
    // A taken username is refused as for a new address (the owner's own name included), so this answer says
    // nothing about the address either.
    await assertUsernameFree(store, { userId: taken ? null : owner, keys, now: at });
    const passwordHash = await hashPassword(body.password);
    if (taken) {
      // The address has an account. Saying so would tell anyone which addresses are registered: the caller gets a
      // new sign-up's answer (the same work done, the same mail sent), and the mail tells the owner instead.
      await sendAccountExists(email);
      res.status(201).json({
        email,
        message: ACCOUNT_MESSAGES.registered,
        registrationToken: newRegistrationToken(),
        position: await headPosition(),
      } satisfies RegisterResponse);
      return;
    }
    // The address first: every sign-up of it, racing or later, lands on the one account stream its claim names,
    // whose revision then decides between them. Nothing is held yet, so losing here leaves nothing behind.
    const userId = owner ?? (await claimEmail(store, email, randomUUID()));
    // Then the username: held for this sign-up only, until it is verified, replaced, fails or expires.
    const registrationId = randomUUID();
    const registrationExpiresAt = new Date(at.getTime() + ACCOUNT_LIMITS.registrationSeconds * 1000);
    await holdUsername(store, {
      userId,
      registrationId,
      username: body.username,
      keys,
      expiresAt: holdExpiry(registrationExpiresAt.toISOString()),
      now: at,
    });
    const registrationToken = newRegistrationToken();
    const code = codes.newCode();
    let result;
    try {
      result = await run(userId, {
        type: 'RegisterUser',
        data: {
          userId,
          registrationId,
          username: body.username,
          usernameKeys: keys,
          email,
          passwordHash,
          isVeterinarian: body.isVeterinarian,
          codeHash: codes.hash('registration', userId, code),
          tokenHash: hashRegistrationToken(registrationToken),
          now: at,
        },
      });
    } catch (e) {
      await releaseQuietly({ userId, registrationId, keys, reason: 'not-registered' });
      throw e;
    }
    // The pending sign-up this one replaced no longer keeps its username.
    for (const e of result.events)
      if (e.type === 'RegistrationRenewed' && e.data.replaced)
        await releaseQuietly({
          userId,
          registrationId: e.data.replaced.registrationId,
          keys: e.data.replaced.usernameKeys,
          reason: 'replaced',
        });
    await sendRegistrationCode(email, code);
    res.status(201).json({
      email,
      message: ACCOUNT_MESSAGES.registered,
      registrationToken,
      position: String(result.position),
    } satisfies RegisterResponse);
  });

  router.post('/verify-registration', limits.otp, async (req, res) => {
    const body = verifyRegistrationBody.parse(req.body);
    const user = await findByEmail(body.email);
    // A verified address answers like an unknown one: 'already verified' would say the address has an account.
    if (!user || user.status === 'active') throw badRequest(ACCOUNT_MESSAGES.noPendingVerification);
    const result = await run(user.userId, {
      type: 'VerifyEmail',
      data: {
        codeHash: codes.hash('registration', user.userId, body.otp),
        // Without the token of this very sign-up the code verifies nothing (see user.ts).
        tokenHash: body.registrationToken ? hashRegistrationToken(body.registrationToken) : null,
        now: now(),
      },
    });
    await confirmIfVerified(result.state);
    res.json({
      message: ACCOUNT_MESSAGES.verified,
      user: userDto(result.state),
      position: String(result.position),
    });
  });

  router.post('/resend-otp', limits.otp, async (req, res) => {
    const body = resendOtpBody.parse(req.body);
    const user = await findByEmail(body.email);
    if (!user || user.status === 'active') throw badRequest(ACCOUNT_MESSAGES.noPendingVerification);
    const code = codes.newCode();
    const result = await run(user.userId, {
      type: 'IssueRegistrationCode',
      data: {
        codeHash: codes.hash('registration', user.userId, code),
        now: now(),
        // A page holding the token of a replaced sign-up hears so instead of waiting for a useless code.
        ...(body.registrationToken ? { tokenHash: hashRegistrationToken(body.registrationToken) } : {}),
      },
    });
    await sendRegistrationCode(user.email, code);
    res.json({ message: ACCOUNT_MESSAGES.otpResent, position: String(result.position) });
  });

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
    // Admins always stay signed in persistently (spec 000 §4).
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
    await signIn(req, res, result.state, true, 'Registration successful');
  });

  /** Google proved the address of an existing account (a pending one becomes verified, its password dropped). */
  const linkGoogle = async (req: Request, res: Response, user: UserState, googleSubject: string) => {
    const { state } = await run(user.userId, {
      type: 'LinkGoogleAccount',
      data: { googleSubject, now: now() },
    });
    if (user.status === 'pending_verification') await confirmIfVerified(state);
    await signIn(req, res, state, true, 'Login successful');
  };

  const verifyGoogle = async (credential: string) => {
    if (!deps.google) throw notFound(ACCOUNT_MESSAGES.googleNotConfigured);
    const identity = await deps.google(credential).catch(() => {
      throw unauthorized(ACCOUNT_MESSAGES.googleFailed);
    });
    if (!identity.emailVerified) throw unauthorized('Your Google e-mail address is not verified');
    return identity;
  };

  /**
   * The account a password reset is for, or null: none, deleted, or a sign-up that lapsed. The reset flow answers
   * the same either way (a code is 'sent', a code is 'invalid'), so it cannot be asked which addresses have one.
   */
  const resettable = async (email: string) => {
    const user = await findByEmail(email);
    return user && !registrationLapsed(user, now()) ? user : null;
  };

  const issueResetCode = async (rawEmail: string, resend: boolean) => {
    const email = normalizeEmail(rawEmail);
    requireAcceptedEmail(email, invalidResetEmailMessage(config.ACCEPTED_EMAIL_DOMAIN));
    const user = await resettable(email);
    if (user) {
      const code = codes.newCode();
      await run(user.userId, {
        type: 'RequestPasswordReset',
        data: { codeHash: codes.hash('reset', user.userId, code), now: now() },
      });
      await sendResetCode(email, code);
    }
    // No position: nothing reads the reset's events but its own next step, and it must not show whether one was written.
    return { message: resend ? ACCOUNT_MESSAGES.resetCodeResent : ACCOUNT_MESSAGES.resetCodeSent };
  };

  /** No account, or no code asked for: the same answer as a wrong code. */
  const resetCodeHolder = async (email: string) => {
    const user = await resettable(email);
    if (!user?.resetCode) throw badRequest(ACCOUNT_MESSAGES.codeInvalid);
    return user;
  };

  router.post('/forgot-password', limits.reset, async (req, res) => {
    res.json(await issueResetCode(forgotPasswordBody.parse(req.body).email, false));
  });

  router.post('/resend-reset-code', limits.reset, async (req, res) => {
    res.json(await issueResetCode(forgotPasswordBody.parse(req.body).email, true));
  });

  router.post('/verify-reset-code', limits.reset, async (req, res) => {
    const body = verifyResetCodeBody.parse(req.body);
    const user = await resetCodeHolder(body.email);
    const result = await run(user.userId, {
      type: 'VerifyResetCode',
      data: { codeHash: codes.hash('reset', user.userId, body.code), now: now() },
    });
    res.json({ message: ACCOUNT_MESSAGES.resetCodeVerified, position: String(result.position) });
  });

  router.post('/reset-password', limits.reset, async (req, res) => {
    const body = resetPasswordBody.parse(req.body);
    requireStrongPassword(body.newPassword);
    const user = await resetCodeHolder(body.email);
    const result = await run(user.userId, {
      type: 'ResetPassword',
      data: {
        codeHash: codes.hash('reset', user.userId, body.code),
        passwordHash: await hashPassword(body.newPassword),
        now: now(),
      },
    });
    if (user.status === 'pending_verification') await confirmIfVerified(result.state);
    // The owner proved themselves by the mailbox: failed sign-ins by others no longer lock the account.
    await signinAttempts.forgive(devices.accountKey(body.email));
    res.clearCookie(SESSION_COOKIE, { path: '/api/auth' });
    res.json({ message: ACCOUNT_MESSAGES.passwordReset, position: String(result.position) });
  });

  /** The body's `id` (the spec sends one) must be the signed-in user's own. */
  const ownId = (req: Request, bodyId: string | undefined) => {
    const userId = currentUserId(req);
    if (bodyId && bodyId !== userId) throw forbidden('You can only change your own account');
    return userId;
  };

  router.post('/change-password', requireUser, limits.changePassword, async (req, res) => {
    const body = changePasswordBody.parse(req.body);
    const userId = ownId(req, body.id);
    requireStrongPassword(body.newPassword);
    const { state } = await loadState(store, userStream(userId), userDecider);
    const matches = await passwordMatches(state.passwordHash, body.currentPassword);
    const result = await run(userId, {
      type: 'ChangePassword',
      data: {
        currentPasswordMatches: matches,
        passwordHash: await hashPassword(body.newPassword),
        now: now(),
      },
    });
    res.json({ message: ACCOUNT_MESSAGES.passwordChanged, position: String(result.position) });
  });

  router.post('/update-profile', requireUser, async (req, res) => {
    const body = updateProfileBody.parse(req.body);
    const userId = ownId(req, body.id);
    // Fields left out keep their value.
    const result = await run(userId, (s) => ({
      type: 'UpdateProfile',
      data: { phone: body.phone ?? s.phone, city: body.city ?? s.city, about: body.about ?? s.about },
    }));
    res.json({
      message: ACCOUNT_MESSAGES.profileUpdated,
      user: userDto(result.state),
      position: String(result.position),
    });
  });

  const profileImage = {
    maxBytes: ACCOUNT_LIMITS.profileImageMaxBytes,
    width: 400,
    height: 400,
    fit: 'cover' as const,
    tooLarge: ACCOUNT_MESSAGES.imageTooLarge,
    invalid: ACCOUNT_MESSAGES.imageInvalid,
  };

  router.post(
    '/upload-profile-image',
    requireUser,
    limits.upload,
    singleUpload('image', ACCOUNT_LIMITS.profileImageMaxBytes, ACCOUNT_MESSAGES.imageTooLarge),
    async (req, res) => {
      const userId = currentUserId(req);
      const file = uploadedFile(req);
      if (!file) throw badRequest(ACCOUNT_MESSAGES.imageInvalid);
      const { path, result } = await withStagedImage(
        deps.db.knex,
        { bytes: file.buffer, kind: profileImage, streamId: userStream(userId) },
        async (path) => ({
          path,
          result: await run(userId, { type: 'ChangeProfileImage', data: { profileImage: path } }),
        }),
      );
      res.json({
        success: true,
        message: ACCOUNT_MESSAGES.imageUploaded,
        data: { profileImage: path },
        user: userDto(result.state),
        position: String(result.position),
      });
    },
  );

  router.delete('/remove-profile-image', requireUser, async (req, res) => {
    const result = await run(currentUserId(req), { type: 'RemoveProfileImage', data: {} });
    res.json({
      success: true,
      message: ACCOUNT_MESSAGES.imageRemoved,
      user: userDto(result.state),
      position: result.position === null ? undefined : String(result.position),
    });
  });

  return router;
}
