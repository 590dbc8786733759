import { lazy, Suspense, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import LoginIcon from '@mui/icons-material/Login';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import PersonIcon from '@mui/icons-material/PersonOutline';
import NotificationsIcon from '@mui/icons-material/NotificationsNoneOutlined';
import { useSignOut } from '../accounts/useSignOut';
import { useCurrentUser } from '../shared/session';
import { UserAvatar } from '../shared/ui/UserAvatar';
import { Logo } from './Logo';
import { NAV_ITEMS } from './navigation';
import { visuallyHidden } from '../shared/ui/visually-hidden';

// The bell, its panel and the notifications client load after the page: visitors never download them.
const NotificationBell = lazy(() =>
  import('../notifications/NotificationBell').then((m) => ({ default: m.NotificationBell })),
);
const bellPlaceholder = (
  <IconButton color="inherit" aria-label="Notifications" disabled>
    <NotificationsIcon />
  </IconButton>
);

/** Top bar: navigation for everybody; sign-in link for visitors; bell and account menu for signed-in users. */
export function Header() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const { signOut, busy } = useSignOut();

  const closeMenu = () => setMenuAnchor(null);
  const isActive = (to: string, end?: boolean) =>
    end ? pathname === to : pathname === to || pathname.startsWith(`${to}/`);

  return (
    <AppBar
      position="sticky"
      sx={{
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'rgba(255,255,255,0.94)',
        backdropFilter: 'blur(8px)',
      }}
    >
      <Toolbar sx={{ gap: 1, minHeight: { xs: 60, md: 68 }, px: { xs: 1, sm: 2 } }}>
        <IconButton
          aria-label="Open navigation"
          aria-controls="main-navigation-drawer"
          aria-expanded={drawerOpen}
          onClick={() => setDrawerOpen(true)}
          sx={{ display: { xs: 'inline-flex', lg: 'none' } }}
        >
          <MenuIcon />
        </IconButton>

        <Logo />

        <Box
          component="nav"
          aria-label="Main"
          sx={{ display: { xs: 'none', lg: 'flex' }, gap: 0.25, mx: 'auto' }}
        >
          {NAV_ITEMS.map((item) => (
            <Button
              key={item.to}
              component={NavLink}
              to={item.to}
              end={'end' in item ? item.end : undefined}
              color="inherit"
              sx={{
                px: 1.5,
                fontWeight: 700,
                color: isActive(item.to, 'end' in item ? item.end : false) ? 'primary.main' : 'text.primary',
                '&.active': { bgcolor: 'rgba(180, 70, 47, 0.08)' },
              }}
            >
              {item.label}
            </Button>
          ))}
        </Box>

        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0.5, sm: 1 }, ml: { xs: 'auto', lg: 0 } }}
        >
          {user ? (
            <>
              <Suspense fallback={bellPlaceholder}>
                <NotificationBell />
              </Suspense>
              <Button
                id="account-menu-button"
                color="inherit"
                aria-haspopup="menu"
                aria-controls={menuAnchor ? 'account-menu' : undefined}
                aria-expanded={menuAnchor ? 'true' : undefined}
                onClick={(e) => setMenuAnchor(e.currentTarget)}
                sx={{ px: { xs: 0.5, sm: 1 }, minWidth: 0, gap: 1 }}
              >
                <UserAvatar username={user.username} profileImage={user.profileImage} size={34} aria-hidden />
                <Box
                  component="span"
                  sx={{
                    maxWidth: 140,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                    display: { xs: 'none', sm: 'inline' },
                  }}
                >
                  Hi, {user.username}
                </Box>
                <Box component="span" sx={{ ...visuallyHidden, display: { xs: 'inline', sm: 'none' } }}>
                  Hi, {user.username}
                </Box>
              </Button>
              <Menu
                id="account-menu"
                anchorEl={menuAnchor}
                open={Boolean(menuAnchor)}
                onClose={closeMenu}
                anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
                transformOrigin={{ vertical: 'top', horizontal: 'right' }}
                slotProps={{ list: { 'aria-labelledby': 'account-menu-button' } }}
              >
                <Box sx={{ px: 2, py: 1 }}>
                  <Typography fontWeight={700}>Hi, {user.username}</Typography>
                  <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 220 }}>
                    {user.email}
                  </Typography>
                </Box>
                <Divider />
                <MenuItem component={Link} to="/profile" onClick={closeMenu}>
                  <ListItemIcon>
                    <PersonIcon fontSize="small" />
                  </ListItemIcon>
                  My Profile
                </MenuItem>
                <MenuItem
                  disabled={busy}
                  onClick={() => {
                    closeMenu();
                    void signOut();
                  }}
                >
                  <ListItemIcon>
                    <LogoutIcon fontSize="small" />
                  </ListItemIcon>
                  Sign Out
                </MenuItem>
              </Menu>
            </>
          ) : (
            <Button
              component={Link}
              to="/signin"
              variant="contained"
              startIcon={<LoginIcon />}
              sx={{ whiteSpace: 'nowrap' }}
            >
              Sign In
            </Button>
          )}
        </Box>
      </Toolbar>

      <Drawer
        id="main-navigation-drawer"
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        slotProps={{ paper: { sx: { width: 280, maxWidth: '85vw' } } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1.5 }}>
          <Logo onClick={() => setDrawerOpen(false)} />
          <IconButton aria-label="Close navigation" onClick={() => setDrawerOpen(false)}>
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
              onClick={() => setDrawerOpen(false)}
            >
              <ListItemText primary={item.label} slotProps={{ primary: { fontWeight: 700 } }} />
            </ListItemButton>
          ))}
        </List>
        <Divider />
        <List>
          {user ? (
            <ListItemButton component={Link} to="/profile" onClick={() => setDrawerOpen(false)}>
              <ListItemIcon>
                <PersonIcon />
              </ListItemIcon>
              <ListItemText primary="My Profile" />
            </ListItemButton>
          ) : (
            <ListItemButton component={Link} to="/signin" onClick={() => setDrawerOpen(false)}>
              <ListItemIcon>
                <LoginIcon />
              </ListItemIcon>
              <ListItemText primary="Sign In" />
            </ListItemButton>
          )}
        </List>
      </Drawer>
    </AppBar>
  );
}
