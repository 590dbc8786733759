import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChatIcon from '@mui/icons-material/ChatBubbleOutline';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutline';
import FavoriteIcon from '@mui/icons-material/FavoriteBorder';
import HourglassIcon from '@mui/icons-material/HourglassTop';
import UndoIcon from '@mui/icons-material/Undo';
import { ADOPTION_MESSAGES, type AdoptionAdDto } from '@pawhaven/contracts';
import { useSession } from '../../shared/session';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { VetBadge } from '../../shared/ui/VetBadge';
import { useWithdrawRequest } from '../hooks';
import { attributeLabels, ownerIdOf, userIdOf } from '../format';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { RequestAdoptionDialog } from './RequestAdoptionDialog';

/** Who is looking at an ad: the owner, a signed-in stranger, or a visitor. */
export function useViewer(ad: AdoptionAdDto) {
  const { user } = useSession();
  const me = userIdOf(user);
  const isOwner = Boolean(me) && ownerIdOf(ad) === me;
  return { user, me, isOwner };
}

/** Gender, size and the yes/no facts, only those that are known. */
export function AttributeChips({ ad, size = 'small' }: { ad: AdoptionAdDto; size?: 'small' | 'medium' }) {
  const labels = attributeLabels(ad);
  if (labels.length === 0) return null;
  return (
    <Box
      component="ul"
      aria-label="Pet attributes"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, p: 0, m: 0, listStyle: 'none' }}
    >
      {labels.map((l) => (
        <li key={l}>
          <Chip label={l} size={size} variant="outlined" />
        </li>
      ))}
    </Box>
  );
}

/** The status line of a card: forever home, the viewer's own pending request, or available. */
export function AdStatusLine({ ad, isOwner }: { ad: AdoptionAdDto; isOwner: boolean }) {
  let icon = <FavoriteIcon fontSize="small" aria-hidden />;
  let text: string = 'Available for adoption';
  let color = 'success.main';
  let note: string | null = null;
  if (ad.status === 'adopted') {
    icon = <CheckCircleIcon fontSize="small" aria-hidden />;
    text = ADOPTION_MESSAGES.adopted;
    color = 'secondary.main';
    if (ad.myRequest?.status === 'accepted') note = 'Your adoption request was accepted.';
  } else if (!isOwner && ad.myRequest?.status === 'pending') {
    icon = <HourglassIcon fontSize="small" aria-hidden />;
    text = ADOPTION_MESSAGES.pendingReview;
    color = '#8A5A00'; // amber text that keeps 4.5:1 on white
  } else if (isOwner) {
    note = `${ad.requestCount} adoption request${ad.requestCount === 1 ? '' : 's'}`;
  } else if (ad.myRequest?.status === 'rejected') {
    note = 'Your earlier request was not accepted.';
  }
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography
        variant="body2"
        sx={{ color, fontWeight: 700, display: 'flex', alignItems: 'center', gap: 0.75 }}
        data-testid="adoption-status"
      >
        {icon}
        {text}
      </Typography>
      {note && (
        <Typography variant="caption" color="text.secondary">
          {note}
        </Typography>
      )}
    </Box>
  );
}

/** The poster's avatar and name (to the public profile), with the Veterinarian badge. */
export function PosterLine({ ad }: { ad: AdoptionAdDto }) {
  const owner = typeof ad.userId === 'object' ? ad.userId : null;
  const ownerId = ownerIdOf(ad);
  const name = owner?.username || 'Unknown User';
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, minWidth: 0 }}
    >
      <UserAvatar username={name} profileImage={owner?.profileImage} size={28} />
      <Typography variant="body2" color="text.secondary" component="span">
        Posted by{' '}
        {ownerId ? (
          <Link component={RouterLink} to={`/profile/public/${ownerId}`} sx={{ fontWeight: 700 }}>
            {name}
          </Link>
        ) : (
          <strong>{name}</strong>
        )}
      </Typography>
      {owner?.isVeterinarian && <VetBadge />}
    </Stack>
  );
}

/**
 * Request Adoption (available ads of others; visitors are asked to log in), Withdraw request (the viewer's pending
 * request) and Chat (never on own ads; visitors go to /signin). Labels name the pet so each card's buttons differ
 * for assistive technology.
 */
export function VisitorActions({ ad }: { ad: AdoptionAdDto }) {
  const navigate = useNavigate();
  const { user, isOwner } = useViewer(ad);
  const [requesting, setRequesting] = useState(false);
  const [confirmWithdraw, setConfirmWithdraw] = useState(false);
  const withdraw = useWithdrawRequest();
  if (isOwner) return null;
  const pending = ad.myRequest?.status === 'pending' ? ad.myRequest : null;
  const ownerId = ownerIdOf(ad);

  return (
    <>
      {ad.status === 'available' && !pending && (
        <Button
          variant="contained"
          size="small"
          onClick={() => setRequesting(true)}
          startIcon={<FavoriteIcon />}
        >
          Request Adoption
        </Button>
      )}
      {pending && (
        <Button
          variant="outlined"
          size="small"
          color="primary"
          startIcon={<UndoIcon />}
          onClick={() => setConfirmWithdraw(true)}
          disabled={withdraw.isPending}
        >
          Withdraw request
        </Button>
      )}
      {ownerId && (
        <Button
          variant="outlined"
          size="small"
          color="secondary"
          startIcon={<ChatIcon />}
          {...(user
            ? { component: RouterLink, to: `/chat/${ownerId}?adId=${encodeURIComponent(ad._id)}` }
            : { onClick: () => navigate('/signin') })}
        >
          Chat
        </Button>
      )}
      {requesting && <RequestAdoptionDialog ad={ad} open={requesting} onClose={() => setRequesting(false)} />}
      <ConfirmDialog
        open={confirmWithdraw}
        title="Withdraw request"
        confirmLabel="Withdraw request"
        busyLabel="Withdrawing..."
        busy={withdraw.isPending}
        onClose={() => setConfirmWithdraw(false)}
        onConfirm={() =>
          pending &&
          withdraw.mutate(
            { requestId: pending._id, adId: ad._id },
            { onSettled: () => setConfirmWithdraw(false) },
          )
        }
      >
        Withdraw your adoption request for {ad.name}? You can send a new one while {ad.name} is still
        available.
      </ConfirmDialog>
    </>
  );
}
