import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import type { ToastSeverity } from './toast';

/** The toast itself (./toast): its own chunk, loaded with the first message, so the first screen does not carry it. */
export default function ToastView({
  open,
  message,
  severity,
  durationMs,
  onClose,
}: {
  open: boolean;
  message: string;
  severity: ToastSeverity;
  durationMs: number;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={durationMs}
      onClose={(_, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={{ top: { xs: 72, sm: 80 } }}
    >
      <Alert
        severity={severity}
        variant="filled"
        onClose={onClose}
        role={severity === 'error' ? 'alert' : 'status'}
        sx={{ width: '100%', maxWidth: 420 }}
      >
        {message}
      </Alert>
    </Snackbar>
  );
}
