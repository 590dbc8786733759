import { Link } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EventAvailableIcon from '@mui/icons-material/EventAvailableOutlined';
import FavoriteIcon from '@mui/icons-material/FavoriteBorder';
import SearchIcon from '@mui/icons-material/Search';
import { palette } from '../theme';

const STEPS = [
  {
    Icon: SearchIcon,
    title: 'Find your pet',
    text: 'Browse dogs, cats and other companions looking for a loving home.',
  },
  {
    Icon: EventAvailableIcon,
    title: 'Schedule a visit',
    text: 'Chat with the owner or shelter and meet your new friend.',
  },
  {
    Icon: FavoriteIcon,
    title: 'Follow the adoption process',
    text: 'Send a request, get accepted and welcome them home.',
  },
];

/** The landing page: for now the hero and How It Works; the full landing content follows with its capability. */
export default function HomePage() {
  return (
    <>
      <Box
        sx={{
          background: `radial-gradient(circle at 85% 20%, ${palette.amber}55 0, transparent 45%), linear-gradient(135deg, ${palette.sand} 0%, ${palette.cream} 60%)`,
          py: { xs: 7, md: 12 },
        }}
      >
        <Container maxWidth="md" sx={{ textAlign: { xs: 'left', sm: 'center' } }}>
          <Typography
            variant="overline"
            sx={{ color: 'secondary.main', fontWeight: 800, letterSpacing: '0.12em' }}
          >
            Pakistan&apos;s animal-welfare community
          </Typography>
          <Typography
            variant="h2"
            component="h1"
            sx={{ fontSize: { xs: '2.4rem', sm: '3.2rem', md: '3.75rem' }, mt: 1 }}
          >
            Adopt, don&apos;t shop
          </Typography>
          <Typography
            variant="h6"
            component="p"
            color="text.secondary"
            sx={{ mt: 2, fontWeight: 500, maxWidth: 640, mx: 'auto' }}
          >
            Every pet deserves a safe, loving home. Meet rescued dogs, cats and more, connect with vets and
            NGOs, and share your pet moments with people who care.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 4, justifyContent: 'center' }}>
            <Button component={Link} to="/adoption" variant="contained" size="large">
              Find a pet to adopt
            </Button>
            <Button component={Link} to="/posts" variant="outlined" size="large" color="secondary">
              See community posts
            </Button>
          </Stack>
        </Container>
      </Box>

      <Container maxWidth="lg" sx={{ py: { xs: 6, md: 9 } }}>
        <Typography variant="h4" component="h2" textAlign="center" gutterBottom>
          How It Works
        </Typography>
        <Box
          sx={{ display: 'grid', gap: 3, mt: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}
        >
          {STEPS.map(({ Icon, title, text }, i) => (
            <Card key={title}>
              <CardContent sx={{ p: 3 }}>
                <Box
                  sx={{
                    width: 52,
                    height: 52,
                    borderRadius: 3,
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: 'rgba(180, 70, 47, 0.1)',
                    color: 'primary.main',
                    mb: 2,
                  }}
                >
                  <Icon aria-hidden />
                </Box>
                <Typography variant="h6" component="h3">
                  {i + 1}. {title}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 1 }}>
                  {text}
                </Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 5, justifyContent: 'center' }}>
          <Button component={Link} to="/clinics" variant="text">
            Find a vet clinic
          </Button>
          <Button component={Link} to="/ngo" variant="text">
            Meet animal-welfare NGOs
          </Button>
          <Button component={Link} to="/contactus" variant="text">
            Contact us
          </Button>
        </Stack>
      </Container>
    </>
  );
}
