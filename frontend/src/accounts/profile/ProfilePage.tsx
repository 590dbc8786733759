import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/EditOutlined';
import HistoryIcon from '@mui/icons-material/History';
import LockIcon from '@mui/icons-material/LockOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/PersonOutline';
import PetsIcon from '@mui/icons-material/Pets';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibraryOutlined';
import { useSession } from '../../shared/session';
import { sessionStore } from '../../shared/session-store';
import { PageLoader } from '../../shared/ui/PageLoader';
import { accountsApi } from '../api';
import { useSignOut } from '../useSignOut';
import { EditProfileForm } from './EditProfileForm';

// The adoption views load with their own chunk, only when opened.
const MyAdoptionsPanel = lazy(() =>
  import('../../adoption/MyAdoptionsPanel').then((m) => ({ default: m.MyAdoptionsPanel })),
);
const AdoptionHistoryPanel = lazy(() =>
  import('../../adoption/AdoptionHistoryPanel').then((m) => ({ default: m.AdoptionHistoryPanel })),
);
const MyPostsPanel = lazy(() =>
  import('../../community/MyPostsPanel').then((m) => ({ default: m.MyPostsPanel })),
);
import { ProfileOverview } from './ProfileOverview';
import { SecurityForm } from './SecurityForm';

const VIEWS = [
  { key: 'profile', label: 'View Profile', icon: <PersonIcon /> },
  { key: 'edit', label: 'Edit Profile', icon: <EditIcon /> },
  { key: 'security', label: 'Security Settings', icon: <LockIcon /> },
  { key: 'myposts', label: 'My Posts', icon: <PhotoLibraryIcon /> },
  { key: 'myadoptions', label: 'My Adoptions', icon: <PetsIcon /> },
  { key: 'adoptionhistory', label: 'Adoption History', icon: <HistoryIcon /> },
] as const;
type View = (typeof VIEWS)[number]['key'];
const isView = (v: string | null): v is View => VIEWS.some((x) => x.key === v);

const NO_USER_REDIRECT_MS = 1500;

/** The own profile with its six in-page views; the view is kept in `?view=` for back/forward. */
export default function ProfilePage() {
  const navigate = useNavigate();
  const { user, ready } = useSession();
  const { signOut, busy } = useSignOut();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [params, setParams] = useSearchParams();
  const viewParam = params.get('view');
  const view: View = isView(viewParam) ? viewParam : 'profile';
  const setView = (next: View) => setParams(next === 'profile' ? {} : { view: next });

  // The stored user is shown at once; the server's current record replaces it when it arrives.
  const profile = useQuery({
    queryKey: ['profile', user?.id],
    queryFn: accountsApi.profile,
    enabled: ready && Boolean(user),
  });
  useEffect(() => {
    if (profile.data?.success && profile.data.data) sessionStore.updateUser(profile.data.data);
  }, [profile.data]);

  useEffect(() => {
    if (!ready || user) return;
    const t = setTimeout(() => navigate('/signin', { replace: true }), NO_USER_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [ready, user, navigate]);

  if (!ready) return <PageLoader />;
  if (!user) {
    return (
      <Container maxWidth="sm" sx={{ py: 6 }}>
        <Alert severity="warning">No user data found. Please log in.</Alert>
      </Container>
    );
  }

  let content: ReactNode;
  switch (view) {
    case 'profile':
      content = <ProfileOverview user={user} onEdit={() => setView('edit')} />;
      break;
    case 'edit':
      content = <EditProfileForm key={user.id} user={user} onDone={() => setView('profile')} />;
      break;
    case 'security':
      content = <SecurityForm user={user} onDone={() => setView('profile')} />;
      break;
    case 'myposts':
      content = (
        <Suspense fallback={<PageLoader />}>
          <MyPostsPanel />
        </Suspense>
      );
      break;
    case 'myadoptions':
      content = (
        <Suspense fallback={<PageLoader />}>
          <MyAdoptionsPanel />
        </Suspense>
      );
      break;
    case 'adoptionhistory':
      content = (
        <Suspense fallback={<PageLoader />}>
          <AdoptionHistoryPanel />
        </Suspense>
      );
      break;
  }

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 2, md: 4 }, px: { xs: 1.5, sm: 3 } }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1 }}>
        <Button component={Link} to="/" startIcon={<ArrowBackIcon />} color="inherit">
          Back
        </Button>
        <Button
          variant="outlined"
          color="primary"
          startIcon={<LogoutIcon />}
          onClick={() => void signOut()}
          disabled={busy}
        >
          Sign Out
        </Button>
      </Box>

      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: '260px 1fr' },
          alignItems: 'start',
        }}
      >
        {/* Side menu on wide screens; a dropdown replaces it on small ones. Entries are links (`?view=`). */}
        {wide ? (
          <Paper
            component="nav"
            aria-label="Profile sections"
            sx={{ p: 1, border: 1, borderColor: 'divider' }}
            elevation={0}
          >
            <List disablePadding>
              {VIEWS.map((v) => (
                <ListItemButton
                  key={v.key}
                  component={Link}
                  to={v.key === 'profile' ? '/profile' : `/profile?view=${v.key}`}
                  selected={view === v.key}
                  aria-current={view === v.key ? 'page' : undefined}
                  sx={{ borderRadius: 2, mb: 0.5 }}
                >
                  <ListItemIcon sx={{ minWidth: 40 }}>{v.icon}</ListItemIcon>
                  <ListItemText primary={v.label} slotProps={{ primary: { fontWeight: 700 } }} />
                </ListItemButton>
              ))}
            </List>
          </Paper>
        ) : (
          <TextField
            select
            id="profile-section"
            label="Profile section"
            value={view}
            onChange={(e) => setView(e.target.value as View)}
            margin="none"
          >
            {VIEWS.map((v) => (
              <MenuItem key={v.key} value={v.key}>
                {v.label}
              </MenuItem>
            ))}
          </TextField>
        )}

        <Paper sx={{ p: { xs: 2, sm: 4 }, border: 1, borderColor: 'divider', minWidth: 0 }} elevation={0}>
          {content}
        </Paper>
      </Box>
    </Container>
  );
}
