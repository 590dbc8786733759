import { deriveUserType, type UserDto } from '@pawhaven/contracts';

/** 'regular user' → 'Regular User'; userType is shown capitalised, 'Standard User' when unknown. */
export function displayUserType(user: Pick<UserDto, 'userType' | 'isVeterinarian' | 'isAdmin'>): string {
  const raw =
    user.userType ||
    (typeof user.isVeterinarian === 'boolean'
      ? deriveUserType({ isVeterinarian: user.isVeterinarian, isAdmin: Boolean(user.isAdmin) })
      : '') ||
    'Standard User';
  return raw
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export function formatDate(
  value: string | null | undefined,
  opts: Intl.DateTimeFormatOptions = { dateStyle: 'long' },
) {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleDateString('en-US', opts);
}

/** 'Less than an hour ago', '{n} hour(s) ago', '{n} day(s) ago', 'Never'. */
export function relativeActive(value: string | null | undefined, now = Date.now()): string {
  if (!value) return 'Never';
  const t = new Date(value).getTime();
  if (Number.isNaN(t)) return 'Never';
  const hours = (now - t) / 3_600_000;
  if (hours < 1) return 'Less than an hour ago';
  if (hours < 24) {
    const n = Math.floor(hours);
    return `${n} hour${n === 1 ? '' : 's'} ago`;
  }
  const n = Math.floor(hours / 24);
  return `${n} day${n === 1 ? '' : 's'} ago`;
}
