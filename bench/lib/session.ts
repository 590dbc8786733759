import { randomUUID } from 'node:crypto';
import type { EventStore, TokenService } from '@pawhaven/platform';

/**
 * A bearer token on a real session: SessionStarted in the user's stream, as a sign-in records it (tokens of unknown
 * sessions are refused). The session is usable once the sessions projection has seen it.
 */
export async function startBenchSession(
  store: EventStore,
  tokens: TokenService,
  userId: string,
  isAdmin = false,
): Promise<string> {
  const sessionId = randomUUID();
  const now = new Date();
  await store.append(
    `user-${userId}`,
    [
      {
        type: 'SessionStarted',
        data: {
          sessionId,
          secretHash: 'bench',
          rememberMe: false,
          startedAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + 3600_000).toISOString(),
        },
        metadata: { actorId: userId },
      },
    ],
    'any',
  );
  return tokens.sign({ userId, sessionId, isAdmin });
}
