import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import NotificationsIcon from '@mui/icons-material/NotificationsNoneOutlined';
import { NOTIFICATION_LIMITS, NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { ConnectionIndicator } from './ConnectionIndicator';
import { badgeText } from './format';
import { useNotificationsLive, useUnreadCount } from './hooks';
import { ConnectionError, NotificationActions, NotificationFeed } from './NotificationFeed';

/**
 * The header's bell for signed-in users: the unread badge ('99+' above 99) and a panel with the latest 20, Mark All
 * Read, Delete All (asks first), the connection indicator, 'Connection error: …' and a 'View all' link to
 * /notifications. It also keeps the notifications live for the whole app.
 */
export function NotificationBell() {
  useNotificationsLive();
  const count = useUnreadCount();
  const badge = badgeText(count);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = Boolean(anchor);
  const panelId = useId();
  const titleId = useId();
  const close = () => setAnchor(null);

  return (
    <>
      <Tooltip title={NOTIFICATION_MESSAGES.title}>
        <IconButton
          color="inherit"
          aria-label={
            badge ? `${NOTIFICATION_MESSAGES.title} (${badge} unread)` : NOTIFICATION_MESSAGES.title
          }
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge badgeContent={badge} color="error" invisible={!badge}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={panelId}
        open={open}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        marginThreshold={8}
        slotProps={{
          paper: {
            role: 'dialog',
            'aria-labelledby': titleId,
            sx: {
              width: 400,
              maxWidth: 'calc(100vw - 16px)',
              maxHeight: 'min(640px, calc(100dvh - 88px))',
              display: 'flex',
              flexDirection: 'column',
              borderRadius: 3,
            },
          },
        }}
      >
        <Box sx={{ px: 2, pt: 1.5, pb: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography id={titleId} variant="h6" component="h2" sx={{ flex: 1, minWidth: 0 }}>
              {NOTIFICATION_MESSAGES.title}
            </Typography>
            <ConnectionIndicator />
            <IconButton size="small" aria-label={NOTIFICATION_MESSAGES.close} onClick={close} edge="end">
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          <NotificationActions size="small" pageSize={NOTIFICATION_LIMITS.panelPageSize} open={open} />
          <ConnectionError />
        </Box>
        <Divider />
        <NotificationFeed
          pageSize={NOTIFICATION_LIMITS.panelPageSize}
          open={open}
          onNavigate={close}
          scrollable
        />
        <Divider />
        <Box sx={{ p: 1, display: 'flex', justifyContent: 'center' }}>
          <Button component={Link} to="/notifications" onClick={close} size="small">
            {NOTIFICATION_MESSAGES.viewAll}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
