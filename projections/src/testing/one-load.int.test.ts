import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdoptionEvent, CommunityEvent } from '@pawhaven/contracts';
import { applyBatch, START, type LogPosition, type RecordedEvent } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { allProjections } from '../index';

/**
 * A command is visible when the projector's batch commits, and on this machine every round trip of that batch costs
 * about a millisecond. The read models that handle a like or an adoption request ask for every row the event names
 * before branching on what they find (the event carries the ids they would otherwise look up first: the post's
 * author, the ad's owner), so the whole group loads them in ONE round trip, not one per row found through another.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;
let at: LogPosition = START;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
});
afterAll(async () => {
  await db.drop();
});

let position = 0n;
const recorded = (streamId: string, event: CommunityEvent | AdoptionEvent): RecordedEvent => ({
  ...event,
  streamId,
  streamRevision: 0n,
  eventId: randomUUID(),
  transactionId: 1n,
  position: ++position,
  createdAt: new Date(),
  metadata: {},
});

/** Projects `event` in a batch of its own; answers the batch's load round trips (the row store's lookups). */
async function project(event: RecordedEvent): Promise<string[]> {
  const loads: string[] = [];
  const listen = (q: { sql: string }) => void (q.sql.includes('to_jsonb(t)') && loads.push(q.sql));
  db.knex.on('query', listen);
  try {
    at = await applyBatch(db.knex, allProjections, [event], at);
  } finally {
    db.knex.off('query', listen);
  }
  expect(at.position).toBe(event.position);
  return loads;
}

const one = async (sql: string, bindings: readonly string[]) => (await db.knex.raw(sql, bindings)).rows[0];

describe('a like projected live', () => {
  it('loads what every read model needs in one round trip', async () => {
    const [postId, authorId, likerId] = [randomUUID(), randomUUID(), randomUUID()];
    await project(
      recorded(`post-${postId}`, {
        type: 'PostPublished',
        data: {
          postId,
          authorId,
          authorIsVeterinarian: false,
          caption: 'Found near the canal',
          imageUrl: '/api/images/000000000000000000000000',
          publishedAt: new Date().toISOString(),
        },
      }),
    );
    const loads = await project(
      recorded(`post-like-${postId}-${likerId}`, {
        type: 'PostLiked',
        data: { postId, postAuthorId: authorId, userId: likerId, likedAt: new Date().toISOString() },
      }),
    );
    expect(loads).toHaveLength(1);
    expect(
      await one(
        `SELECT (SELECT like_count FROM posts WHERE id = ?) AS likes,
                (SELECT count(*)::int FROM notifications WHERE post_id = ? AND type = 'post_like') AS told`,
        [postId, postId],
      ),
    ).toEqual({ likes: 1, told: 1 });
  });
});

describe('an adoption request projected live', () => {
  /** A published ad, projected. */
  async function publishedAd() {
    const [adId, ownerId] = [randomUUID(), randomUUID()];
    await project(
      recorded(`adoption-${adId}`, {
        type: 'AdoptionAdPublished',
        data: {
          adId,
          ownerId,
          details: {
            name: 'Moti',
            age: '2',
            ageUnit: 'yrs',
            petType: 'Cat',
            breed: 'Persian',
            gender: 'Male',
            size: 'Medium',
            vaccinated: true,
            spayedNeutered: null,
            goodWithChildren: true,
            goodWithDogs: null,
            goodWithCats: false,
            description: 'Calm and friendly',
            location: 'Lahore',
            imageUrl: '/api/images/000000000000000000000000',
          },
          publishedAt: new Date().toISOString(),
        },
      }),
    );
    return { adId, ownerId };
  }

  const requested = (adId: string, ownerId: string | undefined) =>
    recorded(`adoption-${adId}`, {
      type: 'AdoptionRequested',
      data: {
        requestId: randomUUID(),
        requesterId: randomUUID(),
        name: 'Sana',
        email: 'sana@example.pk',
        phone: '+92 300 1234567',
        message: 'We have a garden',
        petHistoryImage: null,
        requestedAt: new Date().toISOString(),
        ...(ownerId ? { ownerId } : {}),
      },
    });

  const told = (adId: string, ownerId: string) =>
    one(
      `SELECT (SELECT request_count FROM adoption_ads WHERE id = ?) AS requests,
              (SELECT count(*)::int FROM notifications
               WHERE ad_id = ? AND user_id = ? AND type = 'adoption_request') AS told`,
      [adId, adId, ownerId],
    );

  it('loads what every read model needs in one round trip, and tells the owner', async () => {
    const { adId, ownerId } = await publishedAd();
    expect(await project(requested(adId, ownerId))).toHaveLength(1);
    expect(await told(adId, ownerId)).toEqual({ requests: 1, told: 1 });
  });

  it('a request recorded before the owner was carried still tells the owner (a second load finds them)', async () => {
    const { adId, ownerId } = await publishedAd();
    expect(await project(requested(adId, undefined))).toHaveLength(2);
    expect(await told(adId, ownerId)).toEqual({ requests: 1, told: 1 });
  });
});
