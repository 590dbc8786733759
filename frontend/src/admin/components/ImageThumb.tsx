import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { ADMIN_MESSAGES } from '@pawhaven/contracts';

/**
 * A list's image cell: a thumbnail that opens a large view with a Close button, or 'No image'.
 */
export function ImageThumb({
  src,
  alt,
  size = 56,
}: {
  src: string | null | undefined;
  alt: string;
  size?: number;
}) {
  const [open, setOpen] = useState(false);
  if (!src)
    return (
      <Typography variant="body2" color="text.secondary">
        {ADMIN_MESSAGES.noImage}
      </Typography>
    );
  return (
    <>
      <ButtonBase
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
        aria-label={`View image: ${alt}`}
        sx={{ borderRadius: 1, overflow: 'hidden' }}
      >
        <Box
          component="img"
          src={src}
          alt={alt}
          loading="lazy"
          sx={{ width: size, height: size, objectFit: 'cover', display: 'block' }}
        />
      </ButtonBase>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" aria-label={alt}>
        <DialogContent sx={{ p: 1 }}>
          <Box
            component="img"
            src={src}
            alt={alt}
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', mx: 'auto' }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{ADMIN_MESSAGES.close}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
