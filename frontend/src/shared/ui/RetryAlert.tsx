import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

/** A load that failed: what went wrong, and 'Try again' beside it (every list and page offers the same). */
export function RetryAlert({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
