import { useState } from 'react';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import PetsIcon from '@mui/icons-material/Pets';

/**
 * A pet photo (a same-origin `/api/images/<id>` path). A missing or failing image becomes a placeholder with the
 * same accessible name. Lazy, unless it is `priority`: the first picture of a page, likely its largest paint, which
 * the browser should fetch at once and first.
 */
export function PetImage({
  src,
  alt,
  height,
  sx,
  fit = 'cover',
  priority = false,
}: {
  src: string | null | undefined;
  alt: string;
  height: number | string | Record<string, number | string>;
  sx?: SxProps<Theme>;
  fit?: 'cover' | 'contain';
  priority?: boolean;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const broken = !src || failedSrc === src;
  if (broken) {
    return (
      <Box
        role="img"
        aria-label={alt}
        data-placeholder="true"
        sx={[
          {
            height,
            width: '100%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: 'rgba(242, 184, 75, 0.18)',
            color: 'primary.light',
          },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      >
        <PetsIcon sx={{ fontSize: 48 }} aria-hidden />
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={src}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      onError={() => setFailedSrc(src)}
      sx={[
        { height, width: '100%', objectFit: fit, display: 'block', bgcolor: 'rgba(61, 44, 41, 0.04)' },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    />
  );
}
