import { type UserEvent } from '@pawhaven/contracts';
import type { UserCommand } from './commands';
import { expiresAt, requireActive } from './rules';
import type { UserState } from './state';

export type SessionCommand = Extract<UserCommand, { type: 'StartSession' | 'RevokeSession' }>;

/**
 * Sessions: a sign-in starts one (1 day, or the remember-me days), a sign-out revokes it.
 */
export function decideSession(command: SessionCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'StartSession': {
      requireActive(state);
      const d = command.data;
      const days = d.rememberMe ? d.rememberMeDays : 1;
      return [
        {
          type: 'SessionStarted',
          data: {
            sessionId: d.sessionId,
            secretHash: d.secretHash,
            rememberMe: d.rememberMe,
            expiresAt: expiresAt(d.now, days * 24 * 3600),
            startedAt: d.now.toISOString(),
          },
        },
      ];
    }
    case 'RevokeSession': {
      const s = state.sessions[command.data.sessionId];
      if (!s || s.revoked) return [];
      return [
        {
          type: 'SessionRevoked',
          data: { sessionId: command.data.sessionId, revokedAt: command.data.now.toISOString() },
        },
      ];
    }
  }
}
