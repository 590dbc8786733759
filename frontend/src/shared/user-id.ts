import type { UserDto } from '@pawhaven/contracts';

/** The signed-in user's id (responses carry both `_id` and `id`). */
export const userIdOf = (user: Pick<UserDto, 'id' | '_id'> | null | undefined) =>
  user ? user.id || user._id || null : null;
