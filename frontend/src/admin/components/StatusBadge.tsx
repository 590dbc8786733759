import Chip from '@mui/material/Chip';
import { requestStatusColour } from '../format';

/** Hex values for the spec's colour names, readable as chip backgrounds with dark text. */
const BACKGROUNDS: Record<string, string> = {
  yellow: '#FFE58F',
  green: '#B7EB8F',
  red: '#FFA39E',
  grey: '#E0E0E0',
};

/** A request's status badge: pending yellow, accepted green, rejected red, other grey. */
export function RequestStatusBadge({ status }: { status: string }) {
  const colour = requestStatusColour(status);
  return (
    <Chip
      size="small"
      label={status}
      data-colour={colour}
      sx={{ bgcolor: BACKGROUNDS[colour], color: '#222', textTransform: 'capitalize' }}
    />
  );
}

const AD_COLOURS: Record<string, 'success' | 'info' | 'default'> = {
  available: 'success',
  adopted: 'info',
  deleted: 'default',
};

/** An ad's status: available, adopted or deleted. */
export function AdStatusBadge({ status }: { status: string }) {
  return (
    <Chip
      size="small"
      label={status}
      color={AD_COLOURS[status] ?? 'default'}
      sx={{ textTransform: 'capitalize' }}
    />
  );
}
