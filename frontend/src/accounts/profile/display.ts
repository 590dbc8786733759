import { deriveUserType, type UserDto } from '@pawhaven/contracts';

/** 'regular user' → 'Regular User'; the spec shows userType capitalised, 'Standard User' when unknown. */
export function displayUserType(user: Pick<UserDto, 'userType' | 'isVeterinarian' | 'isAdmin'>): string {
  const raw =
    user.userType ||
    (typeof user.isVeterinarian === 'boolean' ? deriveUserType({ isVeterinarian: user.isVeterinarian, isAdmin: Boolean(user.isAdmin) }) : '') ||
    'Standard User';
  return raw
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export function formatDate(value: string | null | undefined, opts: Intl.DateTimeFormatOptions = { dateStyle: 'long' }) {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleDateString('en-US', opts);
}
