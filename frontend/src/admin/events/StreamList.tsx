import Typography from '@mui/material/Typography';
import {
  Datagrid,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  ShowButton,
  TextField,
  TextInput,
} from 'react-admin';
import { ADMIN_DEFAULT_SORT, ADMIN_LIMITS, type AdminStreamRow } from '@pawhaven/contracts';
import { DateCell } from '../components/Cells';
import { EmptyText, ListError, FilterActions, PageHeading, listSx } from '../components/ListParts';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT.streams;

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Stream id" />,
  <TextInput key="type" source="type" label="Event type" alwaysOn />,
];

/** The event browser: every stream of the log, searched by id or by an event type it holds. */
export function StreamList() {
  return (
    <>
      <PageHeading>Events</PageHeading>
      <List<AdminStreamRow>
        resource="streams"
        title="Events"
        filters={filters}
        actions={<FilterActions />}
        sort={{ field: sortField, order: sortOrder }}
        perPage={ADMIN_LIMITS.pageSizeDefault}
        empty={false}
        error={<ListError fallback="Failed to fetch streams" />}
        sx={listSx}
      >
        <Datagrid bulkActionButtons={false} rowClick="show" empty={<EmptyText>No streams found.</EmptyText>}>
          <FunctionField<AdminStreamRow>
            label="Stream"
            sortBy="id"
            render={(s) => (
              <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {s.streamId}
              </Typography>
            )}
          />
          <TextField source="category" sortable={false} />
          <NumberField source="events" />
          <TextField source="firstPosition" label="First position" />
          <TextField source="lastPosition" label="Last position" />
          <TextField source="lastType" label="Last event" sortable={false} />
          <DateCell source="updatedAt" label="Updated" />
          <ShowButton label="Events" />
        </Datagrid>
      </List>
    </>
  );
}
