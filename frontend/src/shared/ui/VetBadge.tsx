import Chip from '@mui/material/Chip';
import MedicalServicesIcon from '@mui/icons-material/MedicalServicesOutlined';

/** Veterinarians are shown with a badge beside their name. */
export function VetBadge({ label = 'Veterinarian' }: { label?: string }) {
  return (
    <Chip
      icon={<MedicalServicesIcon />}
      label={label}
      size="small"
      color="secondary"
      variant="outlined"
      sx={{ fontWeight: 700, verticalAlign: 'middle' }}
    />
  );
}
