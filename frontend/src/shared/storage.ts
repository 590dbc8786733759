/**
 * Browser storage keys. The password is NEVER stored in the browser: remember-me keeps the email and a long-lived
 * server session instead.
 */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  rememberMe: 'rememberMe',
  savedEmail: 'savedEmail',
  resetEmail: 'resetEmail',
  resetCode: 'resetCode',
} as const;

/** Storage can be unavailable (private modes, disabled cookies): every access is guarded. */
export function safeGet(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}
export function safeSet(storage: Storage, key: string, value: string) {
  try {
    storage.setItem(key, value);
  } catch {
    /* storage full or blocked: the app keeps working for this page view */
  }
}
export function safeRemove(storage: Storage, key: string) {
  try {
    storage.removeItem(key);
  } catch {
    /* ignore */
  }
}

/** Remember-me: the choice and the email (never the password). */
export const rememberedLogin = {
  read(): { rememberMe: boolean; email: string } {
    return {
      rememberMe: safeGet(localStorage, STORAGE_KEYS.rememberMe) === 'true',
      email: safeGet(localStorage, STORAGE_KEYS.savedEmail) ?? '',
    };
  },
  write(rememberMe: boolean, email: string) {
    if (rememberMe) {
      safeSet(localStorage, STORAGE_KEYS.rememberMe, 'true');
      safeSet(localStorage, STORAGE_KEYS.savedEmail, email);
    } else {
      safeRemove(localStorage, STORAGE_KEYS.rememberMe);
      safeRemove(localStorage, STORAGE_KEYS.savedEmail);
    }
    // Older clients stored the password in plain text: make sure it is gone.
    safeRemove(localStorage, 'savedPassword');
  },
};

/** The password-reset flow keeps the email and the verified code for the current tab only. */
export const resetFlow = {
  read(): { email: string; code: string } {
    return {
      email: safeGet(sessionStorage, STORAGE_KEYS.resetEmail) ?? '',
      code: safeGet(sessionStorage, STORAGE_KEYS.resetCode) ?? '',
    };
  },
  setEmail(email: string) {
    safeSet(sessionStorage, STORAGE_KEYS.resetEmail, email);
    safeRemove(sessionStorage, STORAGE_KEYS.resetCode);
  },
  setCode(code: string) {
    safeSet(sessionStorage, STORAGE_KEYS.resetCode, code);
  },
  clear() {
    safeRemove(sessionStorage, STORAGE_KEYS.resetEmail);
    safeRemove(sessionStorage, STORAGE_KEYS.resetCode);
  },
};
