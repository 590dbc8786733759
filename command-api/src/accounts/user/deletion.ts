import { type UserEvent } from '@pawhaven/contracts';
import { forbidden, notFound } from '@pawhaven/platform';
import { USER_DELETION_MESSAGES, type UserCommand } from './commands';
import type { UserState } from './state';

export type DeletionCommand = Extract<UserCommand, { type: 'DeleteUser' }>;

/**
 * An administrator deletes the account: its open sessions end in the same append.
 */
export function decideDeletion(command: DeletionCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'DeleteUser': {
      if (state.status === 'unregistered') throw notFound(USER_DELETION_MESSAGES.notFound);
      if (state.isAdmin) throw forbidden(USER_DELETION_MESSAGES.adminAccount);
      const at = command.data.now.toISOString();
      // UserDeleted ends every session (the session check reads it); the sessions recorded in this stream, before
      // sessions had streams of their own, also get their SessionRevoked in the same append, as they always did.
      // The personal-data key goes when UserDeleted is projected.
      const revoked: UserEvent[] = Object.entries(state.sessions)
        .filter(([, s]) => !s.revoked)
        .map(([sessionId]) => ({ type: 'SessionRevoked', data: { sessionId, revokedAt: at } }));
      return [
        ...revoked,
        {
          type: 'UserDeleted',
          data: { userId: state.userId, deletedBy: command.data.deletedBy, deletedAt: at },
        },
      ];
    }
  }
}
