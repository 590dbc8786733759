import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EmailIcon from '@mui/icons-material/EmailOutlined';
import PhoneIcon from '@mui/icons-material/PhoneOutlined';
import { mailtoHref, telHref } from '../../shared/contact-links';

/** Phone and e-mail as links that call or write; the e-mail is optional for clinics. */
export function ContactLinks({ phone, email }: { phone?: string | null; email?: string | null }) {
  if (!phone && !email) return <Typography color="text.secondary">No contact details listed.</Typography>;
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {phone && (
        <Stack component="li" direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <PhoneIcon fontSize="small" color="secondary" aria-hidden />
          <Link href={telHref(phone)} sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {phone}
          </Link>
        </Stack>
      )}
      {email && (
        <Stack component="li" direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
          <EmailIcon fontSize="small" color="secondary" aria-hidden />
          <Link href={mailtoHref(email)} sx={{ fontWeight: 700, overflowWrap: 'anywhere', minWidth: 0 }}>
            {email}
          </Link>
        </Stack>
      )}
    </Stack>
  );
}
