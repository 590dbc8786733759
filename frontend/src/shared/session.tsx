import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { refreshSession } from './api';
import { sessionStore, tokenIsStale, type Session } from './session-store';

type SessionState = Session & {
  /** False while a stored session is being renewed at start-up. */
  ready: boolean;
};

const ReadyContext = createContext(true);

/**
 * Restores the session at start-up: when storage holds a user but the token is gone or expired, the refresh
 * cookie is traded for a new token before pages that need the session render their data.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(() => {
    const { user, token } = sessionStore.get();
    return !(user && tokenIsStale(token));
  });
  useEffect(() => {
    if (ready) return;
    let live = true;
    void refreshSession().finally(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, [ready]);
  return <ReadyContext.Provider value={ready}>{children}</ReadyContext.Provider>;
}

export function useSession(): SessionState {
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
  const ready = useContext(ReadyContext);
  return { ...session, ready };
}

/** The signed-in user, or null. */
export const useCurrentUser = () => useSession().user;
