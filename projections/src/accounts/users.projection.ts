import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

/** `users`: one row per registered user, as profiles, lists and the admin dashboard read them. */
export const usersProjection = defineProjection({
  name: 'users',
  tables: ['users'],
  handles: [
    'UserRegistered',
    'RegistrationRenewed',
    'EmailVerified',
    'SessionStarted',
    'ProfileUpdated',
    'ProfileImageChanged',
    'ProfileImageRemoved',
    'UserDeleted',
  ] satisfies UserEvent['type'][],
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    const id = userIdOfStream(recorded.streamId);
    const users = () => tx('users').where({ id });
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        await tx('users')
          .insert({
            id: d.userId,
            username: d.username,
            email: d.email,
            is_veterinarian: d.isVeterinarian,
            is_admin: d.isAdmin,
            verified: d.via !== 'password',
            joined_date: d.registeredAt,
          })
          // A lapsed sign-up's stream can be registered again (by Google): the new registration wins.
          .onConflict('id')
          .merge(['username', 'email', 'is_veterinarian', 'is_admin', 'verified', 'joined_date']);
        return;
      }
      case 'RegistrationRenewed':
        await users().update({ username: event.data.username, is_veterinarian: event.data.isVeterinarian });
        return;
      case 'EmailVerified':
        await users().update({ verified: true });
        return;
      case 'SessionStarted':
        await users().update({ last_active: event.data.startedAt });
        return;
      case 'ProfileUpdated':
        await users().update({ phone: event.data.phone, city: event.data.city, about: event.data.about });
        return;
      case 'ProfileImageChanged':
        await users().update({ profile_image: event.data.profileImage });
        return;
      case 'ProfileImageRemoved':
        await users().update({ profile_image: null });
        return;
      case 'UserDeleted':
        await users().delete();
        return;
      default:
        return;
    }
  },
});
