import { deriveUserType, type UserDto } from '@pawhaven/contracts';
import type { UserState } from './user';

/** The write model answers commands with the user as it is right now, so responses never lag the projection. */
export const userDto = (s: UserState): UserDto => ({
  _id: s.userId,
  id: s.userId,
  username: s.username,
  email: s.email,
  phone: s.phone,
  city: s.city,
  about: s.about,
  profileImage: s.profileImage,
  isVeterinarian: s.isVeterinarian,
  isAdmin: s.isAdmin,
  userType: deriveUserType(s),
  joinedDate: s.registeredAt,
  lastActive: s.lastActive,
  status: 'online',
});
