import { type UserEvent } from '@pawhaven/contracts';
import type { UserCommand } from './commands';
import type { UserState } from './state';

export type SessionCommand = Extract<UserCommand, { type: 'RevokeSession' }>;

/**
 * The sessions recorded in the user's stream before sessions had streams of their own (../session): they still
 * sign out here. New sign-ins start their session in its own stream.
 */
export function decideSession(command: SessionCommand, state: UserState): UserEvent[] {
  const s = state.sessions[command.data.sessionId];
  if (!s || s.revoked) return [];
  return [
    {
      type: 'SessionRevoked',
      data: { sessionId: command.data.sessionId, revokedAt: command.data.now.toISOString() },
    },
  ];
}
