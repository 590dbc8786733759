import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

/** The empty states of the My Posts, My Adoptions and Adoption History views. */
export function ProfileEmptyState({
  icon,
  title,
  text,
  action,
}: {
  icon: ReactNode;
  title: string;
  text?: string;
  action?: { label: string; to: string };
}) {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 4, md: 6 }, px: 2 }}>
      <Box
        aria-hidden
        sx={{
          width: 72,
          height: 72,
          mx: 'auto',
          mb: 2,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'rgba(242, 184, 75, 0.22)',
          color: 'primary.main',
          '& svg': { fontSize: 36 },
        }}
      >
        {icon}
      </Box>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {text && <Typography color="text.secondary">{text}</Typography>}
      {action && (
        <Button component={Link} to={action.to} variant="contained" sx={{ mt: 3 }}>
          {action.label}
        </Button>
      )}
    </Box>
  );
}
