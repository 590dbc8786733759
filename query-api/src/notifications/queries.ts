import type { z } from 'zod';
import {
  isUuid,
  type notificationListQuery,
  type NotificationDto,
  type NotificationPage,
} from '@pawhaven/contracts';
import type { Pool } from 'pg';

/**
 * The notification reads, from the notifications read model through `user_notifications(userId)` (a user's own
 * rows and the veterinarians' posts they received, see `vetPostBroadcastsMigration`). A page is one statement: its
 * rows, the user's total and their unread count, so the bell and the list agree with each other.
 */

type Row = {
  id: string;
  type: NotificationDto['type'];
  title: string;
  message: string;
  data: NotificationDto['data'];
  read: boolean;
  created_at: Date;
};

const COLUMNS = 'id, type, title, message, data, read, created_at';

const toDto = (r: Row): NotificationDto => ({
  _id: r.id,
  id: r.id,
  type: r.type,
  title: r.title,
  message: r.message,
  data: r.data,
  read: r.read,
  createdAt: r.created_at.toISOString(),
});

// Three calls, not one CTE: each is planned (inlined) on its own, so the counts never compute an id.
const PAGE_SQL = `
  WITH page AS (
    SELECT ${COLUMNS} FROM user_notifications($1)
    ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3
  )
  SELECT (SELECT count(*) FROM user_notifications($1))::int AS total,
         (SELECT count(*) FROM user_notifications($1) WHERE NOT read)::int AS unread,
         coalesce((SELECT json_agg(page ORDER BY created_at DESC, id DESC) FROM page), '[]'::json) AS rows`;

const UNREAD_SQL = `SELECT count(*)::int AS count FROM user_notifications($1) WHERE NOT read`;

/** Offsets beyond this can hold no notification (and would overflow a bigint): such pages are simply empty. */
const MAX_OFFSET = 2 ** 52;

/** One page of a user's notifications, newest first, with their total and unread count. */
export async function listNotifications(
  pool: Pool,
  userId: string,
  query: z.infer<typeof notificationListQuery>,
): Promise<NotificationPage> {
  const offset = Math.min((query.page - 1) * query.limit, MAX_OFFSET);
  const { rows } = await pool.query<{
    total: number;
    unread: number;
    rows: (Omit<Row, 'created_at'> & { created_at: string })[];
  }>({ name: 'notifications-page', text: PAGE_SQL, values: [userId, query.limit, offset] });
  const { total, unread, rows: page } = rows[0]!;
  return {
    success: true,
    notifications: page.map((r) => toDto({ ...r, created_at: new Date(r.created_at) })),
    pagination: { page: query.page, limit: query.limit, total, hasMore: offset + page.length < total },
    unreadCount: unread,
  };
}

/** How many of a user's notifications are unread (the bell's badge). */
export async function unreadCount(pool: Pool, userId: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>({
    name: 'notifications-unread',
    text: UNREAD_SQL,
    values: [userId],
  });
  return rows[0]!.count;
}

/** One of a user's notifications (the socket gateway pushes it), or null. */
export async function notificationById(
  pool: Pool,
  userId: string,
  id: string,
): Promise<NotificationDto | null> {
  if (!isUuid(id)) return null;
  const { rows } = await pool.query<Row>({
    name: 'notifications-one',
    text: `SELECT ${COLUMNS} FROM user_notifications($1) WHERE id = $2`,
    values: [userId, id],
  });
  return rows[0] ? toDto(rows[0]) : null;
}
