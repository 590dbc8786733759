import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

/**
 * A `users` row, every column included; readers import it. `Time` is how a timestamp reads: ISO text in the model's
 * `evolve`, a `Date` from the `pg` driver.
 */
export type UserRow<Time = string> = {
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
  joined_date: Time;
  last_active: Time | null;
};

/** `users`: one row per registered user, as profiles, lists and the admin dashboard read them. */
export const usersProjection = defineReadModel<{ users: UserRow }>({
  name: 'users',
  tables: { users: { key: ['id'] } },
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
  evolve({ users }, recorded) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    if (event.type === 'UserRegistered') {
      const d = event.data;
      const registration = {
        username: d.username,
        email: d.email,
        is_veterinarian: d.isVeterinarian ?? false,
        is_admin: d.isAdmin ?? false,
        verified: d.via !== 'password',
        joined_date: d.registeredAt,
      };
      const known = users.get(d.userId);
      // A lapsed sign-up's stream can be registered again (by Google): the registration's columns are the new
      // one's, the profile and last activity stay.
      users.put(
        known
          ? { ...known, ...registration }
          : {
              id: d.userId,
              ...registration,
              phone: '',
              city: '',
              about: '',
              profile_image: null,
              last_active: null,
            },
      );
      return;
    }
    // A session's own stream names its user in the event; every other event is in the user's stream.
    const id =
      event.type === 'SessionStarted' && event.data.userId !== undefined
        ? event.data.userId
        : userIdOfStream(recorded.streamId);
    const user = users.get(id);
    if (!user) return; // nobody to change
    // A field an event leaves out keeps its value.
    switch (event.type) {
      case 'RegistrationRenewed':
        users.put({
          ...user,
          username: event.data.username ?? user.username,
          is_veterinarian: event.data.isVeterinarian ?? user.is_veterinarian,
        });
        return;
      case 'EmailVerified':
        users.put({ ...user, verified: true });
        return;
      case 'SessionStarted':
        if (event.data.startedAt !== undefined) users.put({ ...user, last_active: event.data.startedAt });
        return;
      case 'ProfileUpdated':
        users.put({
          ...user,
          phone: event.data.phone ?? user.phone,
          city: event.data.city ?? user.city,
          about: event.data.about ?? user.about,
        });
        return;
      case 'ProfileImageChanged':
        if (event.data.profileImage !== undefined)
          users.put({ ...user, profile_image: event.data.profileImage });
        return;
      case 'ProfileImageRemoved':
        users.put({ ...user, profile_image: null });
        return;
      case 'UserDeleted':
        users.delete(id);
        return;
      default:
        return;
    }
  },
});
