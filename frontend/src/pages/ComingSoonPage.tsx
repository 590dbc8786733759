import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import PetsIcon from '@mui/icons-material/Pets';

/** One friendly placeholder for every section whose capability is not built yet. */
export default function ComingSoonPage({ section }: { section: string }) {
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 6, md: 10 }, textAlign: 'center' }}>
      <Box
        aria-hidden
        sx={{
          width: 88,
          height: 88,
          mx: 'auto',
          mb: 3,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'rgba(242, 184, 75, 0.25)',
          color: 'primary.main',
        }}
      >
        <PetsIcon sx={{ fontSize: 44 }} />
      </Box>
      <Typography variant="h4" component="h1" gutterBottom>
        {section}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        This section is on its way! Our team is putting the finishing touches on it. Please check back soon.
      </Typography>
      <Button component={Link} to="/" variant="contained">
        Back to Home
      </Button>
    </Container>
  );
}
