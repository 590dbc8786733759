import Avatar, { type AvatarProps } from '@mui/material/Avatar';

type Props = {
  username?: string | null;
  profileImage?: string | null;
  size?: number;
} & Omit<AvatarProps, 'src' | 'children'>;

/**
 * The profile image (a path served by the same host) or, when there is none or it fails to load, the first
 * letter of the username (a failed profile image is hidden and the initial shown).
 */
export function UserAvatar({ username, profileImage, size = 40, sx, ...rest }: Props) {
  const initial = (username?.trim()[0] ?? '?').toUpperCase();
  return (
    <Avatar
      src={profileImage || undefined}
      alt={username ?? 'User'}
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.45,
        bgcolor: 'primary.main',
        fontWeight: 700,
        ...sx,
      }}
      {...rest}
    >
      {initial}
    </Avatar>
  );
}
