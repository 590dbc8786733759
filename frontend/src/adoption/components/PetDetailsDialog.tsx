import { useId } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import type { AdoptionAdDto } from '@pawhaven/contracts';
import { ageText, breedText, locationText } from '../format';
import { AdStatusLine, AttributeChips, PosterLine, useViewer, VisitorActions } from './AdParts';
import { PetImage } from '../../shared/ui/PetImage';

/** 'View Details': the whole ad, with the same actions as its card. */
export function PetDetailsDialog({
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
  const { isOwner } = useViewer(ad);
  const facts: [string, string][] = [
    ['Pet type', ad.petType],
    ['Breed', breedText(ad)],
    ['Age', ageText(ad)],
    ['Location', locationText(ad)],
  ];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={phone}
    >
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        Pet Details: {ad.name}
      </DialogTitle>
      <IconButton
        aria-label="Close pet details"
        onClick={onClose}
        sx={{ position: 'absolute', right: 8, top: 8 }}
      >
        <CloseIcon />
      </IconButton>
      <DialogContent dividers>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <PetImage
            src={ad.imageUrl}
            alt={`Photo of ${ad.name}`}
            height={{ xs: 240, md: 360 }}
            fit="cover"
            sx={{ borderRadius: 3 }}
          />
          <Box sx={{ minWidth: 0 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="h5" component="h3" sx={{ wordBreak: 'break-word' }}>
                {ad.name}
              </Typography>
              <Chip label={ad.petType} size="small" color="primary" variant="outlined" />
            </Box>
            <Box
              component="dl"
              sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, my: 2 }}
            >
              {facts.map(([k, v]) => (
                <Box key={k} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {k}
                  </Typography>
                  <Typography
                    component="dd"
                    variant="body2"
                    sx={{ m: 0, fontWeight: 600, wordBreak: 'break-word' }}
                  >
                    {v}
                  </Typography>
                </Box>
              ))}
            </Box>
            <AttributeChips ad={ad} />
            <AdStatusLine ad={ad} isOwner={isOwner} />
            <Typography component="h4" variant="subtitle2" sx={{ mt: 2 }}>
              About {ad.name}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-line', wordBreak: 'break-word' }}>{ad.description}</Typography>
            <Box sx={{ mt: 2 }}>
              <PosterLine ad={ad} />
            </Box>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions
        sx={{ px: 3, py: 2, flexWrap: 'wrap', gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }}
      >
        <VisitorActions ad={ad} />
        <Button onClick={onClose} color="inherit">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
