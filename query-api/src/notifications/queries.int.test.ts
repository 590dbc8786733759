import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSISTENT_AFTER_HEADER,
  NOTIFICATION_MESSAGES as M,
  type NotificationDto,
  type NotificationPage,
} from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import {
  startTestApp,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '../../../gateway/src/support/test-app';
import { communityLog, type CommunityLog } from '../../../projections/src/community/community-log.testing';
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

describe('notificationById (the socket gateway’s push)', () => {
  it('answers the same DTO the list sends, and null for an unknown or malformed id', async () => {
    const page = await get<NotificationPage>('/api/notifications?limit=50', alice.token);
    for (const n of page.body.notifications)
      expect(await notificationById(t.db.pool, n.id)).toEqual(n satisfies NotificationDto);
    expect(await notificationById(t.db.pool, '0b6f6d0c-6a43-4e3b-9d2e-6a3b9f2c1d00')).toBeNull();
    expect(await notificationById(t.db.pool, 'nope')).toBeNull();
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
      expect(
        await plan(
          `SELECT * FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
        ),
      ).toContain('notifications_user');
      expect(await plan(`SELECT count(*) FROM notifications WHERE user_id = $1 AND NOT read`)).toContain(
        'notifications_unread',
      );
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});
