import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { ACCOUNT_MESSAGES, isAcceptedEmail, invalidResetEmailMessage } from '@pawhaven/contracts';
import { errorText } from '../shared/api';
import { useConfig } from '../shared/config';
import { resetFlow } from '../shared/storage';
import { accountsApi } from './api';

/** Forgot Password: asks the email (accepted domain only), sends a code and goes to /verify-code. */
export function ForgotPasswordDialog({
  open,
  onClose,
  initialEmail,
}: {
  open: boolean;
  onClose: () => void;
  initialEmail: string;
}) {
  const navigate = useNavigate();
  const { data: config } = useConfig();
  const [email, setEmail] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({ mutationFn: accountsApi.forgotPassword });

  const validate = (value: string): string | null => {
    if (!value.trim()) return ACCOUNT_MESSAGES.emailRequired;
    if (config && !isAcceptedEmail(value, config.acceptedEmailDomain))
      return invalidResetEmailMessage(config.acceptedEmailDomain);
    return null;
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const problem = validate(email);
    setFieldError(problem);
    if (problem) return;
    const address = email.trim();
    send.mutate(address, {
      onSuccess: (res) => {
        resetFlow.setEmail(address);
        navigate('/verify-code', {
          state: { email: address, notice: res?.message || ACCOUNT_MESSAGES.resetCodeSent },
        });
      },
      onError: (err) =>
        setError(
          errorText(
            err,
            'Failed to send verification code.',
            'An error occurred while sending the verification code.',
          ),
        ),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={() => !send.isPending && onClose()}
      aria-labelledby="forgot-password-title"
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onEnter: () => setEmail((v) => v || initialEmail) } }}
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="forgot-password-title">Forgot Password</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Enter the email of your account and we&apos;ll send you a verification code.
          </DialogContentText>
          <TextField
            id="forgot-email"
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (fieldError) setFieldError(validate(e.target.value));
            }}
            onBlur={() => email && setFieldError(validate(email))}
            error={Boolean(fieldError)}
            helperText={fieldError ?? ' '}
          />
          {error && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send Code'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
