import { describe, it } from 'vitest';
import { type UserEvent } from '@pawhaven/contracts';
import { given, now, iso, registered, codeIssued, verified, session, register } from './user.fixture';

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

  it('ends every open session recorded in the user stream in the same append, then records UserDeleted', () =>
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

  it('a deleted account decides nothing more: no profile change, no new sign-up of the stream', () => {
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
