import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import type { AdoptionAdDto, AdoptionRequestDto } from '@pawhaven/contracts';
import { shortDate } from '../format';
import { mailtoHref, telHref } from '../../shared/contact-links';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { PetImage } from '../../shared/ui/PetImage';
import { RequestStatusChip } from './StatusChip';

/**
 * One incoming request on the owner's ad: who, how to reach them, their message, the proof image (opens large),
 * the status, and Accept / Reject while it is pending and the ad is available.
 */
export function RequestItem({
  ad,
  request,
  busy,
  onDecide,
}: {
  ad: AdoptionAdDto;
  request: AdoptionRequestDto;
  busy: boolean;
  onDecide: (status: 'accepted' | 'rejected') => void;
}) {
  const nameId = useId();
  const proofTitleId = useId();
  const [proofOpen, setProofOpen] = useState(false);
  const [confirmAccept, setConfirmAccept] = useState(false);
  const decidable = request.status === 'pending' && ad.status === 'available';
  const otherPending = (ad.requests ?? []).filter(
    (r) => r.status === 'pending' && r._id !== request._id,
  ).length;

  return (
    <Box
      component="li"
      aria-labelledby={nameId}
      sx={{ listStyle: 'none', border: 1, borderColor: 'divider', borderRadius: 2, p: { xs: 1.5, sm: 2 } }}
    >
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
        {request.petHistoryImage && (
          <ButtonBase
            onClick={() => setProofOpen(true)}
            aria-label={`View proof image from ${request.name}`}
            sx={{ borderRadius: 2, overflow: 'hidden', flexShrink: 0, width: 88, height: 88 }}
          >
            <PetImage src={request.petHistoryImage} alt={`Proof image from ${request.name}`} height={88} />
          </ButtonBase>
        )}
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Typography
              id={nameId}
              component="h4"
              variant="subtitle1"
              sx={{ fontWeight: 700, wordBreak: 'break-word' }}
            >
              {request.name}
            </Typography>
            <RequestStatusChip status={request.status} />
          </Stack>
          <Typography variant="body2" color="text.secondary">
            Requested {shortDate(request.createdAt) ?? ''}
            {request.respondedAt && ` · Answered ${shortDate(request.respondedAt) ?? ''}`}
          </Typography>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'auto minmax(0, 1fr)',
              columnGap: 1.5,
              rowGap: 0.25,
              my: 1,
            }}
          >
            <Typography component="dt" variant="body2" color="text.secondary">
              Email
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
              <Link href={mailtoHref(request.email)}>{request.email}</Link>
            </Typography>
            <Typography component="dt" variant="body2" color="text.secondary">
              Phone
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              <Link href={telHref(request.phone)}>{request.phone}</Link>
            </Typography>
          </Box>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
            {request.message}
          </Typography>
          {request.reason && request.status !== 'pending' && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, fontStyle: 'italic' }}>
              Reason: {request.reason}
            </Typography>
          )}
          {decidable && (
            <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
              <Button
                size="small"
                variant="contained"
                color="success"
                startIcon={<CheckIcon />}
                onClick={() => setConfirmAccept(true)}
                disabled={busy}
              >
                Accept
              </Button>
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<CloseIcon />}
                onClick={() => onDecide('rejected')}
                disabled={busy}
              >
                Reject
              </Button>
            </Stack>
          )}
        </Box>
      </Box>

      <ConfirmDialog
        open={confirmAccept}
        title={`Accept ${request.name}'s request?`}
        confirmLabel="Accept request"
        busy={busy}
        onClose={() => setConfirmAccept(false)}
        onConfirm={() => {
          setConfirmAccept(false);
          onDecide('accepted');
        }}
      >
        {ad.name} will be marked as adopted
        {otherPending > 0
          ? ` and the other ${otherPending} pending request${otherPending === 1 ? '' : 's'} will be declined`
          : ''}
        . This cannot be undone.
      </ConfirmDialog>

      {request.petHistoryImage && (
        <Dialog
          open={proofOpen}
          onClose={() => setProofOpen(false)}
          aria-labelledby={proofTitleId}
          maxWidth="md"
          fullWidth
        >
          <DialogTitle id={proofTitleId} sx={{ pr: 7 }}>
            Proof image from {request.name}
          </DialogTitle>
          <IconButton
            aria-label="Close proof image"
            onClick={() => setProofOpen(false)}
            sx={{ position: 'absolute', right: 8, top: 8 }}
          >
            <CloseIcon />
          </IconButton>
          <DialogContent>
            <PetImage
              src={request.petHistoryImage}
              alt={`Proof image from ${request.name}, full size`}
              height={{ xs: 320, md: 560 }}
              fit="contain"
            />
          </DialogContent>
        </Dialog>
      )}
    </Box>
  );
}
