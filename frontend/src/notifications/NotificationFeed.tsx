import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ChatIcon from '@mui/icons-material/ChatBubbleOutline';
import CheckIcon from '@mui/icons-material/DoneAll';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import FavoriteIcon from '@mui/icons-material/FavoriteBorder';
import MedicalIcon from '@mui/icons-material/MedicalServicesOutlined';
import NotificationsOffIcon from '@mui/icons-material/NotificationsOffOutlined';
import PetsIcon from '@mui/icons-material/Pets';
import { NOTIFICATION_MESSAGES, type NotificationDto, type NotificationType } from '@pawhaven/contracts';
import { useRealtime } from '../realtime';
import { ConfirmDialog } from '../shared/ui/ConfirmDialog';
import { destinationOf, notificationId, relativeTime } from './format';
import { failureMessage } from './gate';
import {
  useDeleteAll,
  useDeleteNotification,
  useMarkAllRead,
  useMarkRead,
  useNotificationAccess,
  useNotificationList,
  useUnreadCount,
} from './hooks';
import { visuallyHidden } from '../shared/ui/visually-hidden';

/** The current time, moving on every 30 seconds so 'Just now' becomes '1m ago' on an open list. */
function useNow(everyMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

const ICONS: Record<NotificationType, typeof PetsIcon> = {
  post_like: FavoriteIcon,
  post_comment: ChatIcon,
  new_post_vet_notification: MedicalIcon,
  adoption_request: PetsIcon,
  adoption_request_accepted: PetsIcon,
  adoption_request_rejected: PetsIcon,
};

function NotificationItem({
  notification: n,
  now,
  onNavigate,
}: {
  notification: NotificationDto;
  now: number;
  onNavigate?: () => void;
}) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const remove = useDeleteNotification();
  const Icon = ICONS[n.type] ?? PetsIcon;
  const to = destinationOf(n);
  const when = relativeTime(n.createdAt, now);

  const open = () => {
    if (!n.read) markRead.mutate({ notification: n });
    if (to) {
      onNavigate?.();
      navigate(to);
    }
  };

  return (
    <ListItem
      disablePadding
      divider
      sx={{ alignItems: 'stretch', bgcolor: n.read ? 'transparent' : 'rgba(180, 70, 47, 0.06)' }}
    >
      <ListItemButton
        onClick={open}
        sx={{ alignItems: 'flex-start', gap: 1.5, py: 1.25, px: { xs: 1.25, sm: 2 }, minWidth: 0 }}
      >
        <Avatar
          aria-hidden
          sx={{
            width: 36,
            height: 36,
            mt: 0.25,
            bgcolor: n.read ? 'grey.200' : 'primary.light',
            color: n.read ? 'text.secondary' : 'primary.contrastText',
            display: { xs: 'none', sm: 'flex' },
          }}
        >
          <Icon fontSize="small" />
        </Avatar>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
            {!n.read && (
              <Box
                component="span"
                sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'primary.main', flexShrink: 0 }}
              >
                <Box component="span" sx={visuallyHidden}>
                  {NOTIFICATION_MESSAGES.unread}:{' '}
                </Box>
              </Box>
            )}
            <Typography
              component="span"
              variant="body2"
              sx={{ fontWeight: n.read ? 600 : 800, overflowWrap: 'anywhere' }}
            >
              {n.title}
            </Typography>
          </Box>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ overflowWrap: 'anywhere', display: 'block', mt: 0.25 }}
          >
            {n.message}
          </Typography>
          {when && (
            <Typography
              component="time"
              dateTime={n.createdAt}
              variant="caption"
              color="text.secondary"
              sx={{ display: 'block', mt: 0.5 }}
            >
              {when}
            </Typography>
          )}
        </Box>
      </ListItemButton>
      <Stack sx={{ justifyContent: 'center', pr: 0.5, flexShrink: 0 }}>
        {!n.read && (
          <Tooltip title={NOTIFICATION_MESSAGES.markRead}>
            <IconButton
              size="small"
              aria-label={`${NOTIFICATION_MESSAGES.markRead}: ${n.title}`}
              onClick={() => markRead.mutate({ notification: n, announce: true })}
            >
              <CheckIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <Tooltip title={NOTIFICATION_MESSAGES.deleteOne}>
          <IconButton
            size="small"
            aria-label={`${NOTIFICATION_MESSAGES.deleteOne}: ${n.title}`}
            onClick={() => remove.mutate(n)}
            disabled={remove.isPending}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
    </ListItem>
  );
}

/** 'Connection error: …' when the real-time channel or the backend has a problem. */
export function ConnectionError() {
  const { error } = useRealtime();
  if (!error) return null;
  return (
    <Alert severity="warning" sx={{ py: 0 }}>
      {NOTIFICATION_MESSAGES.connectionError}
      {error}
    </Alert>
  );
}

/**
 * The notifications, newest first, `pageSize` at a time with Load More while more exist; the gate's error (rate
 * limit, service not available) above them; 'No notifications yet' without any. Used by the bell's panel (20)
 * and the page (5).
 */
export function NotificationFeed({
  pageSize,
  open = true,
  onNavigate,
  scrollable = false,
}: {
  pageSize: number;
  open?: boolean;
  /** Called before a click leads to another page (the panel closes). */
  onNavigate?: () => void;
  scrollable?: boolean;
}) {
  const now = useNow();
  const { enabled, gate, retry } = useNotificationAccess();
  const { status } = useRealtime();
  const list = useNotificationList(pageSize, open);
  const items = list.notifications;

  const errorText = gate.error ?? (list.isError ? failureMessage(list.error, 'load') : null);
  const rateLimited =
    errorText === NOTIFICATION_MESSAGES.rateLimited || errorText === NOTIFICATION_MESSAGES.rateLimitedResume;

  let body;
  if (list.data === undefined) {
    if (list.isFetching || (enabled && status !== 'offline'))
      body = (
        <Stack spacing={1} sx={{ p: 2 }} aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={64} />
          ))}
        </Stack>
      );
    else body = null;
  } else if (items.length === 0)
    body = (
      <Box sx={{ textAlign: 'center', py: 5, px: 2 }}>
        <NotificationsOffIcon aria-hidden sx={{ fontSize: 40, color: 'text.disabled' }} />
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {NOTIFICATION_MESSAGES.empty}
        </Typography>
      </Box>
    );
  else
    body = (
      <List disablePadding aria-label={NOTIFICATION_MESSAGES.title}>
        {items.map((n) => (
          <NotificationItem key={notificationId(n)} notification={n} now={now} onNavigate={onNavigate} />
        ))}
      </List>
    );

  return (
    <Box
      sx={
        scrollable ? { overflowY: 'auto', flex: 1, minHeight: 0, overscrollBehavior: 'contain' } : undefined
      }
    >
      {errorText && (
        <Alert
          severity={rateLimited ? 'warning' : 'error'}
          sx={{ m: 1 }}
          action={
            !rateLimited && (
              <Button color="inherit" size="small" onClick={retry}>
                {NOTIFICATION_MESSAGES.tryAgain}
              </Button>
            )
          }
        >
          {errorText}
        </Alert>
      )}
      {body}
      {list.hasNextPage && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 1.5 }}>
          <Button
            variant="outlined"
            size="small"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage || !enabled}
          >
            {NOTIFICATION_MESSAGES.loadMore}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/**
 * Mark All Read (while something is unread) and Delete All (while the list holds anything; it asks first), for the
 * panel and the page: `pageSize` and `open` are those of the list shown beside them.
 */
export function NotificationActions({
  size = 'medium',
  pageSize,
  open = true,
}: {
  size?: 'small' | 'medium';
  pageSize: number;
  open?: boolean;
}) {
  const unread = useUnreadCount();
  const { enabled } = useNotificationAccess();
  const listed = useNotificationList(pageSize, open).notifications.length;
  const markAll = useMarkAllRead();
  const deleteAll = useDeleteAll();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          size={size}
          variant="outlined"
          startIcon={<CheckIcon />}
          onClick={() => markAll.mutate()}
          disabled={!enabled || unread === 0 || markAll.isPending}
        >
          {NOTIFICATION_MESSAGES.markAllRead}
        </Button>
        <Button
          size={size}
          variant="outlined"
          color="error"
          startIcon={<DeleteIcon />}
          onClick={() => setConfirming(true)}
          disabled={!enabled || listed === 0 || deleteAll.isPending}
        >
          {NOTIFICATION_MESSAGES.deleteAll}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={NOTIFICATION_MESSAGES.deleteAllTitle}
        confirmLabel={NOTIFICATION_MESSAGES.deleteAll}
        busyLabel={NOTIFICATION_MESSAGES.deleting}
        danger
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          deleteAll.mutate();
        }}
      >
        {NOTIFICATION_MESSAGES.deleteAllConfirm}
      </ConfirmDialog>
    </>
  );
}

/** For visitors on /notifications: sign in first. */
export function SignInFirst() {
  return (
    <Alert
      severity="warning"
      action={
        <Button component={RouterLink} to="/signin" color="inherit" size="small">
          {NOTIFICATION_MESSAGES.signIn}
        </Button>
      }
    >
      {NOTIFICATION_MESSAGES.authRequired}
    </Alert>
  );
}
