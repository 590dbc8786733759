import { describe, it } from 'vitest';
import { ACCOUNT_MESSAGES, type UserEvent } from '@pawhaven/contracts';
import { given, now, later, iso, registered, codeIssued, verified, session } from './user.fixture';

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
