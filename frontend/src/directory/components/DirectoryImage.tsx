import { useState } from 'react';
import Box from '@mui/material/Box';
import { styled, type SxProps, type Theme } from '@mui/material/styles';
import PetsIcon from '@mui/icons-material/Pets';

/** The intrinsic size of the directory pictures (16:9); the space is reserved before they arrive. */
const IMAGE_WIDTH = 640;
const IMAGE_HEIGHT = 360;

/** A plain <img>: its width and height attributes reach the page (Box would take them as style props). */
const Img = styled('img')({});

/**
 * A directory picture (`/media/directory/*.svg`), loaded lazily below the fold, in a 16:9 box reserved up front
 * (no layout shift). A missing or failing picture becomes a placeholder with the same accessible name.
 */
export function DirectoryImage({
  src,
  alt,
  sx,
  priority = 'lazy',
}: {
  src: string | null | undefined;
  alt: string;
  sx?: SxProps<Theme>;
  /**
   * 'lazy' below the fold; the first row of a grid is on screen at once: 'eager' (and 'high' for the very first,
   * the page's largest paint) so it is not held back until layout.
   */
  priority?: 'lazy' | 'eager' | 'high';
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const frame = {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: `${IMAGE_WIDTH} / ${IMAGE_HEIGHT}`,
    bgcolor: '#FBEFE3',
  };
  if (!src || failedSrc === src) {
    return (
      <Box
        role="img"
        aria-label={alt}
        data-placeholder="true"
        sx={[
          { ...frame, display: 'grid', placeItems: 'center', color: 'primary.light' },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      >
        <PetsIcon sx={{ fontSize: 48 }} aria-hidden />
      </Box>
    );
  }
  return (
    <Img
      src={src}
      alt={alt}
      width={IMAGE_WIDTH}
      height={IMAGE_HEIGHT}
      loading={priority === 'lazy' ? 'lazy' : 'eager'}
      fetchPriority={priority === 'high' ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailedSrc(src)}
      sx={[{ ...frame, objectFit: 'cover' }, ...(Array.isArray(sx) ? sx : [sx])]}
    />
  );
}
