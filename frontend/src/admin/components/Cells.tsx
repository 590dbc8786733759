import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography, { type TypographyProps } from '@mui/material/Typography';
import HistoryIcon from '@mui/icons-material/History';
import { Link, useCreatePath, useRecordContext } from 'react-admin';
import type { AdminUserRef } from '@pawhaven/contracts';
import { formatDateTime } from '../format';

/**
 * An e-mail address in a table: on one line, cut with an ellipsis where the column is too narrow, the whole address
 * in its title (hover) and to screen readers (only the drawing is cut), never broken mid-word.
 */
export function EmailText({ email, ...props }: { email: string } & TypographyProps) {
  return (
    <Typography
      variant="body2"
      noWrap
      title={email}
      data-testid="email"
      {...props}
      sx={{ display: 'block', maxWidth: { xs: 150, sm: 240, lg: 360 }, ...props.sx }}
    >
      {email}
    </Typography>
  );
}

/** A populated user: username over e-mail; 'deleted user' when the account is gone. */
export function UserCell({ user }: { user: AdminUserRef | null | undefined }) {
  if (!user)
    return (
      <Typography variant="body2" color="text.secondary" fontStyle="italic">
        deleted user
      </Typography>
    );
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2">{user.username}</Typography>
      <EmailText email={user.email} variant="caption" color="text.secondary" />
    </Box>
  );
}

/** A date column: the day over the time, so the tables stay narrow. */
export function DateCell({ source = 'createdAt' }: { source?: string; label?: string }) {
  const record = useRecordContext<Record<string, string | null>>();
  const value = record?.[source];
  const date = value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  return (
    <Typography
      variant="body2"
      component="span"
      sx={{ whiteSpace: 'nowrap', display: 'block' }}
      title={formatDateTime(value)}
    >
      {date.toLocaleDateString(undefined, { dateStyle: 'medium' })}
      <Typography variant="caption" color="text.secondary" display="block">
        {date.toLocaleTimeString(undefined, { timeStyle: 'short' })}
      </Typography>
    </Typography>
  );
}

/** 'History': the audit timeline of an ad (adoptions' show view). */
export function HistoryLink({ adId }: { adId: string | null | undefined }) {
  const createPath = useCreatePath();
  if (!adId) return null;
  return (
    <Button
      component={Link}
      to={createPath({ resource: 'adoptions', id: adId, type: 'show' })}
      size="small"
      startIcon={<HistoryIcon />}
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
    >
      History
    </Button>
  );
}
