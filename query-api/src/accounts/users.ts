import { deriveUserType, type PublicUserDto, type UserDto } from '@pawhaven/contracts';
import type { UserRow as UsersTableRow } from '@pawhaven/projections';
import type { Presence } from '../realtime/presence';

/** A `users` row as `pg` reads it (the projection declares the columns). */
export type UserRow = UsersTableRow<Date>;

/**
 * The columns of a UserRow, from `users u`: `last_active` is the later of the last sign-in (users) and the last
 * recorded activity (user_activity `ua`, which the caller joins on `ua.user_id = u.id`).
 */
export const USER_COLUMNS = `u.id, u.username, u.email, u.phone, u.city, u.about, u.profile_image,
  u.is_veterinarian, u.is_admin, u.verified, u.joined_date,
  GREATEST(u.last_active, ua.last_active) AS last_active`;

/** What a profile page counts besides the user: posts, and adoption ads still available. */
export type ProfileCounts = { post_count: number; adoption_ad_count: number };

export const PROFILE_COUNT_COLUMNS = `
  (SELECT count(*) FROM posts p WHERE p.author_id = u.id)::int AS post_count,
  (SELECT count(*) FROM adoption_ads a
   WHERE a.owner_id = u.id AND a.status = 'available' AND a.deleted_at IS NULL)::int AS adoption_ad_count`;

export const withCounts = <T extends object>(dto: T, r: ProfileCounts) => ({
  ...dto,
  postCount: r.post_count,
  adoptionAdCount: r.adoption_ad_count,
});

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
