import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, type UserDto } from '@pawhaven/contracts';
import { errorText } from '../../shared/api';
import { useToast } from '../../shared/toast';
import { accountsApi } from '../api';
import { PasswordField } from '../PasswordField';

/** Change password: current, new and confirm (confirm exists only here); no length rule on this form. */
export function SecurityForm({ user, onDone }: { user: UserDto; onDone: () => void }) {
  const toast = useToast();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({ mutationFn: accountsApi.changePassword });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setMismatch(false);
    const id = user.id || user._id;
    if (!id) return setError('Please log in again to change your password');
    if (!currentPassword || !newPassword || !confirmPassword)
      return setError('All password fields are required');
    if (newPassword !== confirmPassword) return setMismatch(true);
    change.mutate(
      { id, currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          setConfirmPassword('');
          toast(ACCOUNT_MESSAGES.passwordChanged, 'success', ACCOUNT_LIMITS.toastMs);
          onDone();
        },
        onError: (err) => {
          const text = errorText(
            err,
            'Failed to change password. Please try again.',
            'An error occurred while changing the password.',
          );
          setError(text);
          toast(text, 'error', ACCOUNT_LIMITS.toastMs);
        },
      },
    );
  };

  return (
    <Box component="form" onSubmit={onSubmit} noValidate sx={{ maxWidth: 520 }}>
      <Typography variant="h5" component="h2">
        Security Settings
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Change the password you use to sign in.
      </Typography>
      <PasswordField
        id="security-current-password"
        label="Current Password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
      />
      <PasswordField
        id="security-new-password"
        label="New Password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(e) => {
          setNewPassword(e.target.value);
          setMismatch(false);
        }}
      />
      <PasswordField
        id="security-confirm-password"
        label="Confirm New Password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(e) => {
          setConfirmPassword(e.target.value);
          setMismatch(false);
        }}
        error={mismatch}
        helperText={mismatch ? ACCOUNT_MESSAGES.passwordsDoNotMatch : undefined}
      />
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      <Button type="submit" variant="contained" disabled={change.isPending} sx={{ mt: 2 }}>
        {change.isPending ? 'Changing...' : 'Change Password'}
      </Button>
    </Box>
  );
}
