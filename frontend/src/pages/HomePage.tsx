import { lazy, Suspense } from 'react';
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
import { useAfterFirstPaint } from '../landing/useAfterFirstPaint';
import { usePrerenderHandoff } from '../shared/prerender';
import { palette } from '../theme';

// Everything below How It Works is its own chunk, fetched once the hero is on screen.
const BelowFold = lazy(() => import('../landing/BelowFold'));

const HERO_IMAGE = { src: '/media/landing/hero.svg', width: 480, height: 400 };

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

/**
 * The landing page, in this order: the hero (adopt, don't shop), How It Works, then, loaded after them
 * (../landing/BelowFold), What We Offer, the stats strip, the Support trio, the team cards and the contact block.
 */
export default function HomePage() {
  const showBelowFold = useAfterFirstPaint();
  // The hero and How It Works are prerendered in index.html (scripts/snapshot-prerender.mjs): this replaces them.
  usePrerenderHandoff();
  return (
    <>
      <Box
        sx={{
          background: `radial-gradient(circle at 85% 20%, ${palette.amber}55 0, transparent 45%), linear-gradient(135deg, ${palette.sand} 0%, ${palette.cream} 60%)`,
          py: { xs: 7, md: 12 },
        }}
      >
        <Container
          maxWidth="lg"
          sx={{
            display: 'grid',
            gap: 4,
            alignItems: 'center',
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 7fr) minmax(0, 5fr)' },
          }}
        >
          <Box sx={{ textAlign: { xs: 'left', sm: 'center', md: 'left' } }}>
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
              sx={{ mt: 2, fontWeight: 500, maxWidth: 640, mx: { xs: 0, sm: 'auto', md: 0 } }}
            >
              Every pet deserves a safe, loving home. Meet rescued dogs, cats and more, connect with vets and
              NGOs, and share your pet moments with people who care.
            </Typography>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ mt: 4, justifyContent: { sm: 'center', md: 'flex-start' } }}
            >
              <Button component={Link} to="/adoption" variant="contained" size="large">
                Find a pet to adopt
              </Button>
              <Button component={Link} to="/posts" variant="outlined" size="large" color="secondary">
                See community posts
              </Button>
            </Stack>
          </Box>
          {/* Decorative, wide screens only: lazy, so phones never download it. */}
          <Box
            sx={{
              display: { xs: 'none', md: 'block' },
              justifySelf: 'center',
              width: '100%',
              maxWidth: HERO_IMAGE.width,
            }}
          >
            <img
              src={HERO_IMAGE.src}
              width={HERO_IMAGE.width}
              height={HERO_IMAGE.height}
              alt=""
              loading="lazy"
              decoding="async"
              style={{ display: 'block', width: '100%', height: 'auto' }}
            />
          </Box>
        </Container>
      </Box>

      <Container
        component="section"
        aria-labelledby="how-heading"
        maxWidth="lg"
        sx={{ py: { xs: 6, md: 9 } }}
      >
        <Typography
          id="how-heading"
          variant="h4"
          component="h2"
          textAlign="center"
          gutterBottom
          sx={{ fontSize: { xs: '1.8rem', md: '2.125rem' } }}
        >
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

      {/* The space is kept while it loads: nothing visible moves when it arrives. */}
      <Suspense fallback={<Box aria-hidden sx={{ minHeight: '100vh' }} />}>
        {showBelowFold ? <BelowFold /> : <Box aria-hidden sx={{ minHeight: '100vh' }} />}
      </Suspense>
    </>
  );
}
