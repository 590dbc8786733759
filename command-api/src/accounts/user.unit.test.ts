import { describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, type UserEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { evolveUser, initialUserState, userDecider } from './user';

const given = deciderSpec(userDecider);
const now = new Date('2026-11-21T10:00:00.000Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);
const iso = (d: Date) => d.toISOString();

const HOUR = ACCOUNT_LIMITS.registrationSeconds;

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    username: 'ayesha',
    email: 'ayesha@gmail.com',
    passwordHash: 'hash-1',
    isVeterinarian: false,
    isAdmin: false,
    via: 'password',
    registeredAt: iso(now),
    usernameKeys: ['ayesha'],
    registration: { registrationId: 'r1', tokenHash: 't1', expiresAt: iso(later(HOUR)) },
  },
};
/** As the first version recorded it: no keys, no registration token or expiry. */
const legacyRegistered: UserEvent = {
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    username: 'ayesha',
    email: 'ayesha@gmail.com',
    passwordHash: 'hash-1',
    isVeterinarian: false,
    isAdmin: false,
    via: 'password',
    registeredAt: iso(now),
  },
};
const codeIssued: UserEvent = {
  type: 'RegistrationCodeIssued',
  data: { codeHash: 'c1', expiresAt: iso(later(120)) },
};
const verified: UserEvent = { type: 'EmailVerified', data: { verifiedAt: iso(now) } };
const session: UserEvent = {
  type: 'SessionStarted',
  data: {
    sessionId: 's1',
    secretHash: 'sh',
    rememberMe: false,
    expiresAt: iso(later(86400)),
    startedAt: iso(now),
  },
};
const resetIssued: UserEvent = {
  type: 'PasswordResetCodeIssued',
  data: { codeHash: 'r1', expiresAt: iso(later(600)) },
};
const rejected = (attempt: number): UserEvent => ({ type: 'RegistrationCodeRejected', data: { attempt } });

const register = {
  type: 'RegisterUser' as const,
  data: {
    userId: 'u1',
    registrationId: 'r1',
    username: 'ayesha',
    usernameKeys: ['ayesha'],
    email: 'ayesha@gmail.com',
    passwordHash: 'hash-1',
    isVeterinarian: false,
    codeHash: 'c1',
    tokenHash: 't1',
    now,
  },
};
const verify = (codeHash: string, at: Date = now, tokenHash: string | null = 't1') => ({
  type: 'VerifyEmail' as const,
  data: { codeHash, tokenHash, now: at },
});

describe('registration', () => {
  it('registers a new user with a token-bound registration valid for an hour, and a code valid for 120 s', () =>
    given().when(register).then([registered, codeIssued]));

  it('signing up again before verifying replaces the sign-up: new details, token and code; names the replaced one', () =>
    given(registered, codeIssued)
      .when({
        ...register,
        data: {
          ...register.data,
          registrationId: 'r2',
          username: 'ayesha2',
          usernameKeys: ['ayesha2'],
          passwordHash: 'hash-2',
          codeHash: 'c2',
          tokenHash: 't2',
          now: later(30),
        },
      })
      .then([
        {
          type: 'RegistrationRenewed',
          data: {
            username: 'ayesha2',
            passwordHash: 'hash-2',
            isVeterinarian: false,
            usernameKeys: ['ayesha2'],
            registration: { registrationId: 'r2', tokenHash: 't2', expiresAt: iso(later(30 + HOUR)) },
            replaced: { registrationId: 'r1', usernameKeys: ['ayesha'] },
            renewedAt: iso(later(30)),
          },
        },
        { type: 'RegistrationCodeIssued', data: { codeHash: 'c2', expiresAt: iso(later(150)) } },
      ]));

  it('refuses to register a verified e-mail again', () =>
    given(registered, codeIssued, verified).when(register).thenRefuses(409, ACCOUNT_MESSAGES.emailTaken));

  it('verifies the e-mail with the right code in time', () =>
    given(registered, codeIssued)
      .when(verify('c1', later(60)))
      .then([verified].map((e) => ({ ...e, data: { verifiedAt: iso(later(60)) } }))));

  it('counts a wrong code as an attempt and refuses it', () =>
    given(registered, codeIssued)
      .when(verify('nope'))
      .thenRefuses(400, ACCOUNT_MESSAGES.codeInvalid, [rejected(1)]));

  it('refuses an expired code', () =>
    given(registered, codeIssued)
      .when(verify('c1', later(121)))
      .thenRefuses(400, ACCOUNT_MESSAGES.codeExpired));

  it('refuses even the right code after five wrong attempts', () =>
    given(registered, codeIssued, rejected(1), rejected(2), rejected(3), rejected(4), rejected(5))
      .when(verify('c1'))
      .thenRefuses(400, ACCOUNT_MESSAGES.codeAttemptsExceeded));

  it('a resent code replaces the old one and resets the attempts', () =>
    given(registered, codeIssued, rejected(1), {
      type: 'RegistrationCodeIssued',
      data: { codeHash: 'c2', expiresAt: iso(later(200)) },
    })
      .when(verify('c1'))
      .thenRefuses(400, ACCOUNT_MESSAGES.codeInvalid, [rejected(1)]));

  it('refuses to resend a code to a verified account', () =>
    given(registered, codeIssued, verified)
      .when({ type: 'IssueRegistrationCode', data: { codeHash: 'c3', now } })
      .thenRefuses(409, ACCOUNT_MESSAGES.alreadyVerified));

  it('refuses verification for an unknown user', () =>
    given().when(verify('c1')).thenRefuses(404, ACCOUNT_MESSAGES.noPendingVerification));
});

describe('registration tokens: the code verifies only the sign-up whose token the caller holds', () => {
  const renewedByOther: UserEvent = {
    type: 'RegistrationRenewed',
    data: {
      username: 'squatter',
      passwordHash: 'hash-attacker',
      isVeterinarian: false,
      usernameKeys: ['squatter'],
      registration: { registrationId: 'r2', tokenHash: 't2', expiresAt: iso(later(60 + HOUR)) },
      replaced: { registrationId: 'r1', usernameKeys: ['ayesha'] },
      renewedAt: iso(later(60)),
    },
  };
  const code2: UserEvent = {
    type: 'RegistrationCodeIssued',
    data: { codeHash: 'c2', expiresAt: iso(later(180)) },
  };
  const resume = (codeHash: string, tokenHash: string, at: Date = now) => ({
    type: 'ResumeRegistration' as const,
    data: { codeHash, tokenHash, now: at },
  });

  it('refuses a code sent without a token (403), recording no attempt', () =>
    given(registered, codeIssued)
      .when(verify('c1', now, null))
      .thenRefuses(403, ACCOUNT_MESSAGES.registrationTokenMissing));

  it("someone else's sign-up replaced the owner's: the owner's token cannot verify it, even with the mailed code", () =>
    given(registered, codeIssued, renewedByOther, code2)
      .when(verify('c2', later(70), 't1'))
      .thenRefuses(409, ACCOUNT_MESSAGES.registrationReplaced));

  it('a wrong token is refused before the code is looked at: no attempt is used up', () =>
    given(registered, codeIssued)
      .when(verify('wrong', now, 'not-a-token'))
      .thenRefuses(409, ACCOUNT_MESSAGES.registrationReplaced));

  it('the replacing sign-up verifies only with its own token and the new code', () => {
    given(registered, codeIssued, renewedByOther, code2)
      .when(verify('c2', later(70), 't2'))
      .then([{ type: 'EmailVerified', data: { verifiedAt: iso(later(70)) } }]);
    given(registered, codeIssued, renewedByOther, code2)
      .when(verify('c1', later(70), 't2'))
      .thenRefuses(400, ACCOUNT_MESSAGES.codeInvalid, [rejected(1)]);
  });

  it('a sign-in with the password adds a token for that browser and sends a new code; both tokens verify', () => {
    const issued: UserEvent[] = [
      { type: 'RegistrationTokenIssued', data: { registrationId: 'r1', tokenHash: 't3' } },
      { type: 'RegistrationCodeIssued', data: { codeHash: 'c3', expiresAt: iso(later(120)) } },
    ];
    given(registered, codeIssued).when(resume('c3', 't3')).then(issued);
    for (const token of ['t1', 't3'])
      given(registered, codeIssued, ...issued)
        .when(verify('c3', later(10), token))
        .then([{ type: 'EmailVerified', data: { verifiedAt: iso(later(10)) } }]);
  });

  it('a resend with the token of a replaced sign-up is refused; without a token it mails a code', () => {
    given(registered, codeIssued, renewedByOther, code2)
      .when({ type: 'IssueRegistrationCode', data: { codeHash: 'c3', now: later(70), tokenHash: 't1' } })
      .thenRefuses(409, ACCOUNT_MESSAGES.registrationReplaced);
    given(registered, codeIssued, renewedByOther, code2)
      .when({ type: 'IssueRegistrationCode', data: { codeHash: 'c3', now: later(70) } })
      .then([{ type: 'RegistrationCodeIssued', data: { codeHash: 'c3', expiresAt: iso(later(190)) } }]);
  });

  it('a sign-up recorded before tokens existed verifies only after a sign-in hands out a token', () => {
    given(legacyRegistered, codeIssued)
      .when(verify('c1', later(10), null))
      .thenRefuses(403, ACCOUNT_MESSAGES.registrationTokenMissing);
    const issued: UserEvent[] = [
      { type: 'RegistrationTokenIssued', data: { registrationId: 'legacy', tokenHash: 't9' } },
      { type: 'RegistrationCodeIssued', data: { codeHash: 'c9', expiresAt: iso(later(130)) } },
    ];
    given(legacyRegistered, codeIssued)
      .when(resume('c9', 't9', later(10)))
      .then(issued);
    given(legacyRegistered, codeIssued, ...issued)
      .when(verify('c9', later(20), 't9'))
      .then([{ type: 'EmailVerified', data: { verifiedAt: iso(later(20)) } }]);
  });

  it('reads an old event without keys as holding none (the start-time migration writes their keyed hashes)', () => {
    // Computing readable keys here would claim the name under a readable stream id: the keys are only ever hashes.
    expect(evolveUser(initialUserState(), legacyRegistered).usernameKeys).toEqual([]);
    expect(evolveUser(initialUserState(), legacyRegistered).registration).toEqual({
      registrationId: 'legacy',
      tokenHashes: [],
      expiresAt: iso(later(HOUR)),
    });
  });
});

describe('registration expiry', () => {
  const lapsed = later(HOUR);

  it('a lapsed sign-up can no longer be verified, resent or resumed (410)', () => {
    given(registered, codeIssued)
      .when(verify('c1', lapsed))
      .thenRefuses(410, ACCOUNT_MESSAGES.registrationExpired);
    given(registered, codeIssued)
      .when({ type: 'IssueRegistrationCode', data: { codeHash: 'c2', now: lapsed } })
      .thenRefuses(410, ACCOUNT_MESSAGES.registrationExpired);
    given(registered, codeIssued)
      .when({ type: 'ResumeRegistration', data: { codeHash: 'c2', tokenHash: 't2', now: lapsed } })
      .thenRefuses(410, ACCOUNT_MESSAGES.registrationExpired);
  });

  it('a lapsed sign-up is no account for a password reset, and Google registers in its place', () => {
    given(registered, codeIssued)
      .when({ type: 'RequestPasswordReset', data: { codeHash: 'r1', now: lapsed } })
      .thenRefuses(404, 'No account found with this email');
    given(registered, codeIssued)
      .when({ type: 'LinkGoogleAccount', data: { googleSubject: 'sub-1', now: lapsed } })
      .thenRefuses(410, ACCOUNT_MESSAGES.registrationExpired);
    const google = {
      type: 'RegisterWithGoogle' as const,
      data: {
        userId: 'u1',
        username: 'Ayesha K',
        usernameKeys: ['ayesha k'],
        email: 'ayesha@gmail.com',
        googleSubject: 'sub-1',
        isVeterinarian: false,
        now: lapsed,
      },
    };
    given(registered, codeIssued)
      .when({ ...google, data: { ...google.data, now: later(60) } })
      .thenRefuses(409, ACCOUNT_MESSAGES.emailTaken);
    given(registered, codeIssued)
      .when(google)
      .then([
        {
          type: 'UserRegistered',
          data: {
            userId: 'u1',
            username: 'Ayesha K',
            usernameKeys: ['ayesha k'],
            email: 'ayesha@gmail.com',
            passwordHash: null,
            isVeterinarian: false,
            isAdmin: false,
            via: 'google',
            googleSubject: 'sub-1',
            registeredAt: iso(lapsed),
          },
        },
      ]);
  });

  it('signing up again after the sign-up lapsed starts a new one', () =>
    given(registered, codeIssued)
      .when({ ...register, data: { ...register.data, registrationId: 'r5', tokenHash: 't5', now: lapsed } })
      .then([
        {
          type: 'RegistrationRenewed',
          data: {
            username: 'ayesha',
            passwordHash: 'hash-1',
            isVeterinarian: false,
            usernameKeys: ['ayesha'],
            registration: { registrationId: 'r5', tokenHash: 't5', expiresAt: iso(later(2 * HOUR)) },
            replaced: { registrationId: 'r1', usernameKeys: ['ayesha'] },
            renewedAt: iso(lapsed),
          },
        },
        { type: 'RegistrationCodeIssued', data: { codeHash: 'c1', expiresAt: iso(later(HOUR + 120)) } },
      ]));
});

describe('sessions', () => {
  const start = {
    type: 'StartSession' as const,
    data: { sessionId: 's1', secretHash: 'sh', rememberMe: false, rememberMeDays: 30, now },
  };

  it('starts a one-day session for a verified user', () =>
    given(registered, codeIssued, verified).when(start).then([session]));

  it('remember-me makes the session last 30 days', () =>
    given(registered, codeIssued, verified)
      .when({ ...start, data: { ...start.data, rememberMe: true } })
      .then([
        {
          ...session,
          data: { ...session.data, rememberMe: true, expiresAt: iso(later(30 * 86400)) },
        } as UserEvent,
      ]));

  it('refuses to start a session before the e-mail is verified', () =>
    given(registered, codeIssued).when(start).thenRefuses(403, ACCOUNT_MESSAGES.emailNotVerified));

  it('revokes a session once; revoking again changes nothing', () => {
    given(registered, verified, session)
      .when({ type: 'RevokeSession', data: { sessionId: 's1', now } })
      .then([{ type: 'SessionRevoked', data: { sessionId: 's1', revokedAt: iso(now) } }]);
    given(registered, verified, session, {
      type: 'SessionRevoked',
      data: { sessionId: 's1', revokedAt: iso(now) },
    })
      .when({ type: 'RevokeSession', data: { sessionId: 's1', now } })
      .thenNothing();
  });
});

describe('passwords', () => {
  it('changes the password when the current one matches', () =>
    given(registered, verified)
      .when({ type: 'ChangePassword', data: { currentPasswordMatches: true, passwordHash: 'hash-2', now } })
      .then([{ type: 'PasswordChanged', data: { passwordHash: 'hash-2', changedAt: iso(now) } }]));

  it('refuses when the current password is wrong', () =>
    given(registered, verified)
      .when({ type: 'ChangePassword', data: { currentPasswordMatches: false, passwordHash: 'hash-2', now } })
      .thenRefuses(400, ACCOUNT_MESSAGES.currentPasswordWrong));

  it('issues a reset code valid for 10 minutes', () =>
    given(registered, verified)
      .when({ type: 'RequestPasswordReset', data: { codeHash: 'r1', now } })
      .then([resetIssued]));

  it('refuses a reset for an unknown account', () =>
    given()
      .when({ type: 'RequestPasswordReset', data: { codeHash: 'r1', now } })
      .thenRefuses(404, 'No account found with this email'));

  it('verifies a reset code without using it up', () =>
    given(registered, verified, resetIssued)
      .when({ type: 'VerifyResetCode', data: { codeHash: 'r1', now } })
      .then([{ type: 'PasswordResetCodeVerified', data: { verifiedAt: iso(now) } }]));

  it('resets the password with the code', () =>
    given(registered, verified, session, resetIssued)
      .when({ type: 'ResetPassword', data: { codeHash: 'r1', passwordHash: 'hash-3', now } })
      .then([{ type: 'PasswordReset', data: { passwordHash: 'hash-3', resetAt: iso(now) } }]));

  it('a used reset code cannot be used again', () =>
    given(registered, verified, resetIssued, {
      type: 'PasswordReset',
      data: { passwordHash: 'hash-3', resetAt: iso(now) },
    })
      .when({ type: 'ResetPassword', data: { codeHash: 'r1', passwordHash: 'hash-4', now } })
      .thenRefuses(400, 'No reset code was requested for this email'));

  it('a wrong reset code is counted and refused', () =>
    given(registered, verified, resetIssued)
      .when({ type: 'ResetPassword', data: { codeHash: 'x', passwordHash: 'hash-4', now } })
      .thenRefuses(400, ACCOUNT_MESSAGES.codeInvalid, [
        { type: 'PasswordResetCodeRejected', data: { attempt: 1 } },
      ]));

  it('an expired reset code is refused', () =>
    given(registered, verified, resetIssued)
      .when({ type: 'ResetPassword', data: { codeHash: 'r1', passwordHash: 'hash-4', now: later(601) } })
      .thenRefuses(400, ACCOUNT_MESSAGES.codeExpired));
});

describe('profile', () => {
  it('updates phone, city and about', () =>
    given(registered, verified)
      .when({
        type: 'UpdateProfile',
        data: { phone: '+92 300 1234567', city: 'Lahore', about: 'Cat person' },
      })
      .then([
        { type: 'ProfileUpdated', data: { phone: '+92 300 1234567', city: 'Lahore', about: 'Cat person' } },
      ]));

  it('refuses profile changes before verification', () =>
    given(registered, codeIssued)
      .when({ type: 'UpdateProfile', data: { phone: '', city: 'Lahore', about: '' } })
      .thenRefuses(403, ACCOUNT_MESSAGES.emailNotVerified));

  it('changes and removes the profile image; removing none changes nothing', () => {
    given(registered, verified)
      .when({ type: 'ChangeProfileImage', data: { profileImage: '/api/images/a' } })
      .then([{ type: 'ProfileImageChanged', data: { profileImage: '/api/images/a' } }]);
    given(registered, verified, { type: 'ProfileImageChanged', data: { profileImage: '/api/images/a' } })
      .when({ type: 'RemoveProfileImage', data: {} })
      .then([{ type: 'ProfileImageRemoved', data: {} }]);
    given(registered, verified).when({ type: 'RemoveProfileImage', data: {} }).thenNothing();
  });
});

describe('Google and admin', () => {
  it('registers a Google user as verified straight away', () =>
    given()
      .when({
        type: 'RegisterWithGoogle',
        data: {
          userId: 'g1',
          username: 'Sara',
          usernameKeys: ['sara'],
          email: 'sara@gmail.com',
          googleSubject: 'sub-1',
          isVeterinarian: true,
          now,
        },
      })
      .then([
        {
          type: 'UserRegistered',
          data: {
            userId: 'g1',
            username: 'Sara',
            usernameKeys: ['sara'],
            email: 'sara@gmail.com',
            passwordHash: null,
            isVeterinarian: true,
            isAdmin: false,
            via: 'google',
            googleSubject: 'sub-1',
            registeredAt: iso(now),
          },
        },
      ]));

  it('linking Google to an unverified account verifies it and drops the unproven password', () =>
    given(registered, codeIssued)
      .when({ type: 'LinkGoogleAccount', data: { googleSubject: 'sub-1', now } })
      .then([
        { type: 'GoogleAccountLinked', data: { googleSubject: 'sub-1' } },
        { type: 'UnverifiedPasswordDiscarded', data: {} },
        { type: 'EmailVerified', data: { verifiedAt: iso(now) } },
      ]));

  it('bootstraps the admin once', () => {
    const cmd = {
      type: 'BootstrapAdmin' as const,
      data: {
        userId: 'a1',
        username: 'admin',
        usernameKeys: ['adrnin'],
        email: 'admin@x.pk',
        passwordHash: 'h',
        now,
      },
    };
    given()
      .when(cmd)
      .then([
        {
          type: 'UserRegistered',
          data: {
            userId: 'a1',
            username: 'admin',
            usernameKeys: ['adrnin'],
            email: 'admin@x.pk',
            passwordHash: 'h',
            isVeterinarian: false,
            isAdmin: true,
            via: 'bootstrap',
            registeredAt: iso(now),
          },
        },
      ]);
    given(registered).when(cmd).thenNothing();
  });
});

describe('an administrator deleting the account', () => {
  const deleteUser = { type: 'DeleteUser' as const, data: { deletedBy: 'admin-1', now } };
  const userDeleted: UserEvent = {
    type: 'UserDeleted',
    data: { userId: 'u1', deletedBy: 'admin-1', deletedAt: iso(now) },
  };
  const session2: UserEvent = { ...session, data: { ...session.data, sessionId: 's2' } } as UserEvent;
  const revoked = (sessionId: string): UserEvent => ({
    type: 'SessionRevoked',
    data: { sessionId, revokedAt: iso(now) },
  });
  const admin: UserEvent = {
    type: 'UserRegistered',
    data: { ...(registered.data as object), isAdmin: true, via: 'bootstrap' } as never,
  };

  it('ends every open session in the same append, then records UserDeleted', () =>
    given(registered, codeIssued, verified, session, session2, revoked('s2'))
      .when(deleteUser)
      .then([revoked('s1'), userDeleted]));

  it('also deletes an account that never verified its address', () =>
    given(registered, codeIssued).when(deleteUser).then([userDeleted]));

  it('a retry records nothing', () =>
    given(registered, codeIssued, verified, userDeleted).when(deleteUser).thenNothing());

  it('an unknown user is 404', () => given().when(deleteUser).thenRefuses(404, 'User not found'));

  it("an administrator's account (their own included) is refused", () =>
    given(admin)
      .when(deleteUser)
      .thenRefuses(403, 'Administrator accounts cannot be deleted from the dashboard'));

  it('a deleted account decides nothing more: no sign-in, no profile change, no new sign-up of the stream', () => {
    given(registered, codeIssued, verified, userDeleted)
      .when({
        type: 'StartSession',
        data: { sessionId: 's3', secretHash: 'x', rememberMe: false, rememberMeDays: 30, now },
      })
      .thenRefuses(404, 'User not found');
    given(registered, codeIssued, verified, userDeleted)
      .when({ type: 'UpdateProfile', data: { phone: '', city: 'Lahore', about: '' } })
      .thenRefuses(404, 'User not found');
    given(registered, codeIssued, verified, userDeleted)
      .when(register)
      .thenRefuses(410, 'This account was deleted');
    given(registered, codeIssued, verified, userDeleted)
      .when({ type: 'RevokeSession', data: { sessionId: 's1', now } })
      .thenNothing();
  });
});
