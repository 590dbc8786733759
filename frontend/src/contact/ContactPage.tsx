import Box from '@mui/material/Box';
import { ContactSection } from './ContactSection';

/** /contactus: the same contact block and form as the landing page, as a page of its own. */
export default function ContactPage() {
  return (
    <Box>
      <ContactSection title="Contact Us" headingComponent="h1" idPrefix="contact-page" />
    </Box>
  );
}
