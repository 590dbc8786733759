import { useId, useState, type ComponentProps, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  ADOPTION_LIMITS,
  ADOPTION_MESSAGES,
  adoptionRequestBody,
  type AdoptionAdDto,
  type AdoptionRequestInput,
} from '@pawhaven/contracts';
import { errorText } from '../../shared/api';
import { useSession } from '../../shared/session';
import { useToast } from '../../shared/toast';
import { adoptionApi, invalidateAdoptions, patchListedAd } from '../api';
import { imageProblem } from '../format';
import { ImagePicker } from '../../shared/ui/ImagePicker';

type Field = keyof AdoptionRequestInput;

/**
 * The request modal: name, email, phone and message are required, name and email prefilled from the signed-in user; an
 * optional proof image (an image under 5MB). Visitors are asked to log in instead.
 */
export function RequestAdoptionDialog({
  ad,
  open,
  onClose,
}: {
  ad: AdoptionAdDto;
  open: boolean;
  onClose: () => void;
}) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { user } = useSession();

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>Request to adopt {ad.name}</DialogTitle>
      {user ? (
        <RequestForm key={ad._id} ad={ad} onClose={onClose} />
      ) : (
        <>
          <DialogContent>
            <Alert severity="info">
              {ADOPTION_MESSAGES.visitorRequest}{' '}
              <Link component={RouterLink} to="/signin" sx={{ fontWeight: 700 }}>
                Log in
              </Link>
            </Alert>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onClose} color="inherit">
              Close
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

function RequestForm({ ad, onClose }: { ad: AdoptionAdDto; onClose: () => void }) {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const uid = useId();
  const [values, setValues] = useState<AdoptionRequestInput>({
    name: user?.username ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    message: '',
  });
  const [proof, setProof] = useState<File | null>(null);
  const [proofError, setProofError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<Partial<Record<Field, true>>>({});
  const [error, setError] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: (input: AdoptionRequestInput) => adoptionApi.request(ad._id, input, proof),
    onSuccess: (res) => {
      const requestId = res?.request?._id;
      if (requestId)
        patchListedAd(queryClient, ad._id, (x) => ({
          ...x,
          myRequest: { _id: requestId, status: 'pending' },
        }));
      invalidateAdoptions(queryClient);
      toast(res?.message || 'Adoption request sent', 'success');
      onClose();
    },
    onError: (err) =>
      setError(errorText(err, 'Failed to request adoption', 'Failed to submit adoption request')),
  });
  const busy = send.isPending;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!user) return setError(ADOPTION_MESSAGES.mustBeLoggedInToRequest);
    const parsed = adoptionRequestBody.safeParse(values);
    if (!parsed.success) {
      const issues = parsed.error.issues;
      // One message at a time, in this order: anything missing first, then the email, then the phone.
      const missing = issues.filter((i) => i.message === ADOPTION_MESSAGES.allFieldsRequired);
      const shown = missing.length > 0 ? missing : issues.slice(0, 1);
      setInvalid(Object.fromEntries(shown.map((i) => [i.path[0] as Field, true])));
      setError(shown[0]?.message ?? ADOPTION_MESSAGES.allFieldsRequired);
      return;
    }
    // A refused image was never attached: the request goes without one.
    setProofError(null);
    setInvalid({});
    setError(null);
    send.mutate(parsed.data);
  };

  const field = (key: Field, label: string, extra: Partial<ComponentProps<typeof TextField>> = {}) => (
    <TextField
      id={`${uid}-${key}`}
      label={label}
      required
      value={values[key]}
      onChange={(e) => {
        setValues((v) => ({ ...v, [key]: e.target.value }));
        setInvalid((x) => ({ ...x, [key]: undefined }));
      }}
      error={Boolean(invalid[key])}
      disabled={busy}
      {...extra}
    />
  );

  return (
    <Box
      component="form"
      onSubmit={onSubmit}
      noValidate
      aria-label={`Adoption request for ${ad.name}`}
      sx={{ display: 'contents' }}
    >
      <DialogContent dividers>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          Tell {ad.userId?.username ?? 'the owner'} about yourself and the home you can offer. They will see
          your name, email, phone and message.
        </Typography>
        <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {field('name', 'Your Name', { autoComplete: 'name', slotProps: { htmlInput: { maxLength: 80 } } })}
          {field('email', 'Email', {
            type: 'email',
            autoComplete: 'email',
            slotProps: { htmlInput: { maxLength: 254 } },
          })}
        </Box>
        {field('phone', 'Phone', {
          type: 'tel',
          autoComplete: 'tel',
          placeholder: '+92 300 1234567',
          slotProps: { htmlInput: { maxLength: 25 } },
        })}
        {field('message', 'Message', {
          multiline: true,
          minRows: 4,
          placeholder: 'Your home, family, other pets and experience',
          helperText: `${values.message.length}/${ADOPTION_LIMITS.messageMaxLength}`,
          slotProps: { htmlInput: { maxLength: ADOPTION_LIMITS.messageMaxLength } },
        })}
        <ImagePicker
          label="Proof image (optional)"
          buttonLabel="Add proof image"
          file={proof}
          onChange={(file) => {
            setError(null);
            if (!file) {
              setProof(null);
              setProofError(null);
              return;
            }
            const problem = imageProblem(
              file,
              ADOPTION_LIMITS.proofImageMaxBytes,
              ADOPTION_MESSAGES.proofImageTooLarge,
            );
            setProofError(problem);
            if (!problem) setProof(file);
          }}
          error={proofError}
          disabled={busy}
          previewHeight={140}
          hint={ADOPTION_MESSAGES.proofImageHint}
        />
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button type="button" onClick={onClose} disabled={busy} color="inherit">
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {busy ? 'Sending...' : 'Send Request'}
        </Button>
      </DialogActions>
    </Box>
  );
}
