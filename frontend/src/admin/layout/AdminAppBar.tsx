import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import LogoutIcon from '@mui/icons-material/Logout';
import { AppBar, LoadingIndicator, useGetIdentity } from 'react-admin';
import { ADMIN_MESSAGES } from '@pawhaven/contracts';
import { useSignOut } from '../../accounts/useSignOut';

/**
 * The header: 'Admin Dashboard', the admin's username or e-mail and a Sign Out button that calls
 * the server, clears the session and goes to /signin (the app's own sign-out). On a phone Sign Out is an icon
 * (same accessible name) and the refresh indicator is left out, so the name still fits.
 */
export function AdminAppBar() {
  const { identity } = useGetIdentity();
  const { signOut, busy } = useSignOut();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  return (
    <AppBar userMenu={false} toolbar={phone ? false : <LoadingIndicator />} alwaysOn>
      <Typography
        variant="h6"
        component="h1"
        noWrap
        sx={{ fontSize: { xs: '1rem', sm: '1.25rem' }, flexShrink: 0 }}
      >
        {ADMIN_MESSAGES.dashboardTitle}
      </Typography>
      <Box sx={{ flex: 1, minWidth: 8 }} />
      <Typography
        component="span"
        noWrap
        data-testid="admin-identity"
        sx={{
          opacity: 0.9,
          minWidth: 40,
          maxWidth: { xs: 130, sm: 280 },
          mr: 1,
          fontSize: { xs: 14, sm: 16 },
        }}
        title={identity?.fullName}
      >
        {identity?.fullName}
      </Typography>
      {phone ? (
        <Tooltip title="Sign Out">
          <span>
            <IconButton color="inherit" aria-label="Sign Out" onClick={() => void signOut()} disabled={busy}>
              <LogoutIcon />
            </IconButton>
          </span>
        </Tooltip>
      ) : (
        <Button
          color="inherit"
          variant="outlined"
          size="small"
          startIcon={<LogoutIcon />}
          onClick={() => void signOut()}
          disabled={busy}
          sx={{ flexShrink: 0, whiteSpace: 'nowrap', mr: 1 }}
        >
          Sign Out
        </Button>
      )}
    </AppBar>
  );
}
