import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { SectionHeading } from './SectionHeading';

const SUPPORT_IMAGE_WIDTH = 240;
const SUPPORT_IMAGE_HEIGHT = 160;

/** The Support trio: adopt, rescue, foster. The pictures are our own (public/media/landing). */
const WAYS = [
  {
    key: 'adopt',
    title: 'Adopt',
    text: 'Give a rescued dog, cat or other companion a forever home. Adopt, don’t shop.',
    image: '/media/landing/adopt.svg',
    alt: 'A house with a heart on its door',
    action: { to: '/adoption', label: 'Adopt a pet' },
  },
  {
    key: 'rescue',
    title: 'Rescue',
    text: 'Report an animal in need or join a rescue drive with animal-welfare NGOs near you.',
    image: '/media/landing/rescue.svg',
    alt: 'A paw print under a first-aid cross',
    action: { to: '/ngo', label: 'Help with a rescue' },
  },
  {
    key: 'foster',
    title: 'Foster',
    text: 'Open your home for a few weeks while a pet recovers and waits for its family.',
    image: '/media/landing/foster.svg',
    alt: 'A cat resting on a soft cushion',
    action: { to: '/contactus', label: 'Become a foster' },
  },
];

export function SupportSection() {
  return (
    <Box component="section" aria-labelledby="support-heading" sx={{ py: { xs: 6, md: 9 } }}>
      <Container maxWidth="lg">
        <SectionHeading
          id="support-heading"
          title="Support Our Cause"
          intro="Every rescued animal needs someone. Here are three ways you can be that someone."
        />
        <Box
          sx={{
            mt: 4,
            display: 'grid',
            gap: 3,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' },
          }}
        >
          {WAYS.map((way) => (
            <Card
              key={way.key}
              component="article"
              aria-labelledby={`support-${way.key}`}
              sx={{ display: 'flex', flexDirection: 'column', borderRadius: '20px', overflow: 'hidden' }}
            >
              <img
                src={way.image}
                alt={way.alt}
                width={SUPPORT_IMAGE_WIDTH}
                height={SUPPORT_IMAGE_HEIGHT}
                loading="lazy"
                decoding="async"
                style={{
                  display: 'block',
                  width: '100%',
                  height: 'auto',
                  aspectRatio: `${SUPPORT_IMAGE_WIDTH} / ${SUPPORT_IMAGE_HEIGHT}`,
                  maxHeight: 200,
                  objectFit: 'cover',
                }}
              />
              <Box sx={{ p: 3, display: 'flex', flexDirection: 'column', flex: 1 }}>
                <Typography id={`support-${way.key}`} variant="h5" component="h3">
                  {way.title}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 1, mb: 2 }}>
                  {way.text}
                </Typography>
                <Button
                  component={RouterLink}
                  to={way.action.to}
                  variant="outlined"
                  sx={{ mt: 'auto', alignSelf: 'flex-start' }}
                >
                  {way.action.label}
                </Button>
              </Box>
            </Card>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
