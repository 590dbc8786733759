import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { errorText } from '../shared/api';
import { resetFlow } from '../shared/storage';
import { accountsApi } from './api';
import { AuthCard } from './AuthCard';
import { PasswordField } from './PasswordField';
import { newPasswordProblem, PASSWORD_OK } from './validation';

/** Password reset, step 3: a new password under the same rules as sign-up; success goes to /signin. */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [{ email, code }] = useState(resetFlow.read);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const reset = useMutation({ mutationFn: accountsApi.resetPassword });

  if (!email || !code) {
    return (
      <AuthCard title="Reset Password">
        <Typography textAlign="center" sx={{ mt: 2 }}>
          Please verify the code from your email first.{' '}
          <Link component={RouterLink} to="/signin" fontWeight={700}>
            Back to sign in
          </Link>{' '}
          and choose Forgot Password to receive a new code.
        </Typography>
      </AuthCard>
    );
  }

  const passwordError = touched ? newPasswordProblem(password) : null;
  const mismatch = confirm && password !== confirm ? ACCOUNT_MESSAGES.passwordsDoNotMatch : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setTouched(true);
    const problem = newPasswordProblem(password);
    const cErr = !confirm
      ? ACCOUNT_MESSAGES.passwordRequired
      : password !== confirm
        ? ACCOUNT_MESSAGES.passwordsDoNotMatch
        : null;
    setConfirmError(cErr);
    if (problem || cErr) return;
    reset.mutate(
      { email, code, newPassword: password },
      {
        onSuccess: (res) => {
          resetFlow.clear();
          const message = res?.message || ACCOUNT_MESSAGES.passwordReset;
          setSuccess(message);
          timer.current = window.setTimeout(
            () => navigate('/signin', { replace: true, state: { email, notice: message } }),
            ACCOUNT_LIMITS.redirectAfterVerifyMs,
          );
        },
        onError: (err) =>
          setError(
            errorText(err, 'Failed to reset password.', 'An error occurred while resetting the password.'),
          ),
      },
    );
  };

  return (
    <AuthCard
      title="Reset Password"
      subtitle={
        <>
          Choose a new password for <strong>{email}</strong>.
        </>
      }
    >
      <Box component="form" onSubmit={onSubmit} noValidate sx={{ mt: 1 }}>
        <PasswordField
          id="reset-new-password"
          label="New Password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setTouched(true);
          }}
          error={Boolean(passwordError)}
          helperText={passwordError}
          successText={touched && !passwordError ? PASSWORD_OK : null}
        />
        <PasswordField
          id="reset-confirm-password"
          label="Confirm New Password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            setConfirmError(null);
          }}
          error={Boolean(confirmError || mismatch)}
          helperText={confirmError || mismatch}
        />
        {success && (
          <Alert severity="success" role="status" sx={{ mt: 2 }}>
            {success}
          </Alert>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={reset.isPending || Boolean(success) || Boolean(passwordError)}
          sx={{ mt: 3 }}
        >
          {reset.isPending ? 'Resetting...' : 'Reset Password'}
        </Button>
      </Box>
    </AuthCard>
  );
}
