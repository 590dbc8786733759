import Container from '@mui/material/Container';
import { AdoptionHistoryPanel } from './AdoptionHistoryPanel';

/** /adoptionhistory: the user's own adoption requests. */
export default function AdoptionHistoryPage() {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      <AdoptionHistoryPanel heading="h1" />
    </Container>
  );
}
