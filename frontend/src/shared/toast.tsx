import { createContext, lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react';

export type ToastSeverity = 'success' | 'error' | 'info' | 'warning';
type Toast = { id: number; message: string; severity: ToastSeverity; durationMs: number };
type ShowToast = (message: string, severity?: ToastSeverity, durationMs?: number) => void;

const ToastContext = createContext<ShowToast>(() => {});
let nextId = 1;
const ToastView = lazy(() => import('./ToastView'));

/** Short-lived messages in the top-right corner (the profile's toasts last 3.5 s). */
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
        <Suspense fallback={null}>
          <ToastView
            key={toast.id}
            open={open}
            message={toast.message}
            severity={toast.severity}
            durationMs={toast.durationMs}
            onClose={close}
          />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
