import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSISTENT_AFTER_HEADER,
  NOTIFICATION_MESSAGES as M,
  type NotificationDto,
  type NotificationPage,
} from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import { startTestApp, type RegisteredUser, type TestApi, type TestApp } from '@pawhaven/testing';
import { communityLog, type CommunityLog } from '@pawhaven/projections/testing';
import { notificationById } from './queries';

/**
 * The notification reads over real HTTP, and the one the socket gateway uses. Likes are appended straight to the
 * log (the commands are tested in command-api), so times, ties included, are the test's to choose.
 */

let t: TestApp;
let api: TestApi;
let store: PostgresEventStore;
let log: CommunityLog;
let alice: RegisteredUser;
let bob: RegisteredUser;
let last = 0n;

const track = async <T extends bigint | { position: bigint }>(r: Promise<T>): Promise<T> => {
  const v = await r;
  const position = typeof v === 'bigint' ? v : v.position;
  if (position > last) last = position;
  return v;
};

const get = async <B>(path: string, token?: string) => {
  const res = await api.get<B>(path, token, { [CONSISTENT_AFTER_HEADER]: last.toString() });
  expect(res.headers.get('x-consistency')).toBe('consistent');
  return res;
};

const DTO_KEYS = ['_id', 'createdAt', 'data', 'id', 'message', 'read', 'title', 'type'];

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  store = new PostgresEventStore(t.db.pool);
  log = communityLog(store, { start: new Date('2025-01-01T00:00:00.000Z') });
  alice = await api.registerVerifiedUser();
  bob = await api.registerVerifiedUser();
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

describe('GET /api/notifications', () => {
  it('answers an empty first page before anything happened', async () => {
    const res = await get<NotificationPage>('/api/notifications', alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      notifications: [],
      pagination: { page: 1, limit: 20, total: 0, hasMore: false },
      unreadCount: 0,
    });
  });

  it('sends each notification with exactly the DTO fields, newest first; equal times by id', async () => {
    const { postId } = await track(log.publish(alice.user._id));
    // Three likers at the very same millisecond, before Bob.
    const at = '2024-12-31T12:00:00.000Z';
    const likers = ['liker-1', 'liker-2', 'liker-3'];
    for (const u of likers)
      await track(
        store
          .append(
            `post-like-${postId}-${u}`,
            [{ type: 'PostLiked', data: { postId, postAuthorId: alice.user._id, userId: u, likedAt: at } }],
            'no_stream',
          )
          .then((r) => r.position),
      );
    await track(log.like(postId, bob.user._id));

    const res = await get<NotificationPage>('/api/notifications?limit=3', alice.token);
    expect(res.body.pagination).toEqual({ page: 1, limit: 3, total: 4, hasMore: true });
    expect(res.body.unreadCount).toBe(4);
    const [newest, ...tied] = res.body.notifications;
    expect(Object.keys(newest!).sort()).toEqual(DTO_KEYS);
    expect(newest).toMatchObject({
      type: 'post_like',
      title: 'New like',
      message: `${bob.username} liked your post`,
      data: { postId, actorId: bob.user._id },
      read: false,
    });
    // An unknown liker still reads as someone.
    expect(tied.map((n) => n.message)).toEqual(['Someone liked your post', 'Someone liked your post']);
    expect(tied.map((n) => n.createdAt)).toEqual([at, at]);
    const second = await get<NotificationPage>('/api/notifications?page=2&limit=3', alice.token);
    expect(second.body.pagination).toEqual({ page: 2, limit: 3, total: 4, hasMore: false });
    const all = [...res.body.notifications, ...second.body.notifications];
    const ids = all.slice(1).map((n) => n.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(new Set(all.map((n) => n.id)).size).toBe(4);
  });

  it('shows only one’s own notifications', async () => {
    const res = await get<NotificationPage>('/api/notifications', bob.token);
    expect(res.body).toMatchObject({ notifications: [], unreadCount: 0, pagination: { total: 0 } });
  });

  it('needs a token', async () => {
    const res = await api.get('/api/notifications');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(M.noToken);
  });
});

describe('GET /api/notifications/unread-count', () => {
  it('counts the unread ones', async () => {
    const res = await get<{ success: boolean; count: number }>(
      '/api/notifications/unread-count',
      alice.token,
    );
    expect(res.body).toEqual({ success: true, count: 4 });
    expect((await get('/api/notifications/unread-count', bob.token)).body).toEqual({
      success: true,
      count: 0,
    });
    expect((await api.get('/api/notifications/unread-count')).status).toBe(401);
  });
});

describe('a veterinarian’s post', () => {
  it('reaches every other verified veterinarian as their own notification, read and deleted one by one', async () => {
    const [vetA, vetB, vetC] = [
      await api.registerVerifiedUser({ isVeterinarian: true }),
      await api.registerVerifiedUser({ isVeterinarian: true }),
      await api.registerVerifiedUser({ isVeterinarian: true }),
    ];
    const at = '2025-02-01T10:00:00.000Z';
    const { postId: vetPost } = await track(log.publish(vetA.user._id, { vet: true, at }));
    // A like of B's own post at the very same time: the two are ordered by id.
    const { postId: own } = await track(log.publish(vetB.user._id));
    await track(
      store
        .append(
          `post-like-${own}-liker-9`,
          [
            {
              type: 'PostLiked',
              data: { postId: own, postAuthorId: vetB.user._id, userId: 'liker-9', likedAt: at },
            },
          ],
          'no_stream',
        )
        .then((r) => r.position),
    );
    const listOf = async (user: RegisteredUser) =>
      (await get<NotificationPage>('/api/notifications', user.token)).body;

    const b = await listOf(vetB);
    expect(b.pagination.total).toBe(2);
    expect(b.unreadCount).toBe(2);
    expect(b.notifications.map((n) => n.createdAt)).toEqual([at, at]);
    const ids = b.notifications.map((n) => n.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const told = b.notifications.find((n) => n.type === 'new_post_vet_notification')!;
    expect(told).toMatchObject({
      title: 'New post from a veterinarian',
      message: `Veterinarian ${vetA.username} shared a new post`,
      data: { postId: vetPost, actorId: vetA.user._id },
      read: false,
    });
    expect(await notificationById(t.db.pool, vetB.user._id, told.id)).toEqual(told);
    // Its author is not told; C is, under an id of their own.
    expect((await listOf(vetA)).pagination.total).toBe(0);
    const c = await listOf(vetC);
    expect(c.notifications.map((n) => [n.type, n.read])).toEqual([['new_post_vet_notification', false]]);
    expect(c.notifications[0]!.id).not.toBe(told.id);
    expect(await notificationById(t.db.pool, vetC.user._id, told.id)).toBeNull();

    const put = await api.put<{ position: string }>(`/api/notifications/${told.id}/read`, {}, vetB.token);
    expect(put.status, put.text).toBe(200);
    last = BigInt(put.body.position);
    expect((await listOf(vetB)).unreadCount).toBe(1);
    expect((await listOf(vetC)).unreadCount).toBe(1);
    const del = await api.del<{ position: string }>(`/api/notifications/${told.id}`, vetB.token);
    expect(del.status, del.text).toBe(200);
    last = BigInt(del.body.position);
    expect((await listOf(vetB)).notifications.map((n) => n.type)).toEqual(['post_like']);
    expect((await api.del(`/api/notifications/${told.id}`, vetB.token)).status).toBe(404);
    expect((await listOf(vetC)).pagination.total).toBe(1);
  });
});

describe('notificationById (the socket gateway’s push)', () => {
  it('answers the same DTO the list sends, and null for an unknown or malformed id', async () => {
    const page = await get<NotificationPage>('/api/notifications?limit=50', alice.token);
    expect(page.body.notifications.length).toBeGreaterThan(0);
    for (const n of page.body.notifications) {
      expect(await notificationById(t.db.pool, alice.user._id, n.id)).toEqual(n satisfies NotificationDto);
      // Only to its recipient.
      expect(await notificationById(t.db.pool, bob.user._id, n.id)).toBeNull();
    }
    expect(
      await notificationById(t.db.pool, alice.user._id, '0b6f6d0c-6a43-4e3b-9d2e-6a3b9f2c1d00'),
    ).toBeNull();
    expect(await notificationById(t.db.pool, alice.user._id, 'nope')).toBeNull();
  });
});

describe('the queries are index-backed', () => {
  it('a page, the total and the unread count read the notifications indexes, not the table', async () => {
    const client = await t.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const plan = async (sql: string) =>
        (await client.query(`EXPLAIN ${sql}`, [alice.user._id])).rows.map((r) => r['QUERY PLAN']).join('\n');
      const page = await plan(
        `SELECT * FROM user_notifications($1) ORDER BY created_at DESC, id DESC LIMIT 20`,
      );
      const unread = await plan(`SELECT count(*) FROM user_notifications($1) WHERE NOT read`);
      expect(page).toContain('notifications_user');
      expect(unread).toContain('notifications_unread');
      // The broadcasts a user received: by their terms, then by position.
      for (const p of [page, unread]) {
        expect(p).toContain('notification_broadcasts_position');
        expect(p).not.toContain('Seq Scan');
      }
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});
