import Box from '@mui/material/Box';
import { ContactSection } from './ContactSection';
import { usePrerenderHandoff } from '../shared/prerender';

/** /contactus: the same contact block and form as the landing page, as a page of its own. */
export default function ContactPage() {
  // The prerendered first screen (index.html) goes once this one is rendered.
  usePrerenderHandoff();
  return (
    <Box>
      <ContactSection title="Contact Us" headingComponent="h1" idPrefix="contact-page" />
    </Box>
  );
}
