import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ReplayIcon from '@mui/icons-material/Replay';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HttpError } from 'react-admin';
import {
  ADMIN_MESSAGES,
  ADMIN_SOCKET_EVENTS,
  type AdminProjectionDto,
  type AdminProjectionsDto,
  type AdminRebuildState,
  type RebuildAcceptedDto,
} from '@pawhaven/contracts';
import { useRealtime } from '../../realtime';
import { PageHeading } from '../components/ListParts';
import { adminFetch } from '../httpClient';
import { formatCount, formatDateTime, formatEta } from '../format';
import { newerRebuildState } from './rebuild-state';

const PROJECTIONS_KEY = ['admin', 'projections'] as const;
/** Only when the socket is down: how often the rebuild's state is asked for instead. */
const FALLBACK_POLL_MS = 1000;

/** The live bar of the running (or last) rebuild: events done, events/s, ETA. */
function RebuildProgress({ state }: { state: AdminRebuildState }) {
  const running = state.state === 'running';
  const what =
    state.target !== 'all'
      ? state.target
      : state.index === 0
        ? // Every projection folds the same read of the log; then each is written in turn.
          `all projections (reading the ${state.current} once for all ${state.count})`
        : `all projections (${state.index}/${state.count}: ${state.current})`;
  return (
    <Card sx={{ mb: 2 }} component="section" aria-label="Rebuild progress">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {running ? 'Rebuilding' : state.state === 'finished' ? 'Rebuilt' : 'Rebuild failed'}: {what}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={state.percent}
          color={state.state === 'failed' ? 'error' : state.state === 'finished' ? 'success' : 'primary'}
          aria-label="Rebuild progress"
          sx={{ height: 10, borderRadius: 5, mb: 1 }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
          <Typography variant="body2" data-testid="rebuild-percent">
            {state.percent} %
          </Typography>
          <Typography variant="body2">
            {formatCount(state.processed)} / {formatCount(state.total)} events
          </Typography>
          <Typography variant="body2">{formatCount(Math.round(state.eventsPerSecond))} events/s</Typography>
          {running && <Typography variant="body2">ETA {formatEta(state.etaSeconds)}</Typography>}
          {state.finishedAt && (
            <Typography variant="body2" color="text.secondary">
              finished {formatDateTime(state.finishedAt)}
            </Typography>
          )}
        </Box>
        {state.error && (
          <Typography color="error" variant="body2" sx={{ mt: 1 }}>
            {state.error}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function RowsCell({ tables }: { tables: AdminProjectionDto['tables'] }) {
  return (
    <Box>
      {tables.map((t) => (
        <Typography key={t.name} variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {t.name}: {t.estimated ? '~' : ''}
          {formatCount(t.rows)}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * Projections (issue 10): every read model with its checkpoint, lag, held-back state, last error and rows; a
 * Rebuild per projection and for all. The rebuild runs in the server (beside the live tables, swapped in one
 * transaction); its progress arrives over the socket. A second request while one runs answers 409.
 */
export function ProjectionsPage() {
  const queryClient = useQueryClient();
  const { socket, status } = useRealtime();
  const [pushed, setPushed] = useState<AdminRebuildState | null>(null);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error' | 'warning'; text: string } | null>(
    null,
  );
  const [sending, setSending] = useState(false);

  const projections = useQuery({
    queryKey: PROJECTIONS_KEY,
    queryFn: ({ signal }) => adminFetch<AdminProjectionsDto>('/projections', { signal }),
    // Checkpoints and lag move all the time: never from the 5-minute cache.
    staleTime: 0,
  });

  const current = newerRebuildState(pushed, projections.data?.rebuild);
  const running = current?.state === 'running';

  // Without a socket the bar still moves: the state is asked for while a rebuild runs.
  const fallback = useQuery({
    queryKey: ['admin', 'rebuild'],
    queryFn: ({ signal }) => adminFetch<AdminRebuildState | null>('/projections/rebuild', { signal }),
    enabled: running && status !== 'realtime',
    refetchInterval: FALLBACK_POLL_MS,
    staleTime: 0,
  });
  const shown = newerRebuildState(current, fallback.data);

  useEffect(() => {
    if (!socket) return;
    const onProgress = (state: AdminRebuildState) => {
      setPushed((prev) => newerRebuildState(prev, state));
      if (state.state !== 'running') void queryClient.invalidateQueries({ queryKey: PROJECTIONS_KEY });
    };
    socket.on(ADMIN_SOCKET_EVENTS.rebuildProgress, onProgress);
    return () => {
      socket.off(ADMIN_SOCKET_EVENTS.rebuildProgress, onProgress);
    };
  }, [socket, queryClient]);

  // A rebuild that ended while we were polling refreshes the table too.
  const shownState = shown?.state;
  useEffect(() => {
    if (shownState && shownState !== 'running')
      void queryClient.invalidateQueries({ queryKey: PROJECTIONS_KEY });
  }, [shownState, queryClient]);

  const rebuild = async (name: string) => {
    setSending(true);
    setNotice(null);
    try {
      const accepted = await adminFetch<RebuildAcceptedDto>('/projections/rebuild', {
        method: 'POST',
        body: JSON.stringify({ name }),
      });
      setNotice({ severity: 'success', text: `${accepted.message}: ${accepted.names.join(', ')}` });
      void queryClient.invalidateQueries({ queryKey: PROJECTIONS_KEY });
    } catch (err) {
      const conflict = err instanceof HttpError && err.status === 409;
      setNotice({
        severity: conflict ? 'warning' : 'error',
        text: err instanceof Error && err.message ? err.message : ADMIN_MESSAGES.rebuildRunning,
      });
    } finally {
      setSending(false);
    }
  };

  const data = projections.data;
  return (
    <>
      <PageHeading
        actions={
          <Button
            variant="contained"
            startIcon={<ReplayIcon />}
            disabled={sending}
            onClick={() => void rebuild('all')}
          >
            Rebuild all
          </Button>
        }
      >
        Projections
      </PageHeading>
      {notice && (
        <Alert severity={notice.severity} sx={{ mb: 2 }} onClose={() => setNotice(null)} role="alert">
          {notice.text}
        </Alert>
      )}
      {shown && <RebuildProgress state={shown} />}
      {projections.isPending && <Typography>{ADMIN_MESSAGES.loading}</Typography>}
      {projections.error && (
        <Typography color="error" role="alert">
          {projections.error.message}
        </Typography>
      )}
      {data && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Head of the log: position {data.headPosition}
          </Typography>
          {data.heldBack.heldBack && (
            <Alert severity="warning" sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>
              {`${formatCount(data.heldBack.events)} events held back for ${data.heldBack.seconds} s.\n${data.heldBack.description}`}
            </Alert>
          )}
          <Card sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Projections">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Checkpoint</TableCell>
                  <TableCell align="right">Lag</TableCell>
                  <TableCell>Held back</TableCell>
                  <TableCell>Last error</TableCell>
                  <TableCell>Rows</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.projections.map((p) => {
                  // The pushed progress is fresher than the list, which may have been read a moment earlier.
                  const rebuildingNow = shown
                    ? shown.state === 'running' && shown.current === p.name
                    : p.rebuilding;
                  return (
                    <TableRow key={p.name} data-testid="projection-row" data-name={p.name}>
                      <TableCell sx={{ fontWeight: 500 }}>{p.name}</TableCell>
                      <TableCell>
                        <Typography variant="body2">{p.position}</Typography>
                        <Typography variant="caption" color="text.secondary">
                          {formatDateTime(p.updatedAt)}
                        </Typography>
                      </TableCell>
                      <TableCell align="right">{formatCount(p.lag)}</TableCell>
                      <TableCell>
                        {p.heldBack > 0
                          ? `${formatCount(p.heldBack)} since ${formatDateTime(p.heldBackSince)}`
                          : 'no'}
                      </TableCell>
                      <TableCell sx={{ maxWidth: 260 }}>
                        {p.lastError ? (
                          <Typography variant="body2" color="error" title={formatDateTime(p.lastErrorAt)}>
                            {p.lastError}
                          </Typography>
                        ) : (
                          '—'
                        )}
                      </TableCell>
                      <TableCell>
                        <RowsCell tables={p.tables} />
                      </TableCell>
                      <TableCell>
                        <Button
                          size="small"
                          startIcon={<ReplayIcon />}
                          // Left enabled while a rebuild runs: the server's 409 says why clearly.
                          disabled={sending}
                          onClick={() => void rebuild(p.name)}
                          aria-label={`Rebuild ${p.name}`}
                        >
                          {rebuildingNow ? 'Rebuilding…' : 'Rebuild'}
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Card>
        </>
      )}
    </>
  );
}
