import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { DIRECTORY_MESSAGES } from '@pawhaven/contracts';
import { DIRECTORY_STALE_MS, directoryApi, directoryKeys } from './api';
import { PageHeading } from './components/DirectoryLayout';
import { toggleOpen } from './faq';
import { RetryAlert } from '../shared/ui/RetryAlert';
import { usePrerenderHandoff } from '../shared/prerender';
import { visuallyHidden } from '../shared/ui/visually-hidden';

/**
 * Rows of the loading state: about as tall as the questions will be, so the footer starts below a phone's screen and
 * nothing on screen moves when they arrive (the FAQ had a layout shift of 0.22 with a small spinner in their place).
 */
const SKELETON_ROWS = 10;

/**
 * The FAQ: the questions from GET /api/faqRoutes; clicking one opens its answer and closes the one open before (one
 * open at a time); clicking it again closes it. Placeholder rows while loading, and 'Error: Failed to fetch FAQs' when
 * the list cannot be read.
 */
export default function FaqPage() {
  const faqs = useQuery({
    queryKey: directoryKeys.faqs(),
    queryFn: ({ signal }) => directoryApi.faqs(signal),
    staleTime: DIRECTORY_STALE_MS,
  });
  const [open, setOpen] = useState<string | null>(null);
  // The prerendered first screen (index.html) goes once this one is rendered.
  usePrerenderHandoff();

  return (
    <Box>
      <PageHeading
        title={DIRECTORY_MESSAGES.faqTitle}
        intro="Answers about adopting, rehoming, pet care and using PawHaven."
      />
      <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
        <Box component="section" aria-label="Questions and answers" aria-busy={faqs.isFetching}>
          {faqs.isPending ? (
            <Box data-testid="faq-loading">
              <Box role="status" sx={visuallyHidden}>
                Loading questions…
              </Box>
              {Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <Skeleton
                  key={i}
                  variant="rounded"
                  aria-hidden
                  height={60}
                  sx={{ mb: 1.5, borderRadius: 3 }}
                />
              ))}
            </Box>
          ) : faqs.isError ? (
            <RetryAlert onRetry={() => void faqs.refetch()}>{DIRECTORY_MESSAGES.faqError}</RetryAlert>
          ) : faqs.data.length === 0 ? (
            <Typography color="text.secondary" sx={{ textAlign: 'center', py: 6 }}>
              {DIRECTORY_MESSAGES.faqEmpty}
            </Typography>
          ) : (
            faqs.data.map((faq) => {
              const expanded = open === faq._id;
              return (
                <Accordion
                  key={faq._id}
                  expanded={expanded}
                  onChange={() => setOpen((current) => toggleOpen(current, faq._id))}
                  disableGutters
                  slotProps={{ heading: { component: 'h2' } }}
                  sx={{
                    mb: 1.5,
                    borderRadius: 3,
                    border: 1,
                    borderColor: expanded ? 'primary.light' : 'divider',
                    '&::before': { display: 'none' },
                    '&.MuiAccordion-rounded': { borderRadius: 3 },
                  }}
                  elevation={0}
                >
                  <AccordionSummary
                    expandIcon={<ExpandMoreIcon aria-hidden />}
                    sx={{ px: { xs: 2, sm: 3 }, '& .MuiAccordionSummary-content': { my: 1.75, minWidth: 0 } }}
                  >
                    <Typography sx={{ fontWeight: 700, fontSize: '1.05rem', overflowWrap: 'anywhere' }}>
                      {faq.question}
                    </Typography>
                  </AccordionSummary>
                  <AccordionDetails sx={{ px: { xs: 2, sm: 3 }, pt: 0, pb: 2.5 }}>
                    <Typography
                      color="text.secondary"
                      sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
                    >
                      {faq.answer}
                    </Typography>
                  </AccordionDetails>
                </Accordion>
              );
            })
          )}
        </Box>
      </Container>
    </Box>
  );
}
