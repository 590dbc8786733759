import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import MedicalServicesIcon from '@mui/icons-material/MedicalServicesOutlined';
import PersonIcon from '@mui/icons-material/PersonOutline';
import { errorText } from '../shared/api';
import { useConfig } from '../shared/config';
import { cspNonce } from '../shared/csp-nonce';
import { accountsApi } from './api';
import { useCompleteSignIn } from './useCompleteSignIn';

// ---------- Google Identity Services, loaded only when a client id is configured ----------

type CredentialResponse = { credential: string; select_by?: string };
type GoogleId = {
  initialize(opts: { client_id: string; callback: (r: CredentialResponse) => void; ux_mode?: 'popup' }): void;
  renderButton(el: HTMLElement, opts: Record<string, unknown>): void;
};
declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } };
  }
}

const GSI_SRC = 'https://accounts.google.com/gsi/client';
let gsiLoading: Promise<GoogleId> | null = null;

function loadGoogleIdentity(): Promise<GoogleId> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google.accounts.id);
  gsiLoading ??= new Promise<GoogleId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SRC;
    // Google's client adds a <style> of its own with its script's nonce: the CSP allows no other inline style.
    script.nonce = cspNonce() ?? '';
    script.async = true;
    script.defer = true;
    script.onload = () =>
      window.google?.accounts?.id ? resolve(window.google.accounts.id) : reject(new Error('gsi'));
    script.onerror = () => {
      gsiLoading = null;
      script.remove();
      reject(new Error('gsi'));
    };
    document.head.appendChild(script);
  });
  return gsiLoading;
}

function GoogleButton({
  clientId,
  onCredential,
}: {
  clientId: string;
  onCredential: (credential: string) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onCredential);
  callback.current = onCredential;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadGoogleIdentity()
      .then((gsi) => {
        if (!live || !ref.current) return;
        gsi.initialize({
          client_id: clientId,
          callback: (r) => callback.current(r.credential),
          ux_mode: 'popup',
        });
        gsi.renderButton(ref.current, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          shape: 'pill',
          text: 'continue_with',
          width: Math.min(ref.current.clientWidth || 320, 400),
        });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [clientId]);

  if (failed) {
    return (
      <Typography variant="body2" color="text.secondary" textAlign="center">
        Google sign-in is unavailable right now.
      </Typography>
    );
  }
  return <Box ref={ref} sx={{ display: 'flex', justifyContent: 'center', minHeight: 44, width: '100%' }} />;
}

// ---------- the Google flow: login, and the user-type choice for a new account ----------

type Pending = { email: string; username: string; credential: string };

/**
 * The Google button (only when the server has a Google client id) and the 'Welcome, {name}!' dialog that
 * completes a first Google sign-in by asking how the user registers. The server keeps Google sessions persistent, so
 * the browser keeps them in localStorage to match.
 */
export function GoogleAuth() {
  const { data: config } = useConfig();
  const completeSignIn = useCompleteSignIn();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!config?.googleClientId) return null;

  const onCredential = async (credential: string) => {
    setError(null);
    setBusy(true);
    try {
      const res = await accountsApi.loginGoogle(credential);
      if (res.needsUserType) {
        setPending({ email: res.email, username: res.username, credential });
      } else if (res.token && res.user) {
        completeSignIn(res, true);
      } else {
        setError('Login failed: No token received.');
      }
    } catch (err) {
      setError(errorText(err, 'Google login failed', 'An error occurred during Google login'));
    } finally {
      setBusy(false);
    }
  };

  const register = async (isVeterinarian: boolean) => {
    if (!pending) return;
    setError(null);
    setBusy(true);
    try {
      const res = await accountsApi.completeGoogleRegistration({ ...pending, isVeterinarian });
      if (!res.token || !res.user) {
        setError('Google registration failed');
        return;
      }
      setPending(null);
      completeSignIn(res, true);
    } catch (err) {
      setError(errorText(err, 'Google registration failed', 'An error occurred during Google registration'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ mt: 2 }}>
      <Divider sx={{ my: 2, color: 'text.secondary', fontSize: 14 }}>or</Divider>
      <GoogleButton clientId={config.googleClientId} onCredential={(c) => void onCredential(c)} />
      {error && !pending && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      <Dialog
        open={pending !== null}
        onClose={() => !busy && setPending(null)}
        aria-labelledby="google-welcome-title"
        fullWidth
        maxWidth="xs"
      >
        <DialogTitle id="google-welcome-title" sx={{ pr: 6 }}>
          Welcome, {pending?.username}!
        </DialogTitle>
        <IconButton
          aria-label="Close"
          onClick={() => setPending(null)}
          disabled={busy}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>How would you like to register?</Typography>
          <Stack spacing={1.5}>
            <Button
              variant="contained"
              size="large"
              startIcon={<PersonIcon />}
              disabled={busy}
              onClick={() => void register(false)}
            >
              Regular User
            </Button>
            <Button
              variant="outlined"
              color="secondary"
              size="large"
              startIcon={<MedicalServicesIcon />}
              disabled={busy}
              onClick={() => void register(true)}
            >
              Veterinarian
            </Button>
          </Stack>
          {error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
      </Dialog>
    </Box>
  );
}
