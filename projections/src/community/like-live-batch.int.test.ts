import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommunityEvent } from '@pawhaven/contracts';
import { applyBatch, START, type LogPosition, type RecordedEvent } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { allProjections } from '../index';

/**
 * A like is visible when the projector's batch commits, and on this machine every round trip of that batch is
 * about a millisecond: the read models that handle PostLiked ask for every row the event names before branching on
 * the post, so the whole group loads them in ONE round trip (not one for the post and another for what follows).
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await db.drop();
});

let position = 0n;
const recorded = (event: CommunityEvent): RecordedEvent => ({
  ...event,
  streamId: `post-${randomUUID()}`,
  streamRevision: 0n,
  eventId: randomUUID(),
  transactionId: 1n,
  position: ++position,
  createdAt: new Date(),
  metadata: {},
});

describe('a like projected live', () => {
  it('loads what every read model needs in one round trip', async () => {
    const [postId, authorId, likerId] = [randomUUID(), randomUUID(), randomUUID()];
    const published = recorded({
      type: 'PostPublished',
      data: {
        postId,
        authorId,
        authorIsVeterinarian: false,
        caption: 'Found near the canal',
        imageUrl: '/api/images/000000000000000000000000',
        publishedAt: new Date().toISOString(),
      },
    });
    let at: LogPosition = await applyBatch(db.knex, allProjections, [published], START);
    const liked = recorded({
      type: 'PostLiked',
      data: { postId, postAuthorId: authorId, userId: likerId, likedAt: new Date().toISOString() },
    });
    const loads: string[] = [];
    const listen = (q: { sql: string }) => void (q.sql.includes('to_jsonb(t)') && loads.push(q.sql));
    db.knex.on('query', listen);
    try {
      at = await applyBatch(db.knex, allProjections, [liked], at);
    } finally {
      db.knex.off('query', listen);
    }
    expect(at.position).toBe(liked.position);
    expect(loads).toHaveLength(1);
    const { rows } = await db.knex.raw(
      `SELECT (SELECT like_count FROM posts WHERE id = ?) AS likes,
              (SELECT count(*)::int FROM notifications WHERE post_id = ? AND type = 'post_like') AS told`,
      [postId, postId],
    );
    expect(rows).toEqual([{ likes: 1, told: 1 }]);
  });
});
