import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { DIRECTORY_MESSAGES } from '@pawhaven/contracts';
import { DIRECTORY_STALE_MS, directoryApi, directoryKeys } from './api';
import { PageHeading } from './components/DirectoryLayout';
import { toggleOpen } from './faq';
import { RetryAlert } from '../shared/ui/RetryAlert';

/**
 * The FAQ: the questions from GET /api/faqRoutes; clicking one opens its answer and closes the one open before (one
 * open at a time); clicking it again closes it. A spinner while loading, and 'Error: Failed to fetch FAQs' when the
 * list cannot be read.
 */
export default function FaqPage() {
  const faqs = useQuery({
    queryKey: directoryKeys.faqs(),
    queryFn: ({ signal }) => directoryApi.faqs(signal),
    staleTime: DIRECTORY_STALE_MS,
  });
  const [open, setOpen] = useState<string | null>(null);

  return (
    <Box>
      <PageHeading
        title={DIRECTORY_MESSAGES.faqTitle}
        intro="Answers about adopting, rehoming, pet care and using PawHaven."
      />
      <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
        <Box component="section" aria-label="Questions and answers" aria-busy={faqs.isFetching}>
          {faqs.isPending ? (
            <Box role="status" sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
              <CircularProgress aria-label="Loading questions" />
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
