import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link, ShowBase, useBasename, useShowContext } from 'react-admin';
import { ADMIN_MESSAGES } from '@pawhaven/contracts';
import { AdStatusBadge } from '../components/StatusBadge';
import { PageHeading } from '../components/ListParts';
import { ADOPTION_HISTORY, type AdoptionHistoryRecord } from '../dataProvider';
import { formatDateTime } from '../format';

/** Splits 'AdoptionRequestAccepted' into 'Adoption request accepted'. */
const eventLabel = (type: string) =>
  type
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/^(\w)(.*)$/, (_, a: string, b: string) => a + b.toLowerCase());

/**
 * An ad's audit timeline: every status change of the ad and of its requests, in log order, with who did it and
 * when. This is the adoptions resource's show view: the show controller (ShowBase) reads the ad's history through
 * the data provider's `getOne` (the id from the route). Show's own view is left out: its card, its title in the app
 * bar and its margin would change the page; a failed read stays on the page with its message instead of
 * react-admin's 'item not found' notice and return to the list.
 */
export function AdoptionHistory() {
  return (
    <ShowBase<AdoptionHistoryRecord>
      resource={ADOPTION_HISTORY}
      // The audit is evidence: always read it fresh, never from the dashboard's 5-minute cache.
      queryOptions={{ staleTime: 0, onError: () => undefined }}
    >
      <HistoryView />
    </ShowBase>
  );
}

function HistoryView() {
  const basename = useBasename();
  const { record: data, error, isPending } = useShowContext<AdoptionHistoryRecord>();
  const title = data?.ad ? `History of ${data.ad.name}` : 'History';
  return (
    <>
      <PageHeading
        actions={
          <Button component={Link} to={`${basename}/adoptions`} startIcon={<ArrowBackIcon />}>
            Adoptions
          </Button>
        }
      >
        {title}
      </PageHeading>
      {data?.ad && (
        <Typography sx={{ mb: 1, display: 'flex', gap: 1, alignItems: 'center' }}>
          Current status: <AdStatusBadge status={data.ad.status} />
        </Typography>
      )}
      {isPending && <Typography>{ADMIN_MESSAGES.loading}</Typography>}
      {error && (
        <Typography color="error" role="alert">
          {error.message || ADMIN_MESSAGES.fetchAdoptionsFailed}
        </Typography>
      )}
      {data && data.timeline.length === 0 && <Alert severity="info">No events recorded for this ad.</Alert>}
      {data && data.timeline.length > 0 && (
        <Card sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Audit timeline">
            <TableHead>
              <TableRow>
                <TableCell>Position</TableCell>
                <TableCell>Event</TableCell>
                <TableCell>Subject</TableCell>
                <TableCell>From → To</TableCell>
                <TableCell>Actor</TableCell>
                <TableCell>Time</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.timeline.map((e) => (
                <TableRow key={e.position} data-testid="audit-entry">
                  <TableCell>{e.position}</TableCell>
                  <TableCell title={e.eventType}>{eventLabel(e.eventType)}</TableCell>
                  <TableCell>
                    {e.subject === 'request' ? `request ${e.requestId?.slice(0, 8) ?? ''}` : 'ad'}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {`${e.fromStatus ?? '∅'} → ${e.toStatus ?? '∅'}`}
                  </TableCell>
                  <TableCell>{e.actor ? (e.actor.username ?? 'deleted user') : 'system'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </>
  );
}
