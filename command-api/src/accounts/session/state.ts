import type { UserEvent } from '@pawhaven/contracts';

/** The events of a session's own stream (`session-{sessionId}`). */
export type SessionEvent = Extract<UserEvent, { type: 'SessionStarted' | 'SessionRevoked' }>;

export type SessionState = {
  status: 'none' | 'open' | 'revoked';
  sessionId: string;
  userId: string;
  secretHash: string;
  expiresAt: string;
  startedAt: string;
  /** The user stream's revision the sign-in was decided on: a password reset or deletion after it ends the session. */
  userRevision: number;
};

export const initialSessionState = (): SessionState => ({
  status: 'none',
  sessionId: '',
  userId: '',
  secretHash: '',
  expiresAt: '',
  startedAt: '',
  userRevision: -1,
});

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted': {
      const d = event.data;
      return {
        status: 'open',
        sessionId: d.sessionId,
        userId: d.userId ?? '',
        secretHash: d.secretHash,
        expiresAt: d.expiresAt,
        startedAt: d.startedAt,
        userRevision: d.userRevision ?? -1,
      };
    }
    case 'SessionRevoked':
      return { ...state, status: 'revoked' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
