import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

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
export const sessionsProjection = defineReadModel<{ sessions: SessionRow }>({
  name: 'sessions',
  // What an event does here depends only on its own stream's earlier events (may consume a partitioned bus).
  order: 'stream',
  tables: { sessions: { key: ['id'], lookups: ['user_id'] } },
  handles: ['SessionStarted', 'SessionRevoked', 'PasswordReset', 'UserDeleted'] satisfies UserEvent['type'][],
  // Session ids and times: no personal field.
  readsPersonalData: false,
  evolve({ sessions }, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    const userId = userIdOfStream(recorded.streamId);
    /** Every open session of the user ends at `at`. */
    const revokeAll = (at: string) => {
      for (const session of sessions.find('user_id', userId))
        if (session.revoked_at === null) sessions.put({ ...session, revoked_at: at });
    };
    switch (event.type) {
      case 'SessionStarted':
        if (sessions.get(event.data.sessionId)) return; // started once
        sessions.put({
          id: event.data.sessionId,
          user_id: userId,
          started_at: event.data.startedAt,
          expires_at: event.data.expiresAt,
          revoked_at: null,
        });
        return;
      case 'SessionRevoked': {
        const session = sessions.get(event.data.sessionId);
        if (session && session.revoked_at === null)
          sessions.put({ ...session, revoked_at: event.data.revokedAt });
        notices.push({ kind: 'session-ended', userId, sessionId: event.data.sessionId });
        return;
      }
      case 'PasswordReset':
        revokeAll(event.data.resetAt);
        notices.push({ kind: 'session-ended', userId, sessionId: null });
        return;
      case 'UserDeleted':
        // Its sessions were revoked in the same append (the log-based check refuses them); the rows go.
        for (const session of sessions.find('user_id', userId)) sessions.delete(session.id);
        notices.push({ kind: 'session-ended', userId, sessionId: null });
        return;
      default:
        return;
    }
  },
});
