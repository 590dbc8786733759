import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import type { ToastSeverity } from './toast';

/**
 * The toast itself (./toast): its own chunk, loaded with the first message, so the first screen does not carry it.
 * At the bottom, centred, away from the header, its menus and a page's title row (the top right is where pages keep
 * their status chips and actions, where a tip popup may also stand), beside the bottom-left tip on wide screens.
 */
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
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
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
