import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import { NOTIFICATION_LIMITS, NOTIFICATION_MESSAGES } from '@pawhaven/contracts';
import { useSession } from '../shared/session';
import { PanelHeader } from '../shared/ui/PanelHeader';
import { ConnectionIndicator } from './ConnectionIndicator';
import { ConnectionError, NotificationActions, NotificationFeed, SignInFirst } from './NotificationFeed';

/**
 * /notifications: title, Mark All Read, Delete All (a dialog asks first), the list five at a time with Load More while
 * more exist, 'No notifications yet' without any. A click reads the notification and opens its post or adoption page.
 */
export default function NotificationsPage() {
  const { user, token, ready } = useSession();
  const signedIn = Boolean(user && token);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      <PanelHeader
        heading="h1"
        title={NOTIFICATION_MESSAGES.title}
        action={signedIn && <ConnectionIndicator />}
      />
      {!ready ? (
        <Skeleton variant="rounded" height={160} />
      ) : !signedIn ? (
        <SignInFirst />
      ) : (
        <>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, mb: 2 }}>
            <NotificationActions pageSize={NOTIFICATION_LIMITS.pagePageSize} />
            <ConnectionError />
          </Box>
          <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
            <NotificationFeed pageSize={NOTIFICATION_LIMITS.pagePageSize} />
          </Paper>
        </>
      )}
    </Container>
  );
}
