import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * The title row of a "my things" panel (My Adoptions, My Posts): a page title (h1) on its own page, a section
 * title (h2) inside the profile, with its create button on the right.
 */
export function PanelHeader({
  title,
  heading,
  action,
}: {
  title: string;
  heading: 'h1' | 'h2';
  action?: ReactNode;
}) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        flexWrap: 'wrap',
        mb: 2,
      }}
    >
      <Typography
        variant={heading === 'h1' ? 'h4' : 'h5'}
        component={heading}
        sx={{ fontSize: heading === 'h1' ? { xs: '1.75rem', md: '2.125rem' } : undefined }}
      >
        {title}
      </Typography>
      {action}
    </Box>
  );
}
