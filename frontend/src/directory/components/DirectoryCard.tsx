import { useId, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { DirectoryImage } from './DirectoryImage';

/**
 * A card of the directory grid: picture, name (an h2 under the page title), a short text, and the details
 * button, which names the card it belongs to for screen readers (aria-describedby).
 */
export function DirectoryCard({
  name,
  image,
  imageAlt,
  buttonLabel,
  onOpen,
  imagePriority,
  children,
}: {
  name: string;
  image: string;
  imageAlt: string;
  buttonLabel: string;
  onOpen: () => void;
  imagePriority?: 'lazy' | 'eager' | 'high';
  children: ReactNode;
}) {
  const nameId = useId();
  return (
    <Card
      component="article"
      aria-labelledby={nameId}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0 }}
    >
      <DirectoryImage src={image} alt={imageAlt} priority={imagePriority} />
      <CardContent sx={{ flex: 1, minWidth: 0 }}>
        <Typography
          id={nameId}
          variant="h6"
          component="h2"
          sx={{ fontSize: '1.15rem', lineHeight: 1.3, mb: 1, overflowWrap: 'anywhere' }}
        >
          {name}
        </Typography>
        {children}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0 }}>
        <Button variant="contained" onClick={onOpen} aria-describedby={nameId} aria-haspopup="dialog">
          {buttonLabel}
        </Button>
      </CardActions>
    </Card>
  );
}
