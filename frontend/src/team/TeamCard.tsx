import { useState, type ReactNode } from 'react';
import type { TeamMemberDto } from '@pawhaven/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EmailIcon from '@mui/icons-material/EmailOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import LanguageIcon from '@mui/icons-material/Language';
import PhoneIcon from '@mui/icons-material/PhoneOutlined';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import VerifiedIcon from '@mui/icons-material/Verified';
import { mailtoHref, telHref } from '../shared/contact-links';
import { palette } from '../theme';
import {
  SECTION_LABELS,
  entriesOf,
  isVerifiedRole,
  memberKey,
  sectionsOf,
  toggleSection,
  type SectionKey,
} from './members';

const PORTRAIT_SIZE = 112;

/** Text for screen readers only (sizes in px: in `sx` a bare 1 would mean 100%). */
const srOnly = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

function Portrait({ member }: { member: TeamMemberDto }) {
  const [failed, setFailed] = useState(false);
  const frame = {
    width: PORTRAIT_SIZE,
    height: PORTRAIT_SIZE,
    borderRadius: '50%',
    flexShrink: 0,
    bgcolor: palette.sand,
    border: '3px solid #fff',
    boxShadow: '0 0 0 2px rgba(180, 70, 47, 0.25)',
  };
  if (!member.image || failed) {
    return (
      <Box
        role="img"
        aria-label={`Portrait of ${member.name}`}
        sx={{
          ...frame,
          display: 'grid',
          placeItems: 'center',
          fontSize: 40,
          fontWeight: 800,
          color: 'primary.dark',
        }}
      >
        <span aria-hidden>{member.name.trim().charAt(0).toUpperCase() || '?'}</span>
      </Box>
    );
  }
  // A plain <img>: its width and height attributes reserve the space before the picture arrives.
  return (
    <Box sx={{ ...frame, overflow: 'hidden' }}>
      <img
        src={member.image}
        alt={`Portrait of ${member.name}`}
        width={PORTRAIT_SIZE}
        height={PORTRAIT_SIZE}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
        style={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
      />
    </Box>
  );
}

const websiteHref = (site: string) => (/^https?:\/\//i.test(site) ? site : `https://${site}`);
const websiteText = (site: string) => site.replace(/^https?:\/\//i, '').replace(/\/$/, '');

/**
 * An ambassador's or collaborator's card: portrait, name, role (with the verified badge when the role contains
 * 'Ambassador'), summary, contact, and the details in sections of which at most one is open.
 */
export function TeamCard({
  member,
  headingLevel = 'h3',
}: {
  member: TeamMemberDto;
  headingLevel?: 'h2' | 'h3';
}) {
  const [open, setOpen] = useState<SectionKey | null>(null);
  const sections = sectionsOf(member);
  const verified = isVerifiedRole(member.role);
  const baseId = `member-${String(memberKey(member)).replace(/[^A-Za-z0-9_-]/g, '')}`;
  const contact = member.contact ?? { phone: '', email: '', website: '', location: '' };
  const details = (member.details ?? {}) as Partial<Record<SectionKey, unknown>>;
  const sub = headingLevel === 'h2' ? 'h3' : 'h4';

  return (
    <Card
      component="article"
      aria-labelledby={`${baseId}-name`}
      data-testid="team-card"
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        p: { xs: 2, sm: 2.5 },
        borderRadius: '20px',
      }}
    >
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Portrait member={member} />
        <Box sx={{ minWidth: 0 }}>
          <Typography
            id={`${baseId}-name`}
            variant="h6"
            component={headingLevel}
            sx={{ lineHeight: 1.25, overflowWrap: 'anywhere' }}
          >
            {member.name}
          </Typography>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', mt: 0.5, flexWrap: 'wrap' }}>
            <Typography variant="body2" sx={{ color: 'secondary.dark', fontWeight: 700 }}>
              {member.role}
            </Typography>
            {verified && (
              <Box
                component="span"
                role="img"
                aria-label="Verified ambassador"
                title="Verified ambassador"
                data-testid="verified-badge"
                sx={{ display: 'inline-flex', color: '#1565C0' }}
              >
                <VerifiedIcon fontSize="small" aria-hidden />
              </Box>
            )}
          </Stack>
        </Box>
      </Stack>

      {member.summary && (
        <Typography color="text.secondary" sx={{ mt: 2, overflowWrap: 'anywhere' }}>
          {member.summary}
        </Typography>
      )}

      {sections.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {sections.map((key) => (
              <Button
                key={key}
                size="small"
                variant={open === key ? 'contained' : 'outlined'}
                color="secondary"
                aria-expanded={open === key}
                aria-controls={`${baseId}-${key}`}
                onClick={() => setOpen((current) => toggleSection(current, key))}
                endIcon={
                  <ExpandMoreIcon
                    aria-hidden
                    sx={{
                      transition: 'transform 150ms',
                      transform: open === key ? 'rotate(180deg)' : 'none',
                    }}
                  />
                }
              >
                {SECTION_LABELS[key]}
              </Button>
            ))}
          </Stack>
          {sections.map((key) => (
            <Box
              key={key}
              id={`${baseId}-${key}`}
              role="region"
              aria-label={`${SECTION_LABELS[key]} of ${member.name}`}
              hidden={open !== key}
              sx={{ mt: 1.5, p: 1.5, borderRadius: '12px', bgcolor: palette.cream }}
            >
              <Typography component={sub} sx={{ fontWeight: 800, fontSize: '0.95rem' }}>
                {SECTION_LABELS[key]}
              </Typography>
              <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                {entriesOf(details[key]).map((entry, i) => (
                  <Typography component="li" variant="body2" key={i} sx={{ overflowWrap: 'anywhere' }}>
                    {entry}
                  </Typography>
                ))}
              </Box>
            </Box>
          ))}
        </Box>
      )}

      <Stack component="ul" spacing={0.75} sx={{ listStyle: 'none', p: 0, m: 0, mt: 'auto', pt: 2 }}>
        {contact.location && (
          <ContactLine Icon={PlaceIcon} label="Location">
            {contact.location}
          </ContactLine>
        )}
        {contact.phone && (
          <ContactLine Icon={PhoneIcon} label="Phone">
            <Link href={telHref(contact.phone)}>{contact.phone}</Link>
          </ContactLine>
        )}
        {contact.email && (
          <ContactLine Icon={EmailIcon} label="Email">
            <Link href={mailtoHref(contact.email)}>{contact.email}</Link>
          </ContactLine>
        )}
        {contact.website && (
          <ContactLine Icon={LanguageIcon} label="Website">
            <Link href={websiteHref(contact.website)} target="_blank" rel="noopener noreferrer">
              {websiteText(contact.website)}
            </Link>
          </ContactLine>
        )}
      </Stack>
    </Card>
  );
}

function ContactLine({
  Icon,
  label,
  children,
}: {
  Icon: typeof PlaceIcon;
  label: string;
  children: ReactNode;
}) {
  return (
    <Stack component="li" direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Icon aria-hidden fontSize="small" sx={{ color: 'text.secondary' }} />
      <Box component="span" sx={srOnly}>
        {label}:
      </Box>
      <Typography variant="body2" component="span" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {children}
      </Typography>
    </Stack>
  );
}
