import { useEffect, useId, useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddPhotoIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import CloseIcon from '@mui/icons-material/Close';

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/**
 * One image file with a preview and a remove button. The input keeps its own accessible name (`label`), so it can
 * be found with getByLabel and reached with the keyboard through the visible button.
 */
export function ImagePicker({
  label,
  buttonLabel,
  file,
  onChange,
  hint,
  error,
  required = false,
  disabled = false,
  previewHeight = 180,
  accept = 'image/png,image/jpeg,image/jpg,image/gif,image/webp',
}: {
  label: string;
  buttonLabel: string;
  file: File | null;
  onChange: (file: File | null) => void;
  hint?: string;
  error?: string | null;
  required?: boolean;
  disabled?: boolean;
  previewHeight?: number;
  /** The file types offered by the browser's picker. */
  accept?: string;
}) {
  const inputId = useId();
  const helperId = useId();
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  return (
    <Box sx={{ mt: 2, mb: 1 }}>
      <Typography component="span" variant="body2" sx={{ fontWeight: 700, display: 'block', mb: 1 }}>
        {label}
        {required && (
          <Box component="span" aria-hidden sx={{ color: 'error.main' }}>
            {' *'}
          </Box>
        )}
      </Typography>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          component="label"
          htmlFor={inputId}
          variant="outlined"
          startIcon={<AddPhotoIcon />}
          disabled={disabled}
          sx={{ '&:focus-within': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' } }}
        >
          {file ? 'Change image' : buttonLabel}
          <input
            id={inputId}
            type="file"
            accept={accept}
            aria-label={label}
            aria-describedby={helperId}
            aria-invalid={error ? true : undefined}
            aria-required={required || undefined}
            disabled={disabled}
            style={visuallyHidden}
            onChange={(e) => {
              const next = e.target.files?.[0] ?? null;
              // Let the same file be chosen again after a removal.
              e.target.value = '';
              if (next) onChange(next);
            }}
          />
        </Button>
        {file && (
          <Typography variant="body2" color="text.secondary" sx={{ minWidth: 0, wordBreak: 'break-all' }}>
            {file.name}
          </Typography>
        )}
      </Stack>
      {preview && (
        <Box sx={{ position: 'relative', mt: 1.5, width: '100%', maxWidth: 320 }}>
          <Box
            component="img"
            src={preview}
            alt={`Preview of ${file?.name ?? 'the selected image'}`}
            sx={{
              width: '100%',
              height: previewHeight,
              objectFit: 'cover',
              borderRadius: 2,
              border: 1,
              borderColor: 'divider',
              display: 'block',
            }}
          />
          <Button
            size="small"
            color="inherit"
            variant="contained"
            onClick={() => onChange(null)}
            disabled={disabled}
            startIcon={<CloseIcon />}
            aria-label={`Remove ${label.toLowerCase()}`}
            sx={{ position: 'absolute', top: 8, right: 8, bgcolor: 'background.paper' }}
          >
            Remove
          </Button>
        </Box>
      )}
      <FormHelperText id={helperId} error={Boolean(error)} sx={{ mx: 0 }}>
        {error || hint}
      </FormHelperText>
    </Box>
  );
}
