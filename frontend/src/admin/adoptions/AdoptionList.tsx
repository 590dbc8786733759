import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Datagrid, FunctionField, List, SearchInput, SelectInput, TextField } from 'react-admin';
import { useParams } from 'react-router-dom';
import {
  ADMIN_DEFAULT_SORT,
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  ageText,
  type AdminAdoptionRow,
} from '@pawhaven/contracts';
import { DateCell, HistoryLink, UserCell } from '../components/Cells';
import { DeleteRowButton } from '../components/DeleteRowButton';
import { ImageThumb } from '../components/ImageThumb';
import { EmptyText, ListError, FilterActions, PageHeading, listSx } from '../components/ListParts';
import { AdStatusBadge } from '../components/StatusBadge';
import { truncate } from '../format';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT.adoptions;

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    choices={[
      { id: 'available', name: 'Available' },
      { id: 'adopted', name: 'Adopted' },
      { id: 'deleted', name: 'Deleted' },
    ]}
  />,
];

/**
 * Adoptions, one column each: Pet, Type, Age, Description, Status, Image, User, Created, Actions; sorted, filtered
 * and paged by the server. The per-user variant omits User.
 */
function AdoptionsTable({ userId }: { userId?: string }) {
  const perUser = Boolean(userId);
  return (
    <>
      <PageHeading>{perUser ? ADMIN_MESSAGES.userAdoptions : ADMIN_MESSAGES.allAdoptions}</PageHeading>
      <List<AdminAdoptionRow>
        resource="adoptions"
        title={perUser ? ADMIN_MESSAGES.userAdoptions : ADMIN_MESSAGES.allAdoptions}
        filter={perUser ? { userId } : undefined}
        filters={filters}
        actions={<FilterActions />}
        sort={{ field: sortField, order: sortOrder }}
        perPage={ADMIN_LIMITS.pageSizeDefault}
        storeKey={perUser ? `adoptions.user.${userId}` : undefined}
        disableSyncWithLocation={perUser}
        empty={false}
        error={<ListError fallback={ADMIN_MESSAGES.fetchAdoptionsFailed} />}
        sx={listSx}
      >
        <Datagrid
          bulkActionButtons={false}
          rowClick={false}
          empty={
            <EmptyText>{perUser ? ADMIN_MESSAGES.noUserAdoptions : ADMIN_MESSAGES.noAdoptions}</EmptyText>
          }
        >
          <TextField source="name" label="Pet" />
          <TextField source="petType" label="Type" />
          <FunctionField<AdminAdoptionRow> label="Age" sortBy="age" render={(r) => ageText(r)} />
          <FunctionField<AdminAdoptionRow>
            label="Description"
            sortable={false}
            render={(r) => (
              <Typography variant="body2" title={r.description} sx={{ minWidth: 160 }}>
                {truncate(r.description, 80)}
              </Typography>
            )}
          />
          <FunctionField<AdminAdoptionRow>
            label="Status"
            sortBy="status"
            render={(r) => <AdStatusBadge status={r.status} />}
          />
          <FunctionField<AdminAdoptionRow>
            label="Image"
            sortable={false}
            render={(r) => <ImageThumb src={r.imageUrl} alt={r.name} />}
          />
          {!perUser && (
            <FunctionField<AdminAdoptionRow>
              label="User"
              sortable={false}
              render={(r) => <UserCell user={r.userId} />}
            />
          )}
          <DateCell source="createdAt" label="Created" />
          <FunctionField<AdminAdoptionRow>
            label="Actions"
            sortable={false}
            render={(r) => (
              <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                <HistoryLink adId={r.id} />
                {r.status !== 'deleted' && <DeleteRowButton kind="adoption" />}
              </Box>
            )}
          />
        </Datagrid>
      </List>
    </>
  );
}

export const AdoptionList = () => <AdoptionsTable />;

/** adoptions/user/{userId} */
export function UserAdoptionList() {
  const { userId } = useParams();
  return <AdoptionsTable key={userId} userId={userId} />;
}
