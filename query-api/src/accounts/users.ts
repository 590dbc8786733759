import { deriveUserType, type PublicUserDto, type UserDto } from '@pawhaven/contracts';
import type { Presence } from '../realtime/presence';

export type UserRow = {
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
  joined_date: Date;
  last_active: Date | null;
};

export const toUserDto = (r: UserRow, presence: Presence): UserDto => ({
  _id: r.id,
  id: r.id,
  username: r.username,
  email: r.email,
  phone: r.phone,
  city: r.city,
  about: r.about,
  profileImage: r.profile_image,
  isVeterinarian: r.is_veterinarian,
  isAdmin: r.is_admin,
  userType: deriveUserType({ isVeterinarian: r.is_veterinarian, isAdmin: r.is_admin }),
  joinedDate: r.joined_date.toISOString(),
  lastActive: r.last_active?.toISOString() ?? null,
  status: presence.isOnline(r.id) ? 'online' : 'offline',
});

/** What anyone may see of a user: no e-mail or phone. */
export const toPublicUserDto = (r: UserRow, presence: Presence): PublicUserDto => {
  const { email: _e, phone: _p, ...rest } = toUserDto(r, presence);
  return rest;
};
