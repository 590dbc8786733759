/**
 * A sign-in's session, stream `session-{sessionId}`: started by a sign-in, revoked by the sign-out. Sessions used to
 * be recorded in the user's stream; there every sign-in made each later command on the user replay one more event,
 * for good. Those older sessions stay where they are and are still honoured (user/sessions.ts, the session check).
 */
import { decideSession } from './decide';
import { evolveSession, initialSessionState } from './state';

export { decideSession, type SessionCommand } from './decide';
export { evolveSession, initialSessionState, type SessionEvent, type SessionState } from './state';

export const sessionDecider = {
  initialState: initialSessionState,
  evolve: evolveSession,
  decide: decideSession,
};
