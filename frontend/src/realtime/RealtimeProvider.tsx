import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSession } from '../shared/session';
import { connecting, RealtimeContext, SIGNED_OUT, type InternalState } from './context';

export {
  emitWithAck,
  NOT_CONNECTED,
  useBackendReady,
  useRealtime,
  useSocketEvent,
  type RealtimeEvents,
  type RealtimeState,
} from './context';

// The socket, its options and messages (and socket.io-client) load for signed-in users only.
const RealtimeConnection = lazy(() => import('./RealtimeConnection'));

/**
 * The real-time channel around the community pages: signed out, the pages see no socket and the status 'offline';
 * signed in, ./RealtimeConnection keeps one socket.io connection and reports its state here. The pages stay where they
 * are in the tree whatever the connection does (it is a sibling, not a wrapper).
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { user, token, ready } = useSession();
  const active = Boolean((user?.id || user?._id) && token && ready);
  const [state, setState] = useState<InternalState | null>(null);
  const value = active ? (state ?? connecting()) : SIGNED_OUT;
  return (
    <RealtimeContext.Provider value={value}>
      {children}
      {active && (
        <Suspense fallback={null}>
          <RealtimeConnection onChange={setState} />
        </Suspense>
      )}
    </RealtimeContext.Provider>
  );
}
