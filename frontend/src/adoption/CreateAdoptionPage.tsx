import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ADOPTION_MESSAGES } from '@pawhaven/contracts';
import { useSession } from '../shared/session';
import { PageLoader } from '../shared/ui/PageLoader';
import { AdoptionAdForm } from './components/AdoptionAdForm';

/** Navigation state that /my-adoptions shows for 5 seconds. */
export type MyAdoptionsState = { message?: string };

/** The create adoption ad page: on success it goes to /my-adoptions with the success text. */
export default function CreateAdoptionPage() {
  const navigate = useNavigate();
  const { user, ready } = useSession();
  const { key } = useLocation();
  // Back where the user came from; straight to the listing when this page was opened directly.
  const cancel = () => (key === 'default' ? navigate('/adoption') : navigate(-1));

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 }, px: { xs: 1.5, sm: 3 } }}>
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.75rem', md: '2.125rem' } }}>
        Create Adoption Ad
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        Tell adopters about your pet. Fields marked * are required.
      </Typography>
      {!ready ? (
        <PageLoader />
      ) : !user ? (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/signin" color="inherit" size="small">
              Log In
            </Button>
          }
        >
          {ADOPTION_MESSAGES.mustBeLoggedInToCreate}
        </Alert>
      ) : (
        <Paper elevation={0} sx={{ p: { xs: 2, sm: 4 }, border: 1, borderColor: 'divider' }}>
          <AdoptionAdForm
            mode="create"
            onCancel={cancel}
            onDone={(message) => navigate('/my-adoptions', { state: { message } satisfies MyAdoptionsState })}
          />
        </Paper>
      )}
    </Container>
  );
}
