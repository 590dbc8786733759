import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import type { AdoptionAdDto } from '@pawhaven/contracts';
import { useToast } from '../../shared/toast';
import { ageText, breedText, isLongDescription, locationText } from '../format';
import { useDeleteAd } from '../hooks';
import { AdoptionAdForm } from './AdoptionAdForm';
import { AdStatusLine, AttributeChips, PosterLine, useViewer, VisitorActions } from './AdParts';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { PetDetailsDialog } from './PetDetailsDialog';
import { OwnerAdActions } from './OwnerAdActions';
import { PetImage } from '../../shared/ui/PetImage';

/**
 * One ad of the listing: image, name, type, breed, age, location, the known attributes, the description cut to 3 lines
 * ('Read more...' above 100 characters), the status, the poster and the actions. The owner gets Edit Post (inline) and
 * Delete Post (after confirmation) instead of Request Adoption and Chat.
 */
export function AdoptionCard({ ad }: { ad: AdoptionAdDto }) {
  const nameId = useId();
  const descId = useId();
  const toast = useToast();
  const { isOwner } = useViewer(ad);
  const [expanded, setExpanded] = useState(false);
  const [details, setDetails] = useState(false);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useDeleteAd();
  const long = isLongDescription(ad.description);

  return (
    <Card
      component="article"
      aria-labelledby={nameId}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 }}
    >
      <PetImage src={ad.imageUrl} alt={`Photo of ${ad.name}`} height={220} />
      {editing ? (
        <CardContent>
          <Typography id={nameId} variant="h6" component="h3" gutterBottom>
            Edit {ad.name}
          </Typography>
          <AdoptionAdForm
            mode="edit"
            ad={ad}
            onCancel={() => setEditing(false)}
            onDone={(message) => {
              setEditing(false);
              if (message) toast(message, 'success');
            }}
          />
        </CardContent>
      ) : (
        <CardContent sx={{ flexGrow: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
            <Typography
              id={nameId}
              variant="h6"
              component="h3"
              sx={{ wordBreak: 'break-word', lineHeight: 1.3 }}
            >
              {ad.name}
            </Typography>
            <Chip label={ad.petType} size="small" color="primary" variant="outlined" sx={{ flexShrink: 0 }} />
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {breedText(ad)} · {ageText(ad)}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mb: 1, wordBreak: 'break-word' }}
          >
            <PlaceIcon fontSize="small" aria-hidden /> {locationText(ad)}
          </Typography>
          <AttributeChips ad={ad} />
          <Typography
            id={descId}
            variant="body2"
            sx={{
              mt: 1.5,
              whiteSpace: 'pre-line',
              wordBreak: 'break-word',
              ...(expanded
                ? {}
                : {
                    display: '-webkit-box',
                    WebkitLineClamp: 3,
                    WebkitBoxOrient: 'vertical',
                    overflow: 'hidden',
                  }),
            }}
          >
            {ad.description}
          </Typography>
          {long && (
            <Button
              size="small"
              variant="text"
              onClick={() => setExpanded((x) => !x)}
              aria-expanded={expanded}
              aria-controls={descId}
              sx={{ px: 0, minWidth: 0, mt: 0.25 }}
            >
              {expanded ? 'Show less' : 'Read more...'}
            </Button>
          )}
          <AdStatusLine ad={ad} isOwner={isOwner} />
        </CardContent>
      )}
      {!editing && (
        // The footer sits at the bottom of the card: cards of one row are as tall as the row, so their footers line
        // up. Its buttons stay on one line from 360 px up (View Details is an icon with its name for screen readers;
        // on phones the other buttons drop their icons).
        <Box data-testid="card-footer" sx={{ mt: 'auto' }}>
          <Divider sx={{ mx: 2 }} />
          <Box sx={{ px: 2, pt: 1.5 }}>
            <PosterLine ad={ad} />
          </Box>
          <CardActions data-testid="card-actions" sx={cardActionsSx}>
            <Tooltip title="View Details">
              <IconButton
                aria-label="View Details"
                size="small"
                color="primary"
                onClick={() => setDetails(true)}
              >
                <VisibilityIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {isOwner ? (
              <>
                <OwnerAdActions
                  onEdit={() => setEditing(true)}
                  onDelete={() => setConfirmDelete(true)}
                  deleting={remove.isPending}
                />
              </>
            ) : (
              <VisitorActions ad={ad} />
            )}
          </CardActions>
        </Box>
      )}
      {details && <PetDetailsDialog ad={ad} open={details} onClose={() => setDetails(false)} />}
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
        Delete the adoption post for {ad.name}? Its open adoption requests will be closed. This cannot be
        undone.
      </ConfirmDialog>
    </Card>
  );
}

/** One line of buttons: no wrapping, labels never broken, start icons only from 600 px up. */
const cardActionsSx = {
  flexWrap: 'nowrap',
  gap: 1,
  px: 2,
  pt: 1.5,
  pb: 2,
  '& > :not(style) ~ :not(style)': { ml: 0 },
  '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 },
  '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
} as const;
