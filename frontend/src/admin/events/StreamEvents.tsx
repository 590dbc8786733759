import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Datagrid,
  FunctionField,
  Link,
  List,
  TextField,
  TextInput,
  useBasename,
  useRecordContext,
} from 'react-admin';
import { useParams } from 'react-router-dom';
import { ADMIN_DEFAULT_SORT, ADMIN_LIMITS, type AdminEventRow } from '@pawhaven/contracts';
import { EmptyText, ListError, FilterActions, PageHeading, listSx } from '../components/ListParts';
import { formatDateTime, prettyJson } from '../format';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT.events;

const filters = [<TextInput key="type" source="type" label="Event type" />];

const Json = ({ label, value }: { label: string; value: unknown }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="subtitle2">{label}</Typography>
    <Box
      component="pre"
      sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, overflowX: 'auto', fontSize: 12 }}
    >
      {prettyJson(value)}
    </Box>
  </Box>
);

/** One event expanded: its data and metadata. */
function EventDetails() {
  const record = useRecordContext<AdminEventRow>();
  if (!record) return null;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, py: 1 }}>
      <Json label="Data" value={record.data} />
      <Json label="Metadata" value={record.metadata} />
    </Box>
  );
}

/** A stream's events in log order, paged by the server; a row expands to its data and metadata. */
export function StreamEvents() {
  const { id = '' } = useParams();
  const basename = useBasename();
  return (
    <>
      <PageHeading
        actions={
          <Button component={Link} to={`${basename}/streams`} startIcon={<ArrowBackIcon />}>
            Streams
          </Button>
        }
      >
        <Box component="span" sx={{ wordBreak: 'break-all' }}>
          Stream {id}
        </Box>
      </PageHeading>
      <List<AdminEventRow>
        key={id}
        resource="events"
        title={`Stream ${id}`}
        filter={{ streamId: id }}
        filters={filters}
        actions={<FilterActions />}
        sort={{ field: sortField, order: sortOrder }}
        perPage={ADMIN_LIMITS.pageSizeDefault}
        storeKey={`events.${id}`}
        disableSyncWithLocation
        empty={false}
        error={<ListError fallback="Failed to fetch events" />}
        sx={listSx}
      >
        <Datagrid
          bulkActionButtons={false}
          rowClick="expand"
          expand={<EventDetails />}
          empty={<EmptyText>No events found.</EmptyText>}
        >
          <TextField source="position" />
          <TextField source="revision" sortable={false} />
          <TextField source="type" sortable={false} />
          <FunctionField<AdminEventRow>
            label="Time"
            sortable={false}
            render={(e) => <Typography variant="body2">{formatDateTime(e.time)}</Typography>}
          />
        </Datagrid>
      </List>
    </>
  );
}
