import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/PersonOutline';

/** The signed-in user's menu (profile, sign out). Its own chunk, loaded on first use or when the browser is idle. */
export default function AccountMenu({
  anchorEl,
  onClose,
  username,
  email,
  busy,
  onSignOut,
}: {
  anchorEl: HTMLElement | null;
  onClose: () => void;
  username: string;
  email: string;
  busy: boolean;
  onSignOut: () => void;
}) {
  return (
    <Menu
      id="account-menu"
      anchorEl={anchorEl}
      open={Boolean(anchorEl)}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ list: { 'aria-labelledby': 'account-menu-button' } }}
    >
      <Box sx={{ px: 2, py: 1 }}>
        <Typography fontWeight={700}>Hi, {username}</Typography>
        <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 220 }}>
          {email}
        </Typography>
      </Box>
      <Divider />
      <MenuItem component={Link} to="/profile" onClick={onClose}>
        <ListItemIcon>
          <PersonIcon fontSize="small" />
        </ListItemIcon>
        My Profile
      </MenuItem>
      <MenuItem
        disabled={busy}
        onClick={() => {
          onClose();
          onSignOut();
        }}
      >
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        Sign Out
      </MenuItem>
    </Menu>
  );
}
