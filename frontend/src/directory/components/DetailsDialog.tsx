import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import { DirectoryImage } from './DirectoryImage';

/**
 * The details modal of a directory entry: its name as the dialog's title (a heading), a close button, the
 * picture and the sections. Focus moves into the dialog, stays there, and goes back to the button that opened it
 * (MUI's focus trap); Escape closes it. Full screen on a phone.
 */
export function DetailsDialog({
  open,
  onClose,
  title,
  image,
  imageAlt,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  image: string;
  imageAlt: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
    >
      <DialogTitle id={titleId} sx={{ pr: 7, overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 10 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent dividers>
        <Box sx={{ borderRadius: 2, overflow: 'hidden', mb: 2 }}>
          <DirectoryImage src={image} alt={imageAlt} sx={{ maxHeight: 220 }} />
        </Box>
        {children}
      </DialogContent>
    </Dialog>
  );
}

/** One titled part of the details (an h3 under the dialog's title). */
export function DetailsSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 2.5 }}>
      <Typography id={id} variant="h6" component="h3" sx={{ fontSize: '1.05rem', mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A bulleted list of short texts (services). */
export function TextList({ items, empty }: { items: readonly string[]; empty: string }) {
  if (items.length === 0) return <Typography color="text.secondary">{empty}</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 0.5 } }}>
      {items.map((item, i) => (
        <Typography component="li" key={`${i}-${item}`}>
          {item}
        </Typography>
      ))}
    </Box>
  );
}
