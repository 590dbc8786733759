import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import {
  Datagrid,
  FunctionField,
  Link,
  List,
  TextField as RaTextField,
  useBasename,
  useGetList,
} from 'react-admin';
import { ADMIN_DEFAULT_SORT, ADMIN_LIMITS, ADMIN_MESSAGES, type AdminUserRow } from '@pawhaven/contracts';
import { EmailText } from '../components/Cells';
import { DeleteRowButton } from '../components/DeleteRowButton';
import { EmptyText, ListError, PageHeading, listSx } from '../components/ListParts';
import { formatCount } from '../format';

const [sortField, sortOrder] = ADMIN_DEFAULT_SORT.users;
const SEARCH_DEBOUNCE_MS = 300;

type Tab = 'veterinarians' | 'regularUsers';
type CountKey = 'posts' | 'comments' | 'adoptions' | 'requests';

/** The Show buttons' per-user routes ({resource}/user/{userId}). */
const SHOW_ROUTE: Record<CountKey, string> = {
  posts: 'posts',
  comments: 'comments',
  adoptions: 'adoptions',
  requests: 'adoption-requests',
};
const COLUMN: Record<CountKey, string> = {
  posts: 'Posts',
  comments: 'Comments',
  adoptions: 'Adoptions',
  requests: 'Requests',
};

/** A count column: the number ('...' while loading) and Show to the user's list. */
function CountCell({ user, count }: { user: AdminUserRow; count: CountKey }) {
  const basename = useBasename();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Typography variant="body2" sx={{ minWidth: 24 }}>
        {formatCount(user[count])}
      </Typography>
      <Button
        size="small"
        component={Link}
        to={`${basename}/${SHOW_ROUTE[count]}/user/${encodeURIComponent(user.id)}`}
        aria-label={`Show ${COLUMN[count].toLowerCase()} of ${user.username}`}
      >
        Show
      </Button>
    </Box>
  );
}

const countColumn = (count: CountKey) => (
  <FunctionField<AdminUserRow>
    key={count}
    label={COLUMN[count]}
    sortBy={count}
    render={(u) => <CountCell user={u} count={count} />}
  />
);

/** How many users a tab holds for the current search. */
function useTabTotal(isVeterinarian: boolean, q: string) {
  const { total } = useGetList<AdminUserRow>('users', {
    filter: { isVeterinarian, isAdmin: false, ...(q ? { q } : {}) },
    pagination: { page: 1, perPage: 1 },
    sort: { field: sortField, order: sortOrder },
  });
  return total;
}

/**
 * Manage Users: 'Veterinarians (n)' and 'Regular Users (n)', the search over name or e-mail,
 * counts with Show buttons to the per-user lists, Delete with a browser confirmation. Paged and searched by the
 * server, so it holds any number of users.
 */
export function ManageUsers() {
  const [tab, setTab] = useState<Tab>('veterinarians');
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const vets = useTabTotal(true, q);
  const regular = useTabTotal(false, q);

  return (
    <>
      <PageHeading>Manage Users</PageHeading>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 1 }}>
        <Tabs
          value={tab}
          onChange={(_, value: Tab) => setTab(value)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ flexGrow: 1, minWidth: 0 }}
        >
          <Tab
            value="veterinarians"
            label={vets === undefined ? 'Veterinarians (...)' : ADMIN_MESSAGES.veterinariansTab(vets)}
          />
          <Tab
            value="regularUsers"
            label={regular === undefined ? 'Regular Users (...)' : ADMIN_MESSAGES.regularUsersTab(regular)}
          />
        </Tabs>
        <TextField
          size="small"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={ADMIN_MESSAGES.searchUsers}
          slotProps={{
            htmlInput: { 'aria-label': ADMIN_MESSAGES.searchUsers, maxLength: ADMIN_LIMITS.searchMaxLength },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ width: { xs: '100%', sm: 300 } }}
        />
      </Box>
      <List<AdminUserRow>
        key={tab}
        resource="users"
        title="Manage Users"
        filter={{ isVeterinarian: tab === 'veterinarians', isAdmin: false, ...(q ? { q } : {}) }}
        sort={{ field: sortField, order: sortOrder }}
        perPage={ADMIN_LIMITS.pageSizeDefault}
        storeKey={`users.${tab}`}
        disableSyncWithLocation
        empty={false}
        actions={false}
        error={<ListError fallback={ADMIN_MESSAGES.fetchUsersFailed} />}
        sx={listSx}
      >
        <Datagrid
          bulkActionButtons={false}
          rowClick={false}
          empty={<EmptyText>{ADMIN_MESSAGES.noUsers}</EmptyText>}
        >
          <RaTextField source="username" label="Name" />
          <FunctionField<AdminUserRow>
            label="Email"
            sortBy="email"
            render={(u) => <EmailText email={u.email} />}
          />
          {countColumn('posts')}
          {countColumn('comments')}
          {countColumn('adoptions')}
          {countColumn('requests')}
          <FunctionField<AdminUserRow>
            label="Delete"
            sortable={false}
            render={() => <DeleteRowButton kind="user" />}
          />
        </Datagrid>
      </List>
    </>
  );
}
