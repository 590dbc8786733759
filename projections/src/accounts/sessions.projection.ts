import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

/** `sessions`: which refresh sessions are revoked, so access tokens of a signed-out session stop working at once. */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  tables: ['sessions'],
  handles: ['SessionStarted', 'SessionRevoked', 'PasswordReset', 'UserDeleted'] satisfies UserEvent['type'][],
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    switch (event.type) {
      case 'SessionStarted':
        await tx('sessions')
          .insert({
            id: event.data.sessionId,
            user_id: userIdOfStream(recorded.streamId),
            started_at: event.data.startedAt,
            expires_at: event.data.expiresAt,
          })
          .onConflict('id')
          .ignore();
        return;
      case 'SessionRevoked':
        await tx('sessions')
          .where({ id: event.data.sessionId })
          .whereNull('revoked_at')
          .update({ revoked_at: event.data.revokedAt });
        return;
      case 'PasswordReset':
        await tx('sessions')
          .where({ user_id: userIdOfStream(recorded.streamId) })
          .whereNull('revoked_at')
          .update({ revoked_at: event.data.resetAt });
        return;
      case 'UserDeleted':
        // Its sessions were revoked in the same append (the log-based check refuses them); the rows go.
        await tx('sessions')
          .where({ user_id: userIdOfStream(recorded.streamId) })
          .delete();
        return;
      default:
        return;
    }
  },
});
