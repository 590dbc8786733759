import { Suspense } from 'react';
import { Link, NavLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import CloseIcon from '@mui/icons-material/Close';
import LoginIcon from '@mui/icons-material/Login';
import PersonIcon from '@mui/icons-material/PersonOutline';
import { Logo } from './Logo';
import { InboxLabel } from './inbox';
import { NAV_ITEMS } from './navigation';

/**
 * The navigation drawer of narrow screens. Its own chunk (with MUI's modal and transitions), loaded the first time
 * the menu button is pressed (or the browser is idle): the first screen does not wait for it.
 */
export default function NavigationDrawer({
  id,
  open,
  onClose,
  signedIn,
  isActive,
}: {
  id: string;
  open: boolean;
  onClose: () => void;
  signedIn: boolean;
  isActive: (to: string, end?: boolean) => boolean;
}) {
  return (
    <Drawer
      id={id}
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: 280, maxWidth: '85vw' } } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.5 }}>
        <Logo onClick={onClose} />
        <IconButton aria-label="Close navigation" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <List component="nav" aria-label="Main">
        {NAV_ITEMS.map((item) => (
          <ListItemButton
            key={item.to}
            component={NavLink}
            to={item.to}
            end={'end' in item ? item.end : undefined}
            selected={isActive(item.to, 'end' in item ? item.end : false)}
            onClick={onClose}
          >
            <ListItemText
              primary={
                signedIn && item.to === '/chat' ? (
                  <Suspense fallback={item.label}>
                    <InboxLabel label={item.label} />
                  </Suspense>
                ) : (
                  item.label
                )
              }
              slotProps={{ primary: { fontWeight: 700 } }}
            />
          </ListItemButton>
        ))}
      </List>
      <Divider />
      <List>
        {signedIn ? (
          <ListItemButton component={Link} to="/profile" onClick={onClose}>
            <ListItemIcon>
              <PersonIcon />
            </ListItemIcon>
            <ListItemText primary="My Profile" />
          </ListItemButton>
        ) : (
          <ListItemButton component={Link} to="/signin" onClick={onClose}>
            <ListItemIcon>
              <LoginIcon />
            </ListItemIcon>
            <ListItemText primary="Sign In" />
          </ListItemButton>
        )}
      </List>
    </Drawer>
  );
}
