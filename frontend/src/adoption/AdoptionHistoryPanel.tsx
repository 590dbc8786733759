import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HistoryIcon from '@mui/icons-material/History';
import UndoIcon from '@mui/icons-material/Undo';
import { ADOPTION_MESSAGES, type AdoptionHistoryEntryDto } from '@pawhaven/contracts';
import { ApiError } from '../shared/api';
import { useSession } from '../shared/session';
import { adoptionApi, adoptionKeys } from './api';
import { ConfirmDialog } from '../shared/ui/ConfirmDialog';
import { PetImage } from '../shared/ui/PetImage';
import { RequestStatusChip } from './components/StatusChip';
import { shortDate, userIdOf } from './format';
import { useWithdrawRequest } from './hooks';
import { RetryAlert } from '../shared/ui/RetryAlert';

/** 'Server error: {status}' or the server's message or error. */
function historyError(err: unknown) {
  if (err instanceof ApiError)
    return err.serverMessage ?? (err.kind === 'http' ? `Server error: ${err.status}` : err.message);
  return 'Failed to load your adoption history';
}

/**
 * The signed-in user's own adoption requests, newest first: pet, request date, status, answer date, message and
 * reason; pending ones can be withdrawn. Used by /adoptionhistory and the profile's 'Adoption History' view.
 */
export function AdoptionHistoryPanel({
  heading = 'h2',
  title = 'Adoption History',
}: {
  heading?: 'h1' | 'h2';
  title?: string;
}) {
  const { user, token, ready } = useSession();
  const userId = userIdOf(user);
  const history = useQuery({
    queryKey: adoptionKeys.history(userId ?? ''),
    queryFn: adoptionApi.history,
    enabled: ready && Boolean(userId && token),
    staleTime: 0,
  });

  let body;
  if (!ready) body = <LoadingHistory />;
  else if (!user)
    body = (
      <Box sx={{ textAlign: 'center', py: { xs: 4, md: 6 } }}>
        <Typography variant="h6" component="p" gutterBottom>
          Please log in to view your adoption history
        </Typography>
        <Button component={RouterLink} to="/signin" variant="contained">
          Log In
        </Button>
      </Box>
    );
  else if (!token) body = <Alert severity="warning">No token found. Please log in again.</Alert>;
  else if (history.isPending) body = <LoadingHistory />;
  else if (history.isError)
    body = <RetryAlert onRetry={() => void history.refetch()}>{historyError(history.error)}</RetryAlert>;
  else if (history.data.length === 0)
    body = (
      <Box sx={{ textAlign: 'center', py: { xs: 4, md: 6 } }}>
        <HistoryIcon aria-hidden sx={{ fontSize: 48, color: 'primary.light' }} />
        <Typography variant="h6" component="p" sx={{ mt: 1 }}>
          {ADOPTION_MESSAGES.historyEmpty}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Pets you request to adopt will appear here.
        </Typography>
        <Button component={RouterLink} to="/adoption" variant="outlined">
          Browse pets
        </Button>
      </Box>
    );
  else
    body = (
      <Stack
        component="ul"
        spacing={2}
        sx={{ p: 0, m: 0, listStyle: 'none' }}
        aria-label="Your adoption requests"
      >
        {history.data.map((entry) => (
          <HistoryItem key={entry._id} entry={entry} />
        ))}
      </Stack>
    );

  return (
    <Box>
      <Typography
        variant={heading === 'h1' ? 'h4' : 'h5'}
        component={heading}
        sx={{ mb: 2, fontSize: heading === 'h1' ? { xs: '1.75rem', md: '2.125rem' } : undefined }}
      >
        {title}
      </Typography>
      {body}
    </Box>
  );
}

function LoadingHistory() {
  return (
    <Stack spacing={2} role="status" aria-label="Loading your adoption history">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} variant="rounded" height={120} />
      ))}
    </Stack>
  );
}

function HistoryItem({ entry }: { entry: AdoptionHistoryEntryDto }) {
  const nameId = useId();
  const [confirm, setConfirm] = useState(false);
  const withdraw = useWithdrawRequest();
  const requested = shortDate(entry.requestDate);
  const responded = shortDate(entry.responseDate);

  return (
    <Paper
      component="li"
      aria-labelledby={nameId}
      elevation={0}
      sx={{ border: 1, borderColor: 'divider', overflow: 'hidden' }}
    >
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '96px minmax(0, 1fr)', sm: '140px minmax(0, 1fr)' },
        }}
      >
        <PetImage
          src={entry.petImage}
          alt={`Photo of ${entry.petName}`}
          height="100%"
          sx={{ minHeight: 120 }}
        />
        <Box sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Typography
              id={nameId}
              variant="h6"
              component="h3"
              sx={{ wordBreak: 'break-word', lineHeight: 1.3 }}
            >
              {entry.petName}
            </Typography>
            <RequestStatusChip status={entry.status} />
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {entry.petType}
          </Typography>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'auto minmax(0, 1fr)',
              columnGap: 1.5,
              rowGap: 0.25,
              my: 1,
            }}
          >
            <Typography component="dt" variant="body2" color="text.secondary">
              Requested
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {requested ?? '—'}
            </Typography>
            {responded && (
              <>
                <Typography component="dt" variant="body2" color="text.secondary">
                  Answered
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {responded}
                </Typography>
              </>
            )}
            {entry.reason && (
              <>
                <Typography component="dt" variant="body2" color="text.secondary">
                  Reason
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                  {entry.reason}
                </Typography>
              </>
            )}
          </Box>
          {entry.message && (
            <Typography
              variant="body2"
              sx={{
                whiteSpace: 'pre-line',
                wordBreak: 'break-word',
                color: 'text.secondary',
                fontStyle: 'italic',
              }}
            >
              “{entry.message}”
            </Typography>
          )}
          {entry.status === 'accepted' && (
            <Typography variant="body2" sx={{ mt: 1, fontWeight: 700, color: 'success.main' }}>
              {ADOPTION_MESSAGES.adopted}
            </Typography>
          )}
          {entry.status === 'pending' && (
            <Button
              size="small"
              variant="outlined"
              color="primary"
              startIcon={<UndoIcon />}
              onClick={() => setConfirm(true)}
              disabled={withdraw.isPending}
              sx={{ mt: 1.5 }}
            >
              Withdraw request
            </Button>
          )}
        </Box>
      </Box>
      <ConfirmDialog
        open={confirm}
        title="Withdraw request"
        confirmLabel="Withdraw request"
        busyLabel="Withdrawing..."
        busy={withdraw.isPending}
        onClose={() => setConfirm(false)}
        onConfirm={() =>
          withdraw.mutate({ requestId: entry._id, adId: entry.adId }, { onSettled: () => setConfirm(false) })
        }
      >
        Withdraw your adoption request for {entry.petName}?
      </ConfirmDialog>
    </Paper>
  );
}
