import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsStream, postStream, userStream } from '@pawhaven/contracts';
import type { ChangeNotice, RecordedEvent } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { notificationId } from './notifications.rows';
import { notificationsProjection } from './notifications.projection';

/**
 * The live path resolves a veterinarian's post among a recipient's notifications by itself, as a rebuild does
 * (`notificationId` over the broadcasts of their terms): it needs no read-side SQL function, so the reads and
 * deletes recorded against broadcasts still apply where `user_notifications` is not there (the function is dropped
 * here), and the rows are the ones a rebuild computes.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
  await db.knex.raw('DROP FUNCTION user_notifications(text)');
});
afterAll(async () => {
  await db.drop();
});

let position = 0n;
const event = (streamId: string, type: string, data: Record<string, unknown>): RecordedEvent => ({
  type,
  data,
  streamId,
  streamRevision: 0n,
  eventId: randomUUID(),
  transactionId: 1n,
  position: (position += 10n),
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Number(position))),
  metadata: {},
});

const [alice, bob, carol, post1, post2] = Array.from({ length: 5 }, () => randomUUID());
const vet = (userId: string, username: string) =>
  event(userStream(userId), 'UserRegistered', { userId, username, isVeterinarian: true, via: 'google' });
const published = (postId: string, authorId: string) =>
  event(postStream(postId), 'PostPublished', {
    postId,
    authorId,
    authorIsVeterinarian: true,
    caption: 'Vaccines',
    imageUrl: '/api/images/x',
    publishedAt: '2026-01-01T10:00:00.000Z',
  });
// In log order: the veterinarians first, then Alice's posts.
const veterinarians = [vet(alice!, 'alice'), vet(bob!, 'bob'), vet(carol!, 'carol')];
const first = published(post1!, alice!);
const second = published(post2!, alice!);
const list = (userId: string, type: string, postEvent: RecordedEvent) =>
  event(notificationsStream(userId), type, {
    userId,
    notificationId: notificationId(postEvent.eventId, userId),
    at: '2026-01-01T11:00:00.000Z',
  });
const batches = [
  [...veterinarians, first, second],
  // Bob reads the first and deletes the second; Carol deletes the first; Alice's own post is none of hers.
  [list(bob!, 'NotificationRead', first), list(bob!, 'NotificationDeleted', second)],
  [list(carol!, 'NotificationDeleted', first), list(alice!, 'NotificationRead', first)],
  // Read again, or read once deleted: nothing changes.
  [list(bob!, 'NotificationRead', first), list(carol!, 'NotificationRead', first)],
];

describe('a broadcast read or deleted by one of its recipients', () => {
  it('is resolved live without the read side, as a rebuild resolves it', async () => {
    const pushed: ChangeNotice[] = [];
    for (const batch of batches)
      await db.knex.transaction((tx) =>
        notificationsProjection.applyBatch!(tx, batch, { push: (n) => void pushed.push(n) }),
      );
    const { rows: receipts } = await db.knex.raw(
      `SELECT broadcast_id, user_id, deleted FROM notification_receipts ORDER BY user_id, deleted`,
    );
    expect(receipts).toHaveLength(3);
    expect(receipts).toEqual(
      expect.arrayContaining([
        { broadcast_id: first.eventId, user_id: bob, deleted: false },
        { broadcast_id: second.eventId, user_id: bob, deleted: true },
        { broadcast_id: first.eventId, user_id: carol, deleted: true },
      ]),
    );
    expect(pushed.filter((n) => n.kind === 'notifications-changed')).toEqual([
      { kind: 'notifications-changed', userId: bob },
      { kind: 'notifications-changed', userId: bob },
      { kind: 'notifications-changed', userId: carol },
    ]);

    const fold = notificationsProjection.fold!();
    for (const batch of batches) for (const e of batch) fold.apply(e);
    const { rows: folded } = await db.knex.raw(
      `SELECT broadcast_id, user_id, deleted FROM jsonb_populate_recordset(NULL::notification_receipts, ?::jsonb)
        ORDER BY user_id, deleted`,
      [JSON.stringify([...fold.rows().notification_receipts!])],
    );
    expect(folded).toEqual(receipts);
  });
});
