import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';

/** A `sessions` row, every column included. */
type SessionRow = {
  id: string;
  user_id: string;
  started_at: string;
  expires_at: string;
  revoked_at: string | null;
};

/**
 * `sessions`: which refresh sessions are revoked, so access tokens of a signed-out session stop working at once.
 * Each ended session is announced ({ kind: 'session-ended', userId, sessionId }, no sessionId: all of the user's),
 * so the realtime gateway closes the sockets opened with it.
 */
export const sessionsProjection = defineProjection({
  name: 'sessions',
  tables: ['sessions'],
  handles: ['SessionStarted', 'SessionRevoked', 'PasswordReset', 'UserDeleted'] satisfies UserEvent['type'][],
  // Session ids and times: no personal field.
  readsPersonalData: false,
  async apply(tx, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    const userId = userIdOfStream(recorded.streamId);
    switch (event.type) {
      case 'SessionStarted':
        await tx('sessions')
          .insert({
            id: event.data.sessionId,
            user_id: userId,
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
        notices.push({ kind: 'session-ended', userId, sessionId: event.data.sessionId });
        return;
      case 'PasswordReset':
        await tx('sessions')
          .where({ user_id: userId })
          .whereNull('revoked_at')
          .update({ revoked_at: event.data.resetAt });
        notices.push({ kind: 'session-ended', userId, sessionId: null });
        return;
      case 'UserDeleted':
        // Its sessions were revoked in the same append (the log-based check refuses them); the rows go.
        await tx('sessions').where({ user_id: userId }).delete();
        notices.push({ kind: 'session-ended', userId, sessionId: null });
        return;
      default:
        return;
    }
  },
  fold: () => {
    const sessions = new Map<string, SessionRow>();
    // Each user's sessions, for a password reset and a deletion (a session's user never changes once inserted).
    const byUser = new Map<string, SessionRow[]>();
    return {
      apply(recorded) {
        const event = { type: recorded.type, data: recorded.data } as UserEvent;
        switch (event.type) {
          case 'SessionStarted': {
            if (sessions.has(event.data.sessionId)) return; // ON CONFLICT DO NOTHING
            const userId = userIdOfStream(recorded.streamId);
            const session: SessionRow = {
              id: event.data.sessionId,
              user_id: userId,
              started_at: event.data.startedAt,
              expires_at: event.data.expiresAt,
              revoked_at: null,
            };
            sessions.set(session.id, session);
            const own = byUser.get(userId);
            if (own) own.push(session);
            else byUser.set(userId, [session]);
            return;
          }
          case 'SessionRevoked': {
            const session = sessions.get(event.data.sessionId);
            if (session && session.revoked_at === null) session.revoked_at = event.data.revokedAt;
            return;
          }
          case 'PasswordReset':
            for (const session of byUser.get(userIdOfStream(recorded.streamId)) ?? [])
              if (session.revoked_at === null) session.revoked_at = event.data.resetAt;
            return;
          case 'UserDeleted': {
            const userId = userIdOfStream(recorded.streamId);
            for (const session of byUser.get(userId) ?? []) sessions.delete(session.id);
            byUser.delete(userId);
            return;
          }
          default:
            return;
        }
      },
      rows: () => ({ sessions: sessions.values() }),
    };
  },
});
