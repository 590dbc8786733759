import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EmailIcon from '@mui/icons-material/EmailOutlined';
import LocationIcon from '@mui/icons-material/PlaceOutlined';
import PublicIcon from '@mui/icons-material/PublicOutlined';
import SupportIcon from '@mui/icons-material/SupportAgentOutlined';
import { CONTACT_EMAIL } from '../layout/navigation';
import { mailtoHref } from '../shared/contact-links';
import { palette } from '../theme';
import { ContactForm } from './ContactForm';

const FACTS = [
  { Icon: LocationIcon, title: 'Based in Lahore', text: 'Our team works from Lahore, Punjab.' },
  { Icon: PublicIcon, title: 'Serving nationwide', text: 'We help pets and people all over Pakistan.' },
  {
    Icon: SupportIcon,
    title: '24/7 rescue support network',
    text: 'Found an animal in danger? Our rescue network answers day and night.',
  },
];

/**
 * The contact block of the landing page and /contactus: where we are (Lahore, nationwide, a 24/7 rescue support
 * network) beside the contact form.
 */
export function ContactSection({
  title = 'Get in Touch',
  headingComponent = 'h2',
  idPrefix,
}: {
  title?: string;
  headingComponent?: 'h1' | 'h2';
  idPrefix?: string;
}) {
  const headingId = `${idPrefix ?? 'contact'}-heading`;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ py: { xs: 6, md: 9 } }}>
      <Container maxWidth="lg">
        <Box
          sx={{
            display: 'grid',
            gap: { xs: 3, md: 5 },
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 5fr) minmax(0, 7fr)' },
            alignItems: 'start',
          }}
        >
          <Box>
            <Typography
              id={headingId}
              variant="h4"
              component={headingComponent}
              sx={{ fontSize: { xs: '1.8rem', md: '2.125rem' } }}
            >
              {title}
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1.5 }}>
              Questions about adopting, fostering or volunteering? Want to report an animal that needs help?
              Send us a message and we will get back to you.
            </Typography>
            <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0, mt: 3 }}>
              {FACTS.map(({ Icon, title: factTitle, text }) => (
                <Stack
                  component="li"
                  key={factTitle}
                  direction="row"
                  spacing={1.5}
                  sx={{ alignItems: 'flex-start' }}
                >
                  <Box
                    sx={{
                      flexShrink: 0,
                      width: 44,
                      height: 44,
                      borderRadius: '50%',
                      display: 'grid',
                      placeItems: 'center',
                      bgcolor: palette.sand,
                      color: 'primary.dark',
                    }}
                  >
                    <Icon aria-hidden />
                  </Box>
                  <Box>
                    <Typography sx={{ fontWeight: 800 }}>{factTitle}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {text}
                    </Typography>
                  </Box>
                </Stack>
              ))}
              <Stack component="li" direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                <Box
                  sx={{
                    flexShrink: 0,
                    width: 44,
                    height: 44,
                    borderRadius: '50%',
                    display: 'grid',
                    placeItems: 'center',
                    bgcolor: palette.sand,
                    color: 'primary.dark',
                  }}
                >
                  <EmailIcon aria-hidden />
                </Box>
                <Link href={mailtoHref(CONTACT_EMAIL)} sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                  {CONTACT_EMAIL}
                </Link>
              </Stack>
            </Stack>
          </Box>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: '20px' }}>
            <ContactForm idPrefix={idPrefix} />
          </Paper>
        </Box>
      </Container>
    </Box>
  );
}
