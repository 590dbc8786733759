import { ContactSection } from '../contact/ContactSection';
import { OfferSection } from './OfferSection';
import { StatsStrip } from './StatsStrip';
import { SupportSection } from './SupportSection';
import { TeamPreview } from './TeamPreview';

/**
 * The landing page below How It Works (spec 000 §1, in order): What We Offer, the stats strip, the Support trio,
 * the ambassador and collaborator cards, and the contact block. Its own chunk, loaded after the hero is shown.
 */
export default function BelowFold() {
  return (
    <>
      <OfferSection />
      <StatsStrip />
      <SupportSection />
      <TeamPreview />
      <ContactSection idPrefix="landing-contact" />
    </>
  );
}
