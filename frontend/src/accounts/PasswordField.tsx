import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';

type Props = Omit<TextFieldProps, 'type'> & {
  /** A success line ('Password meets all requirements') shown in green instead of an error. */
  successText?: string | null;
};

/** A password input with a show/hide toggle. */
export function PasswordField({ successText, helperText, error, slotProps, ...props }: Props) {
  const [visible, setVisible] = useState(false);
  const showSuccess = !error && Boolean(successText);
  return (
    <TextField
      {...props}
      error={error}
      type={visible ? 'text' : 'password'}
      helperText={showSuccess ? successText : helperText}
      slotProps={{
        ...slotProps,
        formHelperText: {
          sx: showSuccess ? { color: 'success.main', fontWeight: 600 } : undefined,
          'aria-live': 'polite',
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={visible ? 'Hide password' : 'Show password'}
                onClick={() => setVisible((v) => !v)}
                onMouseDown={(e) => e.preventDefault()}
                edge="end"
              >
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
