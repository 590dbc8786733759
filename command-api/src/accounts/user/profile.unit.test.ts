import { describe, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { given, registered, codeIssued, verified } from './user.fixture';

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
