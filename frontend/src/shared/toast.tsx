import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

export type ToastSeverity = 'success' | 'error' | 'info' | 'warning';
type Toast = { id: number; message: string; severity: ToastSeverity; durationMs: number };
type ShowToast = (message: string, severity?: ToastSeverity, durationMs?: number) => void;

const ToastContext = createContext<ShowToast>(() => {});
let nextId = 1;

/** Short-lived messages in the top-right corner (the profile's toasts last 3.5 s, spec 000 §9). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback<ShowToast>((message, severity = 'success', durationMs = 3500) => {
    setToast({ id: nextId++, message, severity, durationMs });
    setOpen(true);
  }, []);
  const close = () => setOpen(false);
  return (
    <ToastContext.Provider value={show}>
      {children}
      {toast && (
        <Snackbar
          key={toast.id}
          open={open}
          autoHideDuration={toast.durationMs}
          onClose={(_, reason) => reason !== 'clickaway' && close()}
          anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
          sx={{ top: { xs: 72, sm: 80 } }}
        >
          <Alert
            severity={toast.severity}
            variant="filled"
            onClose={close}
            role={toast.severity === 'error' ? 'alert' : 'status'}
            sx={{ width: '100%', maxWidth: 420 }}
          >
            {toast.message}
          </Alert>
        </Snackbar>
      )}
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
