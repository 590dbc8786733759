import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Datagrid, FunctionField, Link, List, SelectInput, useBasename, useGetOne } from 'react-admin';
import { useParams } from 'react-router-dom';
import {
  ADMIN_DEFAULT_SORT,
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  type AdminAdoptionRequestRow,
  type AdminUserRow,
} from '@pawhaven/contracts';
import { DateCell, EmailText, HistoryLink, UserCell } from '../components/Cells';
import { DeleteRowButton } from '../components/DeleteRowButton';
import { ImageThumb } from '../components/ImageThumb';
import { EmptyText, ListError, FilterActions, PageHeading, listSx } from '../components/ListParts';
import { RequestStatusBadge } from '../components/StatusBadge';
import { truncate } from '../format';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT['adoption-requests'];

const filters = [
  <SelectInput
    key="status"
    source="status"
    alwaysOn
    choices={['pending', 'accepted', 'rejected', 'withdrawn', 'closed'].map((s) => ({
      id: s,
      name: s[0]!.toUpperCase() + s.slice(1),
    }))}
  />,
];

/**
 * Adoption requests, one column each: Requester, Pet Details, Contact Info, Message (truncated), Pet History Image,
 * Status badge, Date, Delete, plus the ad's History.
 */
function RequestsTable({ userId, title }: { userId?: string; title: string }) {
  const perUser = Boolean(userId);
  return (
    <List<AdminAdoptionRequestRow>
      resource="adoption-requests"
      title={title}
      filter={perUser ? { userId } : undefined}
      filters={filters}
      actions={<FilterActions />}
      sort={{ field: sortField, order: sortOrder }}
      perPage={ADMIN_LIMITS.pageSizeDefault}
      storeKey={perUser ? `adoption-requests.user.${userId}` : undefined}
      disableSyncWithLocation={perUser}
      empty={false}
      error={
        <ListError
          fallback={perUser ? ADMIN_MESSAGES.fetchUserRequestsFailed : ADMIN_MESSAGES.fetchRequestsFailed}
        />
      }
      sx={listSx}
    >
      <Datagrid
        bulkActionButtons={false}
        rowClick={false}
        empty={<EmptyText>No adoption requests found.</EmptyText>}
      >
        <FunctionField<AdminAdoptionRequestRow>
          label="Requester"
          sortable={false}
          render={(r) => <UserCell user={r.requester} />}
        />
        <FunctionField<AdminAdoptionRequestRow>
          label="Pet Details"
          sortable={false}
          render={(r) =>
            r.adId ? (
              <Box>
                <Typography variant="body2">{r.adId.name}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {r.adId.petType}
                </Typography>
              </Box>
            ) : (
              <Typography variant="body2" color="text.secondary" fontStyle="italic">
                deleted ad
              </Typography>
            )
          }
        />
        <FunctionField<AdminAdoptionRequestRow>
          label="Contact Info"
          sortBy="name"
          render={(r) => (
            <Box sx={{ minWidth: 140 }}>
              <Typography variant="body2">{r.name}</Typography>
              <EmailText email={r.email} variant="caption" />
              <Typography variant="caption" display="block">
                {r.phone}
              </Typography>
            </Box>
          )}
        />
        <FunctionField<AdminAdoptionRequestRow>
          label="Message"
          sortable={false}
          render={(r) => (
            <Typography variant="body2" title={r.message} sx={{ minWidth: 140 }}>
              {truncate(r.message, 50)}
            </Typography>
          )}
        />
        <FunctionField<AdminAdoptionRequestRow>
          label="Pet History Image"
          sortable={false}
          render={(r) => <ImageThumb src={r.petHistoryImage} alt={`Pet history from ${r.name}`} />}
        />
        <FunctionField<AdminAdoptionRequestRow>
          label="Status"
          sortBy="status"
          render={(r) => <RequestStatusBadge status={r.status} />}
        />
        <DateCell source="createdAt" label="Date" />
        <FunctionField<AdminAdoptionRequestRow>
          label="Actions"
          sortable={false}
          render={(r) => (
            <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              <HistoryLink adId={r.adId?._id} />
              <DeleteRowButton kind="request" />
            </Box>
          )}
        />
      </Datagrid>
    </List>
  );
}

export function RequestList() {
  return (
    <>
      <PageHeading>All Adoption Requests</PageHeading>
      <RequestsTable title="All Adoption Requests" />
    </>
  );
}

/** adoption-requests/user/{userId}: 'Adoption Requests for {username}' with 'Back to Users'. */
export function UserRequestList() {
  const { userId = '' } = useParams();
  const basename = useBasename();
  const { data: user } = useGetOne<AdminUserRow>('users', { id: userId }, { enabled: Boolean(userId) });
  const title = ADMIN_MESSAGES.requestsForUser(user?.username ?? '...');
  return (
    <>
      <PageHeading
        actions={
          <Button component={Link} to={`${basename}/manage-users`} startIcon={<ArrowBackIcon />}>
            {ADMIN_MESSAGES.backToUsers}
          </Button>
        }
      >
        {title}
      </PageHeading>
      <RequestsTable key={userId} userId={userId} title={title} />
    </>
  );
}
