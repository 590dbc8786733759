import type { Knex } from 'knex';
import type { AccessClaims } from './tokens';

/** Is the session behind a validly signed access token still open? 'unknown' sessions are refused. */
export type SessionCheck = (claims: Pick<AccessClaims, 'userId' | 'sessionId'>) => Promise<boolean>;

type SessionEvent = {
  type: 'SessionStarted' | 'SessionRevoked' | 'PasswordReset';
  session_id: string | null;
};

/**
 * The two ways to answer it. Both refuse a session nobody started (a token signed for a made-up or deleted
 * session) and one that was signed out or ended by a password reset.
 *
 * - `fromLog` reads the user's own stream: always current, one indexed query. The command side uses it, so a
 *   command sent a millisecond after sign-out is refused.
 * - `fromReadModel` reads the `sessions` projection and falls back to the log for a session it does not know
 *   yet (just signed in, or the projection is behind): the query side and socket.io use it.
 */
export function sessionChecks(knex: Knex): { fromLog: SessionCheck; fromReadModel: SessionCheck } {
  const fromLog: SessionCheck = async ({ userId, sessionId }) => {
    const { rows } = await knex.raw<{ rows: SessionEvent[] }>(
      `SELECT type, data->>'sessionId' AS session_id FROM events
       WHERE stream_id = ? AND type IN ('SessionStarted', 'SessionRevoked', 'PasswordReset')
       ORDER BY stream_revision`,
      [`user-${userId}`],
    );
    let open = false;
    for (const e of rows) {
      if (e.type === 'SessionStarted' && e.session_id === sessionId) open = true;
      else if (e.type === 'SessionRevoked' && e.session_id === sessionId) open = false;
      else if (e.type === 'PasswordReset') open = false;
    }
    return open;
  };

  const fromReadModel: SessionCheck = async (claims) => {
    const row = await knex('sessions')
      .where({ id: claims.sessionId })
      .first<{ user_id: string; revoked_at: Date | null } | undefined>('user_id', 'revoked_at');
    if (!row) return fromLog(claims);
    return row.user_id === claims.userId && row.revoked_at === null;
  };

  return { fromLog, fromReadModel };
}
