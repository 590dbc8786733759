import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACCOUNT_MESSAGES, type PendingSignInResponse } from '@pawhaven/contracts';
import { ApiError, errorText } from '../shared/api';
import { rememberedLogin } from '../shared/storage';
import { accountsApi } from './api';
import { AuthCard } from './AuthCard';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { GoogleAuth } from './GoogleAuth';
import { PasswordField } from './PasswordField';
import { registrationTokens } from './registration-token';
import { useCompleteSignIn } from './useCompleteSignIn';

type LocationState = { email?: string; notice?: string } | null;

export default function SignInPage() {
  const navigate = useNavigate();
  const state = useLocation().state as LocationState;
  const completeSignIn = useCompleteSignIn();
  const [remembered] = useState(rememberedLogin.read);
  const [email, setEmail] = useState(state?.email ?? remembered.email);
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(remembered.rememberMe);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  // The Forgot Password link opens its dialog through the URL (`?forgot`), so it is a real, shareable link.
  const [params, setParams] = useSearchParams();
  const forgotOpen = params.has('forgot');
  const closeForgot = () =>
    setParams(
      (p) => {
        p.delete('forgot');
        return p;
      },
      { replace: true, state },
    );
  const signin = useMutation({ mutationFn: accountsApi.signin });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setUnverifiedEmail(null);
    const errors = {
      email: email.trim() ? undefined : ACCOUNT_MESSAGES.emailRequired,
      password: password ? undefined : ACCOUNT_MESSAGES.passwordRequired,
    };
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    const address = email.trim();
    signin.mutate(
      { email: address, password, rememberMe },
      {
        onSuccess: (res) => {
          if (!res?.token || !res.user) {
            setError('Login failed: No token received.');
            return;
          }
          rememberedLogin.write(rememberMe, address);
          completeSignIn(res, rememberMe);
        },
        onError: (err) => {
          const pending =
            err instanceof ApiError ? (err.body as Partial<PendingSignInResponse> | null) : null;
          if (err instanceof ApiError && err.status === 403 && pending?.needsVerification) {
            // Not verified yet: the server has sent a fresh code, and a token so this tab can verify it.
            registrationTokens.save(pending.email ?? address, pending.registrationToken);
            setUnverifiedEmail(pending.email ?? address);
            setError(err.serverMessage ?? ACCOUNT_MESSAGES.emailNotVerified);
            return;
          }
          setError(errorText(err, ACCOUNT_MESSAGES.invalidCredentials, 'An error occurred while signing in'));
        },
      },
    );
  };

  return (
    <AuthCard title="Welcome back" subtitle="Sign in to adopt, share and care with the community.">
      {state?.notice && !error && (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {state.notice}
        </Alert>
      )}
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ mt: 1 }}>
        <TextField
          id="signin-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (fieldErrors.email) setFieldErrors((f) => ({ ...f, email: undefined }));
          }}
          error={Boolean(fieldErrors.email)}
          helperText={fieldErrors.email}
        />
        <PasswordField
          id="signin-password"
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            if (fieldErrors.password) setFieldErrors((f) => ({ ...f, password: undefined }));
          }}
          error={Boolean(fieldErrors.password)}
          helperText={fieldErrors.password}
        />
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            gap: 1,
            mt: 0.5,
          }}
        >
          <FormControlLabel
            control={<Checkbox checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />}
            label="Remember me"
          />
          <Link component={RouterLink} to="?forgot" state={state} sx={{ fontWeight: 700 }}>
            Forgot Password?
          </Link>
        </Box>

        {error && (
          <Alert
            severity={unverifiedEmail ? 'warning' : 'error'}
            sx={{ mt: 2 }}
            action={
              unverifiedEmail ? (
                <Button
                  color="inherit"
                  size="small"
                  onClick={() => navigate('/verify-registration', { state: { email: unverifiedEmail } })}
                >
                  Verify email
                </Button>
              ) : undefined
            }
          >
            {error}
          </Alert>
        )}

        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={signin.isPending}
          sx={{ mt: 3 }}
        >
          {signin.isPending ? 'Signing in...' : 'Sign in'}
        </Button>
      </Box>

      <GoogleAuth />

      <Typography textAlign="center" sx={{ mt: 3 }}>
        Don&apos;t have an account?{' '}
        <Link component={RouterLink} to="/signup" fontWeight={700}>
          Sign up
        </Link>
      </Typography>

      <ForgotPasswordDialog open={forgotOpen} onClose={closeForgot} initialEmail={email.trim()} />
    </AuthCard>
  );
}
