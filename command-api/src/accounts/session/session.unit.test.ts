import { describe, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { codeIssued, iso, later, now, registered, verified } from '../user/user.fixture';
import { userDecider } from '../user';
import { sessionDecider, type SessionEvent } from '.';

const given = deciderSpec(sessionDecider);
const userAfter = (...events: Parameters<typeof userDecider.evolve>[1][]) =>
  events.reduce(userDecider.evolve, userDecider.initialState());

const start = (user = userAfter(registered, codeIssued, verified), rememberMe = false) => ({
  type: 'StartSession' as const,
  data: { user, userRevision: 2n, sessionId: 's1', secretHash: 'sh', rememberMe, rememberMeDays: 30, now },
});
const started = {
  type: 'SessionStarted',
  data: {
    sessionId: 's1',
    userId: 'u1',
    userRevision: 2,
    secretHash: 'sh',
    rememberMe: false,
    expiresAt: iso(later(86400)),
    startedAt: iso(now),
  },
} satisfies SessionEvent;
const revoked = {
  type: 'SessionRevoked',
  data: { sessionId: 's1', revokedAt: iso(now) },
} satisfies SessionEvent;
const revoke = { type: 'RevokeSession' as const, data: { now } };

describe('a session', () => {
  it('starts for a verified user for one day, naming the user and the revision it was decided on', () =>
    given().when(start()).then([started]));

  it('lasts the remember-me days when asked', () =>
    given()
      .when(start(undefined, true))
      .then([
        { ...started, data: { ...started.data, rememberMe: true, expiresAt: iso(later(30 * 86400)) } },
      ]));

  it('is refused before the e-mail is verified, and for an unknown or deleted account', () => {
    const deleted = {
      type: 'UserDeleted',
      data: { userId: 'u1', deletedBy: 'a1', deletedAt: iso(now) },
    } as const;
    given()
      .when(start(userAfter(registered, codeIssued, verified, deleted)))
      .thenRefuses(404, 'User not found');
    given()
      .when(start(userAfter(registered, codeIssued)))
      .thenRefuses(403, ACCOUNT_MESSAGES.emailNotVerified);
    given().when(start(userAfter())).thenRefuses(404, 'User not found');
  });

  it('starts once: the same sign-in retried adds nothing', () => given(started).when(start()).thenNothing());

  it('is revoked once; revoking again, or a session never started, changes nothing', () => {
    given(started).when(revoke).then([revoked]);
    given(started, revoked).when(revoke).thenNothing();
    given().when(revoke).thenNothing();
  });
});
