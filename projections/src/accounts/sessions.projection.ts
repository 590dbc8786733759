import { sessionStream, userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

/** A `sessions` row, every column included. */
type SessionRow = {
  id: string;
  user_id: string;
  started_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The user stream's revision the sign-in was decided on; null for a session recorded in the user's stream. */
  user_revision: number | null;
};

/** A `session_ends` row: a password reset or deletion of the user, at this revision of their stream. */
type SessionEndRow = { user_id: string; user_revision: number; ended_at: string; deleted: boolean };

/**
 * `sessions`: which refresh sessions are revoked, so access tokens of a signed-out session stop working at once.
 * Each ended session is announced ({ kind: 'session-ended', userId, sessionId }, no sessionId: all of the user's),
 * so the realtime gateway closes the sockets opened with it.
 *
 * A session in its own stream may be recorded after a password reset that ends it (the sign-in was decided on the
 * user's stream before the reset): `session_ends` remembers the resets and the deletion, so such a session is
 * stored revoked (or, after a deletion, not at all). That is also why this model follows the log's order.
 */
export const sessionsProjection = defineReadModel<{ sessions: SessionRow; session_ends: SessionEndRow }>({
  name: 'sessions',
  tables: {
    sessions: { key: ['id'], lookups: ['user_id'] },
    session_ends: { key: ['user_id', 'user_revision'], lookups: ['user_id'] },
  },
  handles: ['SessionStarted', 'SessionRevoked', 'PasswordReset', 'UserDeleted'] satisfies UserEvent['type'][],
  // Session ids and times: no personal field.
  readsPersonalData: false,
  evolve({ sessions, session_ends }, recorded, notices) {
    const event = { type: recorded.type, data: recorded.data } as UserEvent;
    /** The user whose stream it is, or, for a session's own stream, whose session. */
    const userId =
      event.type === 'SessionStarted' && event.data.userId !== undefined
        ? event.data.userId
        : userIdOfStream(recorded.streamId);
    const userRevision = Number(recorded.streamRevision);
    /** Every open session of the user decided before this revision of their stream ends at `at`. */
    const endAll = (at: string) => {
      for (const session of sessions.find('user_id', userId))
        if (session.revoked_at === null && (session.user_revision ?? -1) < userRevision)
          sessions.put({ ...session, revoked_at: at });
    };
    switch (event.type) {
      case 'SessionStarted': {
        if (sessions.get(event.data.sessionId)) return; // started once
        const decidedAt = event.data.userRevision ?? null;
        // The first reset or deletion past the revision the sign-in was decided on, if one is already recorded.
        const end =
          decidedAt === null
            ? undefined
            : session_ends
                .find('user_id', userId)
                .filter((e) => e.user_revision > decidedAt)
                .sort((a, b) => a.user_revision - b.user_revision)[0];
        if (end?.deleted) return;
        sessions.put({
          id: event.data.sessionId,
          user_id: userId,
          started_at: event.data.startedAt,
          expires_at: event.data.expiresAt,
          revoked_at: end?.ended_at ?? null,
          user_revision: decidedAt,
        });
        return;
      }
      case 'SessionRevoked': {
        const session = sessions.get(event.data.sessionId);
        if (session && session.revoked_at === null)
          sessions.put({ ...session, revoked_at: event.data.revokedAt });
        // A session's own stream names no user: the row does (none left after the account's deletion).
        const owner = recorded.streamId === sessionStream(event.data.sessionId) ? session?.user_id : userId;
        if (owner) notices.push({ kind: 'session-ended', userId: owner, sessionId: event.data.sessionId });
        return;
      }
      case 'PasswordReset':
        endAll(event.data.resetAt);
        session_ends.put({
          user_id: userId,
          user_revision: userRevision,
          ended_at: event.data.resetAt,
          deleted: false,
        });
        notices.push({ kind: 'session-ended', userId, sessionId: null });
        return;
      case 'UserDeleted':
        // Every session ends with the account (the log-based check refuses them); the rows go, and the deletion is
        // remembered so that a session recorded later, decided before it, is not stored.
        for (const session of sessions.find('user_id', userId)) sessions.delete(session.id);
        for (const end of session_ends.find('user_id', userId))
          session_ends.delete(userId, end.user_revision);
        session_ends.put({
          user_id: userId,
          user_revision: userRevision,
          ended_at: event.data.deletedAt,
          deleted: true,
        });
        notices.push({ kind: 'session-ended', userId, sessionId: null });
        return;
      default:
        return;
    }
  },
});
