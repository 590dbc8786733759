import { startTransition, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import { ContactSection } from '../contact/ContactSection';
import { OfferSection } from './OfferSection';
import { StatsStrip } from './StatsStrip';
import { SupportSection } from './SupportSection';
import { TeamPreview } from './TeamPreview';

const SECTIONS = [
  <OfferSection key="offer" />,
  <StatsStrip key="stats" />,
  <SupportSection key="support" />,
  <TeamPreview key="team" />,
  <ContactSection key="contact" idPrefix="landing-contact" />,
];

/**
 * The landing page below How It Works, in this order: What We Offer, the stats strip, the Support trio, the ambassador
 * and collaborator cards, and the contact block. Its own chunk, loaded after the hero is shown. The sections are added
 * one at a time, each in a transition after the previous one is committed (React's scheduler runs them as separate,
 * interruptible tasks), so building them never blocks the phone for long; the space below is kept until the last one is
 * in (nothing visible moves).
 */
export default function BelowFold() {
  const [count, setCount] = useState(1);
  useEffect(() => {
    if (count < SECTIONS.length) startTransition(() => setCount((c) => Math.min(c + 1, SECTIONS.length)));
  }, [count]);
  return (
    <>
      {SECTIONS.slice(0, count)}
      {count < SECTIONS.length && <Box aria-hidden sx={{ minHeight: '100vh' }} />}
    </>
  );
}
