import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import { useSignOut } from '../accounts/useSignOut';
import { useCurrentUser } from '../shared/session';

/**
 * The administrator's area (spec 001 §2): for now a placeholder with the header, the admin's name and Sign Out.
 * It renders without the community header and footer; the react-admin dashboard replaces the body later.
 */
export default function AdminDashboardPage() {
  const user = useCurrentUser();
  const { signOut, busy } = useSignOut();
  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
      <AppBar position="static" color="primary" elevation={0}>
        <Toolbar sx={{ gap: 2, flexWrap: 'wrap', py: 1 }}>
          <AdminPanelSettingsIcon aria-hidden />
          <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
            Admin Dashboard
          </Typography>
          <Typography component="span" sx={{ opacity: 0.9 }} data-testid="admin-identity">
            {user?.username || user?.email}
          </Typography>
          <Button
            color="inherit"
            variant="outlined"
            startIcon={<LogoutIcon />}
            onClick={() => void signOut()}
            disabled={busy}
          >
            Sign Out
          </Button>
        </Toolbar>
      </AppBar>
      <Container maxWidth="md" component="main" sx={{ py: 6 }}>
        <Paper sx={{ p: { xs: 3, md: 5 }, textAlign: 'center' }}>
          <Typography variant="h5" component="h2" gutterBottom>
            Welcome, {user?.username || user?.email}
          </Typography>
          <Typography color="text.secondary">
            The management tools for users, adoptions, requests, posts and comments are on their way.
          </Typography>
        </Paper>
      </Container>
    </Box>
  );
}
