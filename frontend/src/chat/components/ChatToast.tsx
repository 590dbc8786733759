import { useCallback, useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import { CHAT_LIMITS } from '@pawhaven/contracts';

export type ChatToastInput = { title: string; description: string; variant?: 'normal' | 'destructive' };
type Toast = ChatToastInput & { id: number };

let nextId = 1;

/**
 * The chat's toasts: top right, a title and a description, normal or destructive, 3 seconds. Returns the function that
 * shows one and the element to render.
 */
export function useChatToast() {
  const [toast, setToast] = useState<Toast | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((t: ChatToastInput) => {
    setToast({ ...t, id: nextId++ });
    setOpen(true);
  }, []);
  const close = () => setOpen(false);
  const element = toast ? (
    <Snackbar
      key={toast.id}
      open={open}
      autoHideDuration={CHAT_LIMITS.toastMs}
      onClose={(_, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      sx={{ top: { xs: 72, sm: 80 } }}
    >
      <Alert
        severity={toast.variant === 'destructive' ? 'error' : 'info'}
        variant="filled"
        onClose={close}
        role={toast.variant === 'destructive' ? 'alert' : 'status'}
        data-testid="chat-toast"
        sx={{ width: '100%', maxWidth: 420 }}
      >
        <AlertTitle sx={{ fontWeight: 800 }}>{toast.title}</AlertTitle>
        {toast.description}
      </Alert>
    </Snackbar>
  ) : null;
  return { show, element };
}
