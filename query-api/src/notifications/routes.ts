import { Router } from 'express';
import { notificationListQuery, type UnreadCountResponse } from '@pawhaven/contracts';
import { currentUserId, requireUser } from '@pawhaven/platform';
import type { QueryDeps } from '../deps';
import { listNotifications, unreadCount } from './queries';

/** One's notifications, mounted at /api/notifications, from the notifications read model. */
export function notificationQueries({ db }: QueryDeps): Router {
  const router = Router();

  /** A page of the signed-in user's notifications, newest first, with pagination and the unread count. */
  router.get('/', requireUser, async (req, res) => {
    res.json(await listNotifications(db.pool, currentUserId(req), notificationListQuery.parse(req.query)));
  });

  /** The bell's badge. */
  router.get('/unread-count', requireUser, async (req, res) => {
    const body: UnreadCountResponse = {
      success: true,
      count: await unreadCount(db.pool, currentUserId(req)),
    };
    res.json(body);
  });

  return router;
}
