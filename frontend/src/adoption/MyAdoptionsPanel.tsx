import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PanelHeader } from '../shared/ui/PanelHeader';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import PetsIcon from '@mui/icons-material/Pets';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { ADOPTION_MESSAGES, type AdoptionAdDto } from '@pawhaven/contracts';
import { useSession } from '../shared/session';
import { useToast } from '../shared/toast';
import { adoptionApi, adoptionKeys } from './api';
import { AdoptionAdForm } from './components/AdoptionAdForm';
import { AttributeChips } from './components/AdParts';
import { ConfirmDialog } from '../shared/ui/ConfirmDialog';
import { PetImage } from '../shared/ui/PetImage';
import { RequestItem } from './components/RequestItem';
import { AdStatusChip } from './components/StatusChip';
import { ageText, breedText, failureText, locationText, shortDate, userIdOf } from './format';
import { OwnerAdActions } from './components/OwnerAdActions';
import { useDecideRequest, useDeleteAd } from './hooks';
import { RetryAlert } from '../shared/ui/RetryAlert';

type Heading = 'h1' | 'h2';

/**
 * The signed-in user's adoption ads with their incoming requests: inline edit, delete (after confirmation),
 * accept and reject. Used by /my-adoptions and by the profile page's 'My Adoptions' view.
 */
export function MyAdoptionsPanel({
  heading = 'h2',
  title = 'My Adoptions',
}: {
  heading?: Heading;
  title?: string;
}) {
  const { user, token, ready } = useSession();
  const userId = userIdOf(user);
  const ads = useQuery({
    queryKey: adoptionKeys.mine(userId ?? ''),
    queryFn: () => adoptionApi.mine(userId!),
    enabled: ready && Boolean(userId && token),
  });

  const header = (
    <PanelHeader
      title={title}
      heading={heading}
      action={
        user && (
          <Button component={RouterLink} to="/create-adoption" variant="contained" startIcon={<AddIcon />}>
            Create Adoption Ad
          </Button>
        )
      }
    />
  );

  let body;
  if (!ready) body = <LoadingAds />;
  else if (!user)
    body = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/signin" color="inherit" size="small">
            Log In
          </Button>
        }
      >
        Please log in to view your adoption posts.
      </Alert>
    );
  else if (!token) body = <Alert severity="warning">Authentication token missing</Alert>;
  else if (ads.isPending) body = <LoadingAds />;
  else if (ads.isError)
    body = (
      <RetryAlert onRetry={() => void ads.refetch()}>
        {failureText(ads.error, 'Failed to load adoption posts')}
      </RetryAlert>
    );
  else if (ads.data.length === 0)
    body = (
      <Box sx={{ textAlign: 'center', py: { xs: 4, md: 6 } }}>
        <PetsIcon aria-hidden sx={{ fontSize: 48, color: 'primary.light' }} />
        <Typography variant="h6" component="p" sx={{ mt: 1 }}>
          {ADOPTION_MESSAGES.myEmpty}
        </Typography>
      </Box>
    );
  else
    body = (
      <Stack
        component="ul"
        spacing={3}
        sx={{ p: 0, m: 0, listStyle: 'none' }}
        aria-label="Your adoption posts"
      >
        {ads.data.map((ad) => (
          <MyAdItem key={ad._id} ad={ad} ownerId={userId!} />
        ))}
      </Stack>
    );

  return (
    <Box>
      {header}
      {body}
    </Box>
  );
}

function LoadingAds() {
  return (
    <Stack spacing={2} role="status" aria-label="Loading your adoption posts">
      {[0, 1].map((i) => (
        <Skeleton key={i} variant="rounded" height={180} />
      ))}
    </Stack>
  );
}

function MyAdItem({ ad, ownerId }: { ad: AdoptionAdDto; ownerId: string }) {
  const nameId = useId();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useDeleteAd('Failed to delete post');
  const decide = useDecideRequest(ownerId);
  const requests = ad.requests ?? [];
  const pending = requests.filter((r) => r.status === 'pending').length;

  return (
    <Paper
      component="li"
      aria-labelledby={nameId}
      elevation={0}
      sx={{ border: 1, borderColor: 'divider', overflow: 'hidden' }}
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '220px minmax(0, 1fr)' } }}>
        <PetImage src={ad.imageUrl} alt={`Photo of ${ad.name}`} height={{ xs: 200, sm: 240 }} />
        <Box sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
          {editing ? (
            <>
              <Typography id={nameId} variant="h6" component="h3" gutterBottom>
                Edit {ad.name}
              </Typography>
              <AdoptionAdForm
                mode="edit"
                ad={ad}
                failureFallback="Failed to update post"
                onCancel={() => setEditing(false)}
                onDone={(message) => {
                  setEditing(false);
                  if (message) toast(message, 'success');
                }}
              />
            </>
          ) : (
            <>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                <Typography id={nameId} variant="h6" component="h3" sx={{ wordBreak: 'break-word' }}>
                  {ad.name}
                </Typography>
                <AdStatusChip status={ad.status} />
                <Chip label={ad.petType} size="small" color="primary" variant="outlined" />
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {breedText(ad)} · {ageText(ad)} · Posted {shortDate(ad.createdAt)}
              </Typography>
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 1 }}
              >
                <PlaceIcon fontSize="small" aria-hidden /> {locationText(ad)}
              </Typography>
              <AttributeChips ad={ad} />
              <Typography variant="body2" sx={{ mt: 1.5, whiteSpace: 'pre-line', wordBreak: 'break-word' }}>
                {ad.description}
              </Typography>
              {ad.status === 'adopted' && (
                <Typography variant="body2" sx={{ mt: 1, fontWeight: 700, color: 'secondary.main' }}>
                  {ADOPTION_MESSAGES.adopted}
                </Typography>
              )}
              <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
                <OwnerAdActions
                  onEdit={() => setEditing(true)}
                  onDelete={() => setConfirmDelete(true)}
                  deleting={remove.isPending}
                />
              </Stack>
            </>
          )}
        </Box>
      </Box>

      <Box
        component="section"
        aria-label={`Adoption requests for ${ad.name}`}
        sx={{ borderTop: 1, borderColor: 'divider', p: { xs: 2, sm: 3 } }}
      >
        <Typography component="h4" variant="subtitle1" sx={{ fontWeight: 800, mb: 1.5 }}>
          Adoption Requests ({requests.length}){pending > 0 && ` · ${pending} pending`}
        </Typography>
        {requests.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No adoption requests yet.
          </Typography>
        ) : (
          <Stack component="ul" spacing={1.5} sx={{ p: 0, m: 0 }}>
            {requests.map((r) => (
              <RequestItem
                key={r._id}
                ad={ad}
                request={r}
                busy={decide.isPending}
                onDecide={(status) => decide.mutate({ requestId: r._id, adId: ad._id, status })}
              />
            ))}
          </Stack>
        )}
      </Box>

      <ConfirmDialog
        open={confirmDelete}
        title="Delete adoption post"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        danger
        busy={remove.isPending}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate(ad, { onSettled: () => setConfirmDelete(false) })}
      >
        Delete the adoption post for {ad.name}?
        {pending > 0 && ` Its ${pending} pending request${pending === 1 ? '' : 's'} will be closed.`} This
        cannot be undone.
      </ConfirmDialog>
    </Paper>
  );
}
