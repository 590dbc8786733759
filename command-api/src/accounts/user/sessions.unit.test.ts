import { describe, it } from 'vitest';
import { given, now, iso, registered, verified, session } from './user.fixture';

describe('sessions recorded in the user stream (before sessions had streams of their own)', () => {
  it('revokes such a session once; revoking again, or an unknown one, changes nothing', () => {
    given(registered, verified, session)
      .when({ type: 'RevokeSession', data: { sessionId: 's1', now } })
      .then([{ type: 'SessionRevoked', data: { sessionId: 's1', revokedAt: iso(now) } }]);
    given(registered, verified, session, {
      type: 'SessionRevoked',
      data: { sessionId: 's1', revokedAt: iso(now) },
    })
      .when({ type: 'RevokeSession', data: { sessionId: 's1', now } })
      .thenNothing();
    given(registered, verified)
      .when({ type: 'RevokeSession', data: { sessionId: 's2', now } })
      .thenNothing();
  });
});
