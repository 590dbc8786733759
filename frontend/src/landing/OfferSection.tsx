import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import ContentCutIcon from '@mui/icons-material/ContentCut';
import HomeIcon from '@mui/icons-material/HomeOutlined';
import MedicalIcon from '@mui/icons-material/MedicalServicesOutlined';
import SchoolIcon from '@mui/icons-material/SchoolOutlined';
import ShoppingIcon from '@mui/icons-material/ShoppingBasketOutlined';
import VolunteerIcon from '@mui/icons-material/VolunteerActivismOutlined';
import { SectionHeading } from './SectionHeading';

/** The six services of What We Offer, in their order on the page. */
const SERVICES = [
  {
    Icon: SchoolIcon,
    title: 'Animal Training',
    text: 'Kind, reward-based training tips and trainers who help pets and families understand each other.',
  },
  {
    Icon: ContentCutIcon,
    title: 'Pet Grooming',
    text: 'Bathing, brushing, nail and coat care that keeps pets clean, comfortable and healthy.',
  },
  {
    Icon: VolunteerIcon,
    title: 'Animal Rescue',
    text: 'Rescue partners across Pakistan who pick up injured and abandoned animals and nurse them back.',
    link: { to: '/ngo', label: 'Meet rescue NGOs' },
  },
  {
    Icon: ShoppingIcon,
    title: 'Pet Supplies',
    text: 'Guidance on food, bedding, toys and the everyday basics a new pet needs.',
  },
  {
    Icon: MedicalIcon,
    title: 'Pet Vet',
    text: 'Veterinary clinics and vets near you for check-ups, vaccinations and emergencies.',
    link: { to: '/clinics', label: 'Find a clinic' },
  },
  {
    Icon: HomeIcon,
    title: 'Animal Adoption',
    text: 'Dogs, cats and other companions waiting for a loving forever home.',
    link: { to: '/adoption', label: 'See pets to adopt' },
  },
];

export function OfferSection() {
  return (
    <Box
      component="section"
      aria-labelledby="offer-heading"
      sx={{ bgcolor: 'background.paper', py: { xs: 6, md: 9 } }}
    >
      <Container maxWidth="lg">
        <SectionHeading
          id="offer-heading"
          title="What We Offer"
          intro="Everything a pet and its people need, from the first meeting to a long, happy life together."
        />
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            mt: 4,
            display: 'grid',
            gap: 3,
            gridTemplateColumns: {
              xs: 'minmax(0, 1fr)',
              sm: 'repeat(2, minmax(0, 1fr))',
              md: 'repeat(3, minmax(0, 1fr))',
            },
          }}
        >
          {SERVICES.map(({ Icon, title, text, link }) => (
            <Card
              component="li"
              key={title}
              sx={{ p: 3, bgcolor: 'background.default', borderRadius: '20px' }}
            >
              <Box
                sx={{
                  width: 52,
                  height: 52,
                  borderRadius: '50%',
                  display: 'grid',
                  placeItems: 'center',
                  bgcolor: 'secondary.main',
                  color: 'common.white',
                  mb: 2,
                }}
              >
                <Icon aria-hidden />
              </Box>
              <Typography variant="h6" component="h3">
                {title}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 1 }}>
                {text}
              </Typography>
              {link && (
                <Link
                  component={RouterLink}
                  to={link.to}
                  sx={{ display: 'inline-block', mt: 1.5, fontWeight: 700 }}
                >
                  {link.label}
                </Link>
              )}
            </Card>
          ))}
        </Box>
      </Container>
    </Box>
  );
}
