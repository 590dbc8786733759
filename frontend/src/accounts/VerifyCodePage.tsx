import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { errorText } from '../shared/api';
import { resetFlow } from '../shared/storage';
import { accountsApi } from './api';
import { AuthCard } from './AuthCard';

/** Password reset, step 2: the emailed code. A verified code is kept for the reset step. */
export default function VerifyCodePage() {
  const navigate = useNavigate();
  const state = useLocation().state as { email?: string; notice?: string } | null;
  const [email] = useState(() => state?.email || resetFlow.read().email);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(state?.notice ?? null);
  const verify = useMutation({ mutationFn: (c: string) => accountsApi.verifyResetCode(email, c) });
  const resend = useMutation({ mutationFn: () => accountsApi.resendResetCode(email) });

  if (!email) {
    return (
      <AuthCard title="Verify Code">
        <Typography textAlign="center" sx={{ mt: 2 }}>
          Your password reset has not started or has expired.{' '}
          <Link component={RouterLink} to="/signin" fontWeight={700}>
            Back to sign in
          </Link>{' '}
          and choose Forgot Password to receive a new code.
        </Typography>
      </AuthCard>
    );
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const trimmed = code.trim();
    if (!trimmed) {
      setCodeError(ACCOUNT_MESSAGES.codeRequired);
      return;
    }
    verify.mutate(trimmed, {
      onSuccess: () => {
        resetFlow.setEmail(email);
        resetFlow.setCode(trimmed);
        navigate('/reset-password');
      },
      onError: (err) =>
        setError(errorText(err, 'Failed to verify code.', 'An error occurred while verifying the code.')),
    });
  };

  const onResend = () => {
    setError(null);
    setNotice(null);
    resend.mutate(undefined, {
      onSuccess: () => {
        setCode('');
        setNotice(ACCOUNT_MESSAGES.resetCodeResent);
      },
      onError: (err) =>
        setError(errorText(err, 'Failed to resend code.', 'An error occurred while resending the code.')),
    });
  };

  return (
    <AuthCard
      title="Verify Code"
      subtitle={
        <>
          Enter the verification code we sent to <strong>{email}</strong>.
        </>
      }
    >
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ mt: 1 }}>
        <TextField
          id="reset-code"
          label="Verification Code"
          autoComplete="one-time-code"
          autoFocus
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setCodeError(null);
          }}
          error={Boolean(codeError)}
          helperText={codeError}
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              maxLength: 12,
              style: { letterSpacing: '0.3em', fontSize: '1.2rem' },
            },
          }}
        />
        {notice && (
          <Alert severity="info" role="status" sx={{ mt: 1 }}>
            {notice}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" size="large" fullWidth disabled={verify.isPending}>
            {verify.isPending ? 'Verifying...' : 'Verify Code'}
          </Button>
          <Button
            type="button"
            variant="outlined"
            size="large"
            fullWidth
            onClick={onResend}
            disabled={resend.isPending}
          >
            {resend.isPending ? 'Sending...' : 'Resend Code'}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}
