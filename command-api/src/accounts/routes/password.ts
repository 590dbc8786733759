import type { Router } from 'express';
import {
  ACCOUNT_MESSAGES,
  changePasswordBody,
  forgotPasswordBody,
  invalidResetEmailMessage,
  normalizeEmail,
  resetPasswordBody,
  verifyResetCodeBody,
  userStream,
} from '@pawhaven/contracts';
import { badRequest, loadState, requireUser } from '@pawhaven/platform';
import { hashPassword, passwordMatches } from '../secrets';
import { registrationLapsed, userDecider } from '../user';
import { SESSION_COOKIE, type AccountsContext } from './context';

/** The password: the reset by mailed code (/forgot-password, /resend-reset-code, /verify-reset-code, /reset-password) and /change-password. */
export function passwordRoutes(router: Router, ctx: AccountsContext): void {
  const {
    config,
    store,
    codes,
    now,
    limits,
    devices,
    signinAttempts,
    run,
    findByEmail,
    requireAcceptedEmail,
    requireStrongPassword,
    sendResetCode,
    confirmIfVerified,
    ownId,
  } = ctx;

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
}
