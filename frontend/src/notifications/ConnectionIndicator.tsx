import Box from '@mui/material/Box';
import { NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { useRealtime, type RealtimeStatus } from '../realtime';

const LOOK: Record<RealtimeStatus, { label: string; color: string }> = {
  realtime: { label: NOTIFICATION_MESSAGES.realtime, color: 'success.main' },
  polling: { label: NOTIFICATION_MESSAGES.polling, color: 'warning.main' },
  offline: { label: NOTIFICATION_MESSAGES.offline, color: 'text.disabled' },
};

/** Real-time, Polling or Offline: how the notifications reach this page now. */
export function ConnectionIndicator() {
  const { status } = useRealtime();
  const { label, color } = LOOK[status];
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        px: 1,
        py: 0.25,
        borderRadius: 999,
        border: 1,
        borderColor: 'divider',
        fontSize: '0.75rem',
        fontWeight: 700,
        color: 'text.secondary',
        whiteSpace: 'nowrap',
      }}
    >
      <Box component="span" aria-hidden sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: color }} />
      {label}
    </Box>
  );
}
