import { notFound } from '@pawhaven/platform';
import { USER_DELETION_MESSAGES } from '../user/commands';
import { expiresAt, requireActive } from '../user/rules';
import type { UserState } from '../user/state';
import type { SessionEvent, SessionState } from './state';

export type SessionCommand =
  | {
      type: 'StartSession';
      data: {
        /** The account signing in, as loaded at `userRevision` of its stream. */
        user: UserState;
        userRevision: bigint;
        sessionId: string;
        secretHash: string;
        rememberMe: boolean;
        rememberMeDays: number;
        now: Date;
      };
    }
  | { type: 'RevokeSession'; data: { now: Date } };

/**
 * A sign-in starts a session (1 day, or the remember-me days) for an active account; a sign-out revokes it, once.
 * A password reset or the account's deletion ends it too, from the user's stream (the session check compares
 * revisions), so nothing here needs to know about them.
 */
export function decideSession(command: SessionCommand, state: SessionState): SessionEvent[] {
  switch (command.type) {
    case 'StartSession': {
      const d = command.data;
      if (d.user.status === 'deleted') throw notFound(USER_DELETION_MESSAGES.notFound);
      requireActive(d.user);
      if (state.status !== 'none') return []; // the same sign-in again (a retry): started once
      const days = d.rememberMe ? d.rememberMeDays : 1;
      return [
        {
          type: 'SessionStarted',
          data: {
            sessionId: d.sessionId,
            userId: d.user.userId,
            userRevision: Number(d.userRevision),
            secretHash: d.secretHash,
            rememberMe: d.rememberMe,
            expiresAt: expiresAt(d.now, days * 24 * 3600),
            startedAt: d.now.toISOString(),
          },
        },
      ];
    }
    case 'RevokeSession':
      if (state.status !== 'open') return [];
      return [
        {
          type: 'SessionRevoked',
          data: { sessionId: state.sessionId, revokedAt: command.data.now.toISOString() },
        },
      ];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}
