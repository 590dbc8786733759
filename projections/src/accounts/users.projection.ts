import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

/** A `users` row as `apply` leaves it, every column included (defaults from migration 0100). */
type UserRow = {
  id: string;
  username: string;
  email: string;
  phone: string;
  city: string;
  about: string;
  profile_image: string | null;
  is_veterinarian: boolean;
  is_admin: boolean;
  verified: boolean;
  joined_date: string;
  last_active: string | null;
};

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
  fold: () => {
    const users = new Map<string, UserRow>();
    return {
      apply(recorded) {
        const event = { type: recorded.type, data: recorded.data } as UserEvent;
        if (event.type === 'UserRegistered') {
          const d = event.data;
          // An absent flag is the column's DEFAULT, as knex binds it in the INSERT (and so in EXCLUDED).
          const registration = {
            username: d.username,
            email: d.email,
            is_veterinarian: d.isVeterinarian ?? false,
            is_admin: d.isAdmin ?? false,
            verified: d.via !== 'password',
            joined_date: d.registeredAt,
          };
          const known = users.get(d.userId);
          // A registration again: the merged columns change, the profile and last activity stay.
          if (known) Object.assign(known, registration);
          else
            users.set(d.userId, {
              id: d.userId,
              ...registration,
              phone: '',
              city: '',
              about: '',
              profile_image: null,
              last_active: null,
            });
          return;
        }
        const id = userIdOfStream(recorded.streamId);
        const user = users.get(id);
        if (!user) return; // an UPDATE of nobody changes nothing
        switch (event.type) {
          // An UPDATE leaves out the columns whose value is undefined (knex), so these keep theirs then.
          case 'RegistrationRenewed':
            user.username = event.data.username ?? user.username;
            user.is_veterinarian = event.data.isVeterinarian ?? user.is_veterinarian;
            return;
          case 'EmailVerified':
            user.verified = true;
            return;
          case 'SessionStarted':
            if (event.data.startedAt !== undefined) user.last_active = event.data.startedAt;
            return;
          case 'ProfileUpdated':
            user.phone = event.data.phone ?? user.phone;
            user.city = event.data.city ?? user.city;
            user.about = event.data.about ?? user.about;
            return;
          case 'ProfileImageChanged':
            if (event.data.profileImage !== undefined) user.profile_image = event.data.profileImage;
            return;
          case 'ProfileImageRemoved':
            user.profile_image = null;
            return;
          case 'UserDeleted':
            users.delete(id);
            return;
          default:
            return;
        }
      },
      rows: () => ({ users: users.values() }),
    };
  },
});
