import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EmailIcon from '@mui/icons-material/EmailOutlined';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import XIcon from '@mui/icons-material/X';
import YouTubeIcon from '@mui/icons-material/YouTube';
import { useConfig } from '../shared/config';
import { mailtoHref } from '../shared/contact-links';
import { palette } from '../theme';
import { Logo } from './Logo';
import { CONTACT_EMAIL, NAV_ITEMS } from './navigation';
import { socialLinks, type SocialNetwork } from './social';

const ICONS: Record<SocialNetwork, typeof FacebookIcon> = {
  facebook: FacebookIcon,
  instagram: InstagramIcon,
  x: XIcon,
  youtube: YouTubeIcon,
};

export function Footer() {
  const year = new Date().getFullYear();
  const social = socialLinks(useConfig().data?.social);
  return (
    <Box component="footer" sx={{ bgcolor: palette.cocoa, color: palette.cream, mt: 'auto', pt: 5, pb: 3 }}>
      <Container maxWidth="lg">
        <Box
          sx={{
            display: 'grid',
            gap: 4,
            gridTemplateColumns: { xs: '1fr', md: '2fr 1fr 1.4fr' },
          }}
        >
          <Box>
            <Logo light />
            <Typography sx={{ mt: 1.5, opacity: 0.85, maxWidth: 380 }}>
              Rescue, adoption and veterinary care with Pakistan&apos;s animal-welfare community. Based in
              Lahore, serving nationwide, with a 24/7 rescue support network.
            </Typography>
          </Box>
          <Box component="nav" aria-label="Footer">
            <Typography
              variant="subtitle2"
              component="h2"
              sx={{ mb: 1, textTransform: 'uppercase', letterSpacing: '0.08em', opacity: 0.7 }}
            >
              Explore
            </Typography>
            <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 0.75 }}>
              {NAV_ITEMS.map((item) => (
                <Link key={item.to} component={RouterLink} to={item.to} color="inherit">
                  {item.label}
                </Link>
              ))}
            </Box>
          </Box>
          <Box>
            <Typography
              variant="subtitle2"
              component="h2"
              sx={{ mb: 1, textTransform: 'uppercase', letterSpacing: '0.08em', opacity: 0.7 }}
            >
              Stay in touch
            </Typography>
            <Link
              href={mailtoHref(CONTACT_EMAIL)}
              color="inherit"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, wordBreak: 'break-all' }}
            >
              <EmailIcon fontSize="small" aria-hidden />
              {CONTACT_EMAIL}
            </Link>
            {social.length > 0 && (
              <Stack direction="row" spacing={0.5} sx={{ mt: 1.5, ml: -1 }}>
                {social.map(({ network, label, href }) => {
                  const Icon = ICONS[network];
                  return (
                    <IconButton
                      key={network}
                      component="a"
                      href={href}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={label}
                      sx={{ color: 'inherit' }}
                    >
                      <Icon />
                    </IconButton>
                  );
                })}
              </Stack>
            )}
          </Box>
        </Box>
        <Typography
          variant="body2"
          sx={{
            mt: 4,
            pt: 2,
            borderTop: '1px solid rgba(255,248,240,0.15)',
            opacity: 0.8,
            textAlign: 'center',
          }}
        >
          © {year} PawHaven. All rights reserved.
        </Typography>
      </Container>
    </Box>
  );
}
