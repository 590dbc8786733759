import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES, createPostBody, type PostDto } from '@pawhaven/contracts';
import { useSession } from '../../shared/session';
import { ImagePicker } from '../../shared/ui/ImagePicker';
import { addToFeed, communityApi, normalisePost } from '../api';

/** The image types a post accepts; the 10 MB limit is only hinted, the server enforces it. */
const POST_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/gif'] as const;

type Errors = { caption?: string; image?: string };

/**
 * Caption and image, both required, checked with the server's schema; on success the new post goes first in the
 * feed. The inline form (feed) and the create-post page differ only in their failure text and where they go next.
 */
export function CreatePostForm({
  onCreated,
  onCancel,
  failureText,
}: {
  onCreated: (post: PostDto) => void;
  onCancel?: () => void;
  /** The text shown in red above the form when the server refuses or cannot be reached. */
  failureText: (err: unknown) => string;
}) {
  const uid = useId();
  const queryClient = useQueryClient();
  const { user, token } = useSession();
  const [caption, setCaption] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: (form: FormData) => communityApi.create(form),
    onSuccess: (res) => {
      const { message: _m, position: _p, ...fields } = res;
      const post = normalisePost({
        ...fields,
        _id: fields._id ?? fields.id ?? '',
        userId: fields.userId ?? null,
      });
      if (post._id) addToFeed(queryClient, post);
      onCreated(post);
    },
    onError: (err) => setFormError(failureText(err)),
  });
  const busy = create.isPending;

  const pickImage = (file: File | null) => {
    setFormError(null);
    if (file && !(POST_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setErrors((e) => ({ ...e, image: COMMUNITY_MESSAGES.imageInvalid }));
      return;
    }
    setErrors((e) => ({ ...e, image: undefined }));
    setImage(file);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!user) return setFormError(COMMUNITY_MESSAGES.mustBeLoggedIn);
    if (!token) return setFormError(COMMUNITY_MESSAGES.tokenMissing);
    const parsed = createPostBody.safeParse({ caption });
    const next: Errors = {};
    if (!parsed.success) next.caption = parsed.error.issues[0]?.message ?? COMMUNITY_MESSAGES.captionRequired;
    if (!image) next.image = COMMUNITY_MESSAGES.imageRequired;
    setErrors(next);
    setFormError(null);
    if (!parsed.success || !image) return;
    const form = new FormData();
    form.append('caption', parsed.data.caption);
    form.append('image', image);
    create.mutate(form);
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Create post">
      {formError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {formError}
        </Alert>
      )}
      <TextField
        id={`${uid}-caption`}
        label="Caption"
        value={caption}
        onChange={(e) => {
          setCaption(e.target.value);
          setErrors((x) => ({ ...x, caption: undefined }));
        }}
        required
        multiline
        minRows={3}
        placeholder="Share your pet's story..."
        error={Boolean(errors.caption)}
        helperText={errors.caption ?? `${caption.length}/${COMMUNITY_LIMITS.captionMaxLength}`}
        disabled={busy}
        slotProps={{ htmlInput: { maxLength: COMMUNITY_LIMITS.captionMaxLength } }}
      />
      <ImagePicker
        label="Image"
        buttonLabel="Upload Image"
        file={image}
        onChange={pickImage}
        required
        disabled={busy}
        error={errors.image}
        hint={COMMUNITY_MESSAGES.imageHint}
        accept={POST_IMAGE_TYPES.join(',')}
        previewHeight={220}
      />
      <Stack
        direction={{ xs: 'column-reverse', sm: 'row' }}
        spacing={1.5}
        sx={{ mt: 3, justifyContent: 'flex-end' }}
      >
        {onCancel && (
          <Button type="button" variant="outlined" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={busy}>
          {busy ? 'Posting...' : 'Create Post'}
        </Button>
      </Stack>
    </Box>
  );
}
