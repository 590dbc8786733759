import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import { ADOPTION_LIMITS } from '@pawhaven/contracts';
import type { MyAdoptionsState } from './CreateAdoptionPage';
import { MyAdoptionsPanel } from './MyAdoptionsPanel';

/** /my-adoptions: the panel, plus the success text passed in navigation state, shown for 5 seconds. */
export default function MyAdoptionsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [message, setMessage] = useState(() => (location.state as MyAdoptionsState | null)?.message ?? null);

  useEffect(() => {
    if (!message) return;
    // Shown once: a reload or Back must not show it again.
    if ((location.state as MyAdoptionsState | null)?.message)
      navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    const t = setTimeout(() => setMessage(null), ADOPTION_LIMITS.successMessageMs);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per message, not again when the location changes
  }, [message]);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      {message && (
        <Alert severity="success" role="status" onClose={() => setMessage(null)} sx={{ mb: 3 }}>
          {message}
        </Alert>
      )}
      <MyAdoptionsPanel heading="h1" title="My Adoption Posts" />
    </Container>
  );
}
