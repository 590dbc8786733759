import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, type UserEvent } from '@pawhaven/contracts';
import { evolveUser, initialUserState } from '.';
import {
  given,
  now,
  later,
  iso,
  HOUR,
  registered,
  legacyRegistered,
  codeIssued,
  verified,
  rejected,
  register,
  verify,
} from './user.fixture';

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
