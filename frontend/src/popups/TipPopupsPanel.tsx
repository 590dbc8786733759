import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import LightbulbIcon from '@mui/icons-material/LightbulbOutlined';
import { isAdminPath, isChatPath } from '../layout/navigation';
import { createTipScheduler, type TipCorner, type TipScheduler, type VisibleTip } from './schedule';
import { TIPS } from './tips';

const sessionStorageOrNull = () => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

const CORNER_SX: Record<TipCorner, object> = {
  'bottom-left': { left: { xs: 12, sm: 24 }, bottom: { xs: 12, sm: 24 } },
  // Below the sticky header, so its menus stay reachable.
  'top-right': { right: { xs: 12, sm: 24 }, top: { xs: 72, md: 84 } },
};

/**
 * The two tip popups of a session: timing in ./schedule. They stay on screen across page changes until dismissed and
 * are never shown on /chat, /chat/* or the dashboard. Each is a labelled, non-modal note announced politely to screen
 * readers, with a named close button.
 */
export default function TipPopupsPanel() {
  const { pathname } = useLocation();
  const [visible, setVisible] = useState<VisibleTip[]>([]);
  const scheduler = useRef<TipScheduler | null>(null);

  useEffect(() => {
    const s = createTipScheduler({
      tips: TIPS,
      storage: sessionStorageOrNull(),
      random: Math.random,
      clock: {
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (handle) => window.clearTimeout(handle as number),
      },
      onChange: setVisible,
    });
    scheduler.current = s;
    s.start();
    return () => {
      s.stop();
      scheduler.current = null;
    };
  }, []);

  const hidden = isChatPath(pathname) || isAdminPath(pathname);

  return (
    <Box aria-live="polite" aria-relevant="additions">
      {!hidden &&
        visible.map(({ tip, corner }) => {
          const titleId = `tip-${tip.id}-title`;
          return (
            <Paper
              key={tip.id}
              role="note"
              aria-labelledby={titleId}
              data-corner={corner}
              elevation={8}
              sx={{
                position: 'fixed',
                zIndex: 1150, // above the page and the header (1100), below the navigation drawer (1200), dialogs and menus
                width: { xs: 'min(300px, calc(100vw - 24px))', sm: 320 },
                p: 2,
                pr: 1,
                display: 'flex',
                gap: 1.25,
                alignItems: 'flex-start',
                border: 1,
                borderColor: 'warning.main',
                borderRadius: '16px',
                '@keyframes tipIn': {
                  from: { opacity: 0, transform: 'translateY(8px)' },
                  to: { opacity: 1 },
                },
                animation: 'tipIn 240ms ease-out',
                '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
                ...CORNER_SX[corner],
              }}
            >
              <LightbulbIcon aria-hidden sx={{ color: 'secondary.main', mt: 0.25 }} />
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography id={titleId} sx={{ fontWeight: 800, fontSize: '1rem' }}>
                  <Box component="span" sx={{ color: 'secondary.dark' }}>
                    Tip:
                  </Box>{' '}
                  {tip.title}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {tip.text}
                </Typography>
                {tip.link && (
                  <Link
                    component={RouterLink}
                    to={tip.link.to}
                    variant="body2"
                    sx={{ display: 'inline-block', mt: 1, fontWeight: 700 }}
                  >
                    {tip.link.label}
                  </Link>
                )}
              </Box>
              <IconButton
                size="small"
                aria-label={`Dismiss tip: ${tip.title}`}
                onClick={() => scheduler.current?.dismiss(tip.id)}
              >
                <CloseIcon fontSize="small" />
              </IconButton>
            </Paper>
          );
        })}
    </Box>
  );
}
