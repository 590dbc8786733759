import Chip from '@mui/material/Chip';
import type { AdStatus, RequestStatus } from '@pawhaven/contracts';
import { REQUEST_STATUS_COLORS, REQUEST_STATUS_LABELS } from '../format';

/** A request's state: Pending, Accepted, Rejected, Withdrawn, Closed. */
export function RequestStatusChip({ status }: { status: RequestStatus }) {
  return (
    <Chip
      size="small"
      label={REQUEST_STATUS_LABELS[status] ?? status}
      color={REQUEST_STATUS_COLORS[status] ?? 'default'}
      variant={status === 'withdrawn' || status === 'closed' ? 'outlined' : 'filled'}
      sx={{ fontWeight: 700 }}
    />
  );
}

const AD_LABELS: Record<AdStatus, string> = {
  available: 'Available',
  adopted: 'Adopted',
  deleted: 'Removed',
};
const AD_COLORS = { available: 'success', adopted: 'secondary', deleted: 'default' } as const;

/** An ad's state: Available, Adopted (or Removed, as seen from a request's history). */
export function AdStatusChip({ status }: { status: AdStatus }) {
  return (
    <Chip
      size="small"
      label={AD_LABELS[status] ?? status}
      color={AD_COLORS[status] ?? 'default'}
      sx={{ fontWeight: 700 }}
    />
  );
}
