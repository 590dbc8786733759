import { useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import PhotoCameraIcon from '@mui/icons-material/PhotoCameraOutlined';
import { ACCOUNT_LIMITS, ACCOUNT_MESSAGES, type UserDto } from '@pawhaven/contracts';
import { errorText } from '../../shared/api';
import { sessionStore } from '../../shared/session-store';
import { useToast } from '../../shared/toast';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { accountsApi } from '../api';
import { UserNameHeading } from '../../shared/ui/UserNameHeading';
import { displayUserType, formatDate } from './display';

/** The read-only profile: picture (upload, remove), name, badge, contact details, about. */
export function ProfileOverview({ user, onEdit }: { user: UserDto; onEdit: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState(false);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file can be chosen again after a failure
    if (!file) return;
    if (!file.type.startsWith('image/'))
      return toast(ACCOUNT_MESSAGES.imageInvalid, 'error', ACCOUNT_LIMITS.toastMs);
    if (file.size >= ACCOUNT_LIMITS.profileImageMaxBytes)
      return toast(ACCOUNT_MESSAGES.imageTooLarge, 'error', ACCOUNT_LIMITS.toastMs);
    setUploading(true);
    try {
      const res = await accountsApi.uploadProfileImage(file);
      if (!res?.success) throw new Error('upload');
      sessionStore.updateUser(res.user ?? { ...user, profileImage: res.data.profileImage });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
      toast(ACCOUNT_MESSAGES.imageUploaded, 'success', ACCOUNT_LIMITS.toastMs);
    } catch (err) {
      toast(
        err instanceof Error && err.message === 'upload'
          ? 'Failed to upload image. Please try again.'
          : errorText(
              err,
              'Failed to upload image. Please try again.',
              'An error occurred while uploading the image.',
            ),
        'error',
        ACCOUNT_LIMITS.toastMs,
      );
    } finally {
      setUploading(false);
    }
  };

  const onRemove = async () => {
    setRemoving(true);
    try {
      const res = await accountsApi.removeProfileImage();
      if (!res?.success) throw new Error('remove');
      sessionStore.updateUser(res.user ?? { ...user, profileImage: null });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
      toast(ACCOUNT_MESSAGES.imageRemoved, 'success', ACCOUNT_LIMITS.toastMs);
    } catch (err) {
      toast(
        err instanceof Error && err.message === 'remove'
          ? 'Failed to remove image. Please try again.'
          : errorText(
              err,
              'Failed to remove image. Please try again.',
              'An error occurred while removing the image.',
            ),
        'error',
        ACCOUNT_LIMITS.toastMs,
      );
    } finally {
      setRemoving(false);
    }
  };

  const joined = formatDate(user.joinedDate);
  const details: { label: string; value: string | null }[] = [
    { label: 'Email', value: user.email },
    { label: 'Phone', value: user.phone || null },
    { label: 'City', value: user.city || null },
    { label: 'Account type', value: displayUserType(user) },
    { label: 'Member since', value: joined },
  ];

  return (
    <Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={3}
        sx={{ alignItems: { xs: 'center', sm: 'flex-start' } }}
      >
        <Stack spacing={1.5} sx={{ alignItems: 'center', flexShrink: 0 }}>
          <UserAvatar
            username={user.username}
            profileImage={user.profileImage}
            size={120}
            data-testid="profile-avatar"
            sx={{ border: 4, borderColor: 'background.paper', boxShadow: 2 }}
          />
          <Button
            component="label"
            variant="outlined"
            size="small"
            startIcon={<PhotoCameraIcon />}
            disabled={uploading || removing}
          >
            {uploading ? 'Uploading...' : 'Upload Image'}
            <input
              type="file"
              accept="image/*"
              hidden
              onChange={(e) => void onFile(e)}
              aria-label="Profile image"
            />
          </Button>
          {user.profileImage && (
            <Button
              variant="text"
              color="error"
              size="small"
              startIcon={<DeleteIcon />}
              onClick={() => void onRemove()}
              disabled={uploading || removing}
            >
              {removing ? 'Removing...' : 'Remove Image'}
            </Button>
          )}
        </Stack>

        <Box sx={{ flex: 1, minWidth: 0, width: '100%', textAlign: { xs: 'center', sm: 'left' } }}>
          <UserNameHeading username={user.username} isVeterinarian={user.isVeterinarian} />
          <Typography color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            {user.email}
          </Typography>
          <Box sx={{ mt: 2 }}>
            <Button variant="contained" startIcon={<EditIcon />} onClick={onEdit}>
              Edit Profile
            </Button>
          </Box>
        </Box>
      </Stack>

      <Divider sx={{ my: 3 }} />

      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' },
          rowGap: { xs: 0.5, sm: 1.5 },
          m: 0,
        }}
      >
        {details.map(({ label, value }) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography
              component="dt"
              color="text.secondary"
              fontWeight={700}
              sx={{ mt: { xs: 1.5, sm: 0 } }}
            >
              {label}
            </Typography>
            <Typography
              component="dd"
              sx={{ m: 0, wordBreak: 'break-word', color: value ? 'text.primary' : 'text.secondary' }}
            >
              {value ?? 'Not provided'}
            </Typography>
          </Box>
        ))}
      </Box>

      <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
        About
      </Typography>
      <Typography sx={{ whiteSpace: 'pre-line', color: user.about ? 'text.primary' : 'text.secondary' }}>
        {user.about || 'Tell the community a little about yourself and your pets.'}
      </Typography>
    </Box>
  );
}
