import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import {
  ACCOUNT_LIMITS,
  ACCOUNT_MESSAGES,
  normalizeEmail,
  registerBody,
  type RegisterResponse,
  resendOtpBody,
  verifyRegistrationBody,
  userStream,
  emailClaimStream,
} from '@pawhaven/contracts';
import { badRequest, loadState } from '@pawhaven/platform';
import { assertUsernameFree, claimEmail, claimOwner, holdExpiry, holdUsername } from '../claims';
import { hashRegistrationToken, newRegistrationToken } from '../registration-token';
import { hashPassword } from '../secrets';
import { userDecider } from '../user';
import { usernameClaimKeys } from '../username-keys';
import { userDto } from '../user-dto';
import type { AccountsContext } from './context';

/** Signing up by password: /register, /verify-registration (the mailed code) and /resend-otp. */
export function registrationRoutes(router: Router, ctx: AccountsContext): void {
  const {
    deps,
    store,
    codes,
    now,
    limits,
    run,
    findByEmail,
    requireAcceptedEmail,
    requireStrongPassword,
    sendRegistrationCode,
    sendAccountExists,
    headPosition,
    releaseQuietly,
    confirmIfVerified,
  } = ctx;

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
        // Without the token of this very sign-up the code verifies nothing (see user/registration.ts).
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
}
