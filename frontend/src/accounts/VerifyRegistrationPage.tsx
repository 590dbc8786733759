import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import TimerIcon from '@mui/icons-material/TimerOutlined';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES } from '@pawhaven/contracts';
import { ApiError, errorText } from '../shared/api';
import { useConfig } from '../shared/config';
import { accountsApi } from './api';
import { AuthCard } from './AuthCard';
import { registrationTokens } from './registration-token';
import { mmss, useCountdown } from './useCountdown';

/**
 * Email verification after sign-up: the code is valid for 120 s; at 0 the page shows 'Expired', Resend OTP becomes
 * available and Verify is disabled. Success goes to /signin after 2 s.
 *
 * The code is sent with the sign-up's registration token this tab kept: a sign-up replaced by a newer one (maybe
 * someone else's) or expired is told to sign up again; without a token (another browser) the user is sent to
 * sign in with their password, which hands this tab a token and mails a new code.
 */
type NextStep = 'signup' | 'signin' | null;

/** What the server's refusal asks the user to do next. */
function nextStepOf(err: unknown): NextStep {
  if (!(err instanceof ApiError) || err.kind !== 'http') return null;
  if (err.status === 410 || err.serverMessage === ACCOUNT_MESSAGES.registrationReplaced) return 'signup';
  if (err.serverMessage === ACCOUNT_MESSAGES.registrationTokenMissing) return 'signin';
  return null;
}

export default function VerifyRegistrationPage() {
  const navigate = useNavigate();
  const passedEmail = (useLocation().state as { email?: string } | null)?.email ?? '';
  const { data: config } = useConfig();
  const otpSeconds = config?.otpSeconds ?? ACCOUNT_LIMITS.otpSeconds;
  const { remaining, expired, restart } = useCountdown(otpSeconds);

  const [email, setEmail] = useState(passedEmail);
  const [otp, setOtp] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [nextStep, setNextStep] = useState<NextStep>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((t) => clearTimeout(t)), []);

  const verify = useMutation({ mutationFn: accountsApi.verifyRegistration });
  const resend = useMutation({ mutationFn: accountsApi.resendOtp });

  const onVerify = (e: FormEvent) => {
    e.preventDefault();
    if (expired || success) return;
    setError(null);
    setNextStep(null);
    const eErr = email.trim() ? null : ACCOUNT_MESSAGES.emailRequired;
    const cErr = otp.trim() ? null : ACCOUNT_MESSAGES.codeRequired;
    setEmailError(eErr);
    setCodeError(cErr);
    if (eErr || cErr) return;
    const address = email.trim();
    verify.mutate(
      { email: address, otp: otp.trim(), registrationToken: registrationTokens.read(address) },
      {
        onSuccess: () => {
          registrationTokens.clear(address);
          setSuccess(ACCOUNT_MESSAGES.verified);
          timers.current.push(
            window.setTimeout(
              () => navigate('/signin', { replace: true, state: { email: email.trim() } }),
              ACCOUNT_LIMITS.redirectAfterVerifyMs,
            ),
          );
        },
        onError: (err) => {
          setNextStep(nextStepOf(err));
          setError(errorText(err, 'Verification failed', 'An error occurred while verifying the OTP'));
        },
      },
    );
  };

  const onResend = () => {
    setError(null);
    setNextStep(null);
    if (!email.trim()) {
      setEmailError(ACCOUNT_MESSAGES.emailRequiredForResend);
      return;
    }
    const address = email.trim();
    resend.mutate(
      { email: address, registrationToken: registrationTokens.read(address) },
      {
        onSuccess: () => {
          restart(otpSeconds);
          setOtp('');
          setCodeError(null);
          setNotice(ACCOUNT_MESSAGES.otpResent);
          timers.current.push(window.setTimeout(() => setNotice(null), ACCOUNT_LIMITS.resendNoticeMs));
        },
        onError: (err) => {
          setNextStep(nextStepOf(err));
          setError(errorText(err, 'Failed to resend OTP', 'An error occurred while resending OTP'));
        },
      },
    );
  };

  return (
    <AuthCard
      title="Verify Your Email"
      subtitle={
        passedEmail ? (
          <>
            We sent a verification code to <strong>{passedEmail}</strong>.
          </>
        ) : (
          'Enter your email and the verification code we sent you.'
        )
      }
    >
      <Box component="form" onSubmit={onVerify} noValidate sx={{ mt: 1 }}>
        <TextField
          id="verify-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setEmailError(null);
          }}
          disabled={Boolean(passedEmail)}
          slotProps={{ htmlInput: { readOnly: Boolean(passedEmail) } }}
          error={Boolean(emailError)}
          helperText={emailError}
        />
        <TextField
          id="verify-otp"
          label="Verification Code"
          autoComplete="one-time-code"
          value={otp}
          onChange={(e) => {
            setOtp(e.target.value);
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

        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 1,
            mt: 1,
            color: expired ? 'error.main' : 'text.secondary',
          }}
        >
          <TimerIcon fontSize="small" aria-hidden />
          <Typography
            role="timer"
            aria-label={expired ? 'Code expired' : `Code expires in ${mmss(remaining)}`}
            fontWeight={700}
          >
            {expired ? 'Expired' : mmss(remaining)}
          </Typography>
        </Box>

        {notice && (
          <Alert severity="info" role="status" sx={{ mt: 2 }}>
            {notice}
          </Alert>
        )}
        {success && (
          <Alert severity="success" role="status" sx={{ mt: 2 }}>
            {success}
          </Alert>
        )}
        {error && (
          <Alert
            severity="error"
            sx={{ mt: 2 }}
            action={
              nextStep === 'signup' ? (
                <Button color="inherit" size="small" onClick={() => navigate('/signup')}>
                  Sign up again
                </Button>
              ) : nextStep === 'signin' ? (
                <Button
                  color="inherit"
                  size="small"
                  onClick={() => navigate('/signin', { state: { email: email.trim() } })}
                >
                  Sign in
                </Button>
              ) : undefined
            }
          >
            {error}
          </Alert>
        )}

        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3 }}>
          <Button
            type="submit"
            variant="contained"
            size="large"
            fullWidth
            disabled={expired || verify.isPending || Boolean(success)}
          >
            {verify.isPending ? 'Verifying...' : 'Verify'}
          </Button>
          <Button
            type="button"
            variant="outlined"
            size="large"
            fullWidth
            onClick={onResend}
            disabled={!expired || resend.isPending || Boolean(success)}
          >
            {resend.isPending ? 'Sending...' : 'Resend OTP'}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}
