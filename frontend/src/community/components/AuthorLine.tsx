import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AuthorDto } from '@pawhaven/contracts';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { VetBadge } from '../../shared/ui/VetBadge';
import { authorIdOf, authorName } from '../format';

/**
 * The author of a post or comment: avatar (or initial) and name, both leading to the public profile, the vet badge
 * ('Veterinarian' on posts, 'Vet' on comments), and the date under the name.
 */
export function AuthorLine({
  item,
  date,
  avatarSize = 44,
  badgeLabel = 'Veterinarian',
  nameVariant = 'subtitle1',
  dateHref,
}: {
  item: { userId: AuthorDto | null };
  date: string | null;
  /** Where the date leads (a post's card: the post's page). */
  dateHref?: string;
  avatarSize?: number;
  badgeLabel?: string;
  nameVariant?: 'subtitle1' | 'subtitle2' | 'body2';
}) {
  const authorId = authorIdOf(item);
  const name = authorName(item);
  const profile = authorId ? `/profile/public/${authorId}` : null;
  const avatar = (
    <UserAvatar username={name} profileImage={item.userId?.profileImage} size={avatarSize} alt="" />
  );
  return (
    <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', minWidth: 0 }}>
      {profile ? (
        <Box
          component={RouterLink}
          to={profile}
          tabIndex={-1}
          aria-hidden
          sx={{ borderRadius: '50%', display: 'inline-flex', flexShrink: 0, textDecoration: 'none' }}
        >
          {avatar}
        </Box>
      ) : (
        avatar
      )}
      <Box sx={{ minWidth: 0 }}>
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.25 }}>
          <Typography
            variant={nameVariant}
            component="span"
            sx={{ fontWeight: 800, wordBreak: 'break-word' }}
          >
            {profile ? (
              <Link component={RouterLink} to={profile} color="inherit" underline="hover">
                {name}
              </Link>
            ) : (
              name
            )}
          </Typography>
          {item.userId?.isVeterinarian && <VetBadge label={badgeLabel} />}
        </Stack>
        {date && (
          <Typography variant="caption" color="text.secondary" component="div">
            {dateHref ? (
              <Link component={RouterLink} to={dateHref} color="inherit" underline="hover">
                {date}
              </Link>
            ) : (
              date
            )}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}
