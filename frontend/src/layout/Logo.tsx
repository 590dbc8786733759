import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import PetsIcon from '@mui/icons-material/Pets';

export function Logo({ onClick, light = false }: { onClick?: () => void; light?: boolean }) {
  return (
    <Box
      component={Link}
      to="/"
      onClick={onClick}
      aria-label="PawHaven home"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        textDecoration: 'none',
        color: light ? 'common.white' : 'primary.main',
        fontWeight: 800,
        fontSize: { xs: '1.15rem', sm: '1.3rem' },
        letterSpacing: '-0.01em',
        whiteSpace: 'nowrap',
      }}
    >
      <PetsIcon aria-hidden sx={{ color: light ? 'warning.main' : 'primary.main' }} />
      PawHaven
    </Box>
  );
}
