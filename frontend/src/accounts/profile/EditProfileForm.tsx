import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, updateProfileBody, type UserDto } from '@pawhaven/contracts';
import { errorText } from '../../shared/api';
import { sessionStore } from '../../shared/session-store';
import { useToast } from '../../shared/toast';
import { accountsApi } from '../api';

type FieldErrors = Partial<Record<'phone' | 'city' | 'about', string>>;

/** Phone, city and about; username and email are shown but cannot be changed. */
export function EditProfileForm({ user, onDone }: { user: UserDto; onDone: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState(user.phone ?? '');
  const [city, setCity] = useState(user.city ?? '');
  const [about, setAbout] = useState(user.about ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({ mutationFn: accountsApi.updateProfile });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const id = user.id || user._id;
    if (!id) return toast('Please log in again to update profile', 'error', ACCOUNT_LIMITS.toastMs);
    const parsed = updateProfileBody.safeParse({ id, phone, city, about });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if ((key === 'phone' || key === 'city' || key === 'about') && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(
      { id, phone: parsed.data.phone ?? '', city: parsed.data.city ?? '', about: parsed.data.about ?? '' },
      {
        onSuccess: (res) => {
          if (!res?.user)
            return toast('Failed to update profile. Please try again.', 'error', ACCOUNT_LIMITS.toastMs);
          sessionStore.updateUser(res.user);
          void queryClient.invalidateQueries({ queryKey: ['profile'] });
          toast(ACCOUNT_MESSAGES.profileUpdated, 'success', ACCOUNT_LIMITS.toastMs);
          onDone();
        },
        onError: (err) =>
          toast(
            errorText(
              err,
              'Failed to update profile. Please try again.',
              'An error occurred while updating the profile.',
            ),
            'error',
            ACCOUNT_LIMITS.toastMs,
          ),
      },
    );
  };

  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <Typography variant="h5" component="h2">
        Edit Profile
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Your username and email cannot be changed.
      </Typography>
      <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField id="edit-username" label="Username" value={user.username} disabled />
        <TextField id="edit-email" label="Email" value={user.email} disabled />
        <TextField
          id="edit-phone"
          label="Phone"
          type="tel"
          autoComplete="tel"
          placeholder="+92 300 1234567"
          value={phone}
          onChange={(e) => {
            setPhone(e.target.value);
            setErrors((x) => ({ ...x, phone: undefined }));
          }}
          error={Boolean(errors.phone)}
          helperText={errors.phone}
        />
        <TextField
          id="edit-city"
          label="City"
          autoComplete="address-level2"
          placeholder="Lahore"
          value={city}
          onChange={(e) => {
            setCity(e.target.value);
            setErrors((x) => ({ ...x, city: undefined }));
          }}
          error={Boolean(errors.city)}
          helperText={errors.city}
          slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.cityMaxLength } }}
        />
      </Box>
      <TextField
        id="edit-about"
        label="About"
        multiline
        minRows={4}
        value={about}
        onChange={(e) => {
          setAbout(e.target.value);
          setErrors((x) => ({ ...x, about: undefined }));
        }}
        error={Boolean(errors.about)}
        helperText={errors.about ?? `${about.length}/${ACCOUNT_LIMITS.aboutMaxLength}`}
        slotProps={{ htmlInput: { maxLength: ACCOUNT_LIMITS.aboutMaxLength } }}
      />
      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ mt: 2, justifyContent: 'flex-end' }}
      >
        <Button type="button" variant="outlined" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </Stack>
    </Box>
  );
}
