import { randomUUID } from 'node:crypto';
import { sessionStream, userStream } from '@pawhaven/contracts';
import type { EventStore, TokenService } from '@pawhaven/platform';

/**
 * A bearer token on a real session: SessionStarted in the session's own stream, as a sign-in records it (tokens of
 * unknown sessions are refused), naming the user stream's current revision.
 */
export async function startBenchSession(
  store: EventStore,
  tokens: TokenService,
  userId: string,
  isAdmin = false,
): Promise<string> {
  const sessionId = randomUUID();
  const now = new Date();
  let userRevision = -1;
  for await (const e of store.readStream(userStream(userId))) userRevision = Number(e.streamRevision);
  await store.append(
    sessionStream(sessionId),
    [
      {
        type: 'SessionStarted',
        data: {
          sessionId,
          userId,
          userRevision,
          secretHash: 'bench',
          rememberMe: false,
          startedAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + 3600_000).toISOString(),
        },
        metadata: { actorId: userId },
      },
    ],
    'no_stream',
  );
  return tokens.sign({ userId, sessionId, isAdmin });
}
