import { lazy, Suspense, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import LoginIcon from '@mui/icons-material/Login';
import MenuIcon from '@mui/icons-material/Menu';
import NotificationsIcon from '@mui/icons-material/NotificationsNoneOutlined';
import { useSignOut } from '../accounts/useSignOut';
import { useCurrentUser } from '../shared/session';
import { UserAvatar } from '../shared/ui/UserAvatar';
import { Logo } from './Logo';
import { InboxDot, InboxLabel, InboxLive } from './inbox';
import { NAV_ITEMS } from './navigation';
import { visuallyHidden } from '../shared/ui/visually-hidden';

// The drawer and the account menu (MUI's modal, popover and transitions) are their own chunks, mounted when first
// opened; their code is fetched as soon as the pointer or the focus reaches their button, ahead of the press.
const loadDrawer = () => import('./NavigationDrawer');
const loadAccountMenu = () => import('./AccountMenu');
const NavigationDrawer = lazy(loadDrawer);
const AccountMenu = lazy(loadAccountMenu);
const prefetch = (load: () => Promise<unknown>) => ({
  onPointerEnter: () => void load().catch(() => {}),
  onFocus: () => void load().catch(() => {}),
});

// The bell, its panel and the notifications client load after the page: visitors never download them.
const NotificationBell = lazy(() =>
  import('../notifications/NotificationBell').then((m) => ({ default: m.NotificationBell })),
);
const bellPlaceholder = (
  <IconButton color="inherit" aria-label="Notifications" disabled>
    <NotificationsIcon />
  </IconButton>
);

/**
 * Top bar: navigation for everybody; sign-in link for visitors; bell, account menu and the Inbox link's unread
 * conversations for signed-in users.
 */
export function Header() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [menuUsed, setMenuUsed] = useState(false);
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
          {...prefetch(loadDrawer)}
          onClick={() => {
            setDrawerUsed(true);
            setDrawerOpen(true);
          }}
          sx={{ display: { xs: 'inline-flex', lg: 'none' } }}
        >
          {user ? (
            <Suspense fallback={<MenuIcon />}>
              <InboxDot>
                <MenuIcon />
              </InboxDot>
            </Suspense>
          ) : (
            <MenuIcon />
          )}
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
              {user && item.to === '/chat' ? (
                <Suspense fallback={item.label}>
                  <InboxLabel label={item.label} />
                </Suspense>
              ) : (
                item.label
              )}
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
              <Suspense fallback={null}>
                <InboxLive />
              </Suspense>
              <Button
                id="account-menu-button"
                color="inherit"
                aria-haspopup="menu"
                aria-controls={menuAnchor ? 'account-menu' : undefined}
                aria-expanded={menuAnchor ? 'true' : undefined}
                {...prefetch(loadAccountMenu)}
                onClick={(e) => {
                  setMenuUsed(true);
                  setMenuAnchor(e.currentTarget);
                }}
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
              {menuUsed && (
                <Suspense fallback={null}>
                  <AccountMenu
                    anchorEl={menuAnchor}
                    onClose={closeMenu}
                    username={user.username}
                    email={user.email}
                    busy={busy}
                    onSignOut={() => void signOut()}
                  />
                </Suspense>
              )}
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

      {drawerUsed && (
        <Suspense fallback={null}>
          <NavigationDrawer
            id="main-navigation-drawer"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            signedIn={Boolean(user)}
            isActive={isActive}
          />
        </Suspense>
      )}
    </AppBar>
  );
}
