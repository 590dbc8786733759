import { Router } from 'express';
import {
  NOTIFICATION_MESSAGES as M,
  notificationsStream,
  type NotificationCommandResponse,
} from '@pawhaven/contracts';
import { currentUserId, handleCommand } from '@pawhaven/platform';
import type { CommandDeps } from '../deps';
import { signedIn, uuidParam } from '../http/route-helpers';
import { notificationsDecider, type NotificationCommand, type SeenNotification } from './notifications';

const positionOf = (position: bigint | null) => (position === null ? undefined : String(position));

/**
 * Reading and deleting one's notifications, mounted at /api/notifications. Each is an event on the user's
 * `notifications-{userId}` stream, which the notifications projection applies to that user's rows only. A
 * notification that is not the signed-in user's (someone else's, unknown, deleted) is 404 and records nothing.
 */
export function notificationRoutes(deps: CommandDeps): Router {
  const { store, db } = deps;
  const now = deps.now ?? (() => new Date());
  const router = Router();
  const auth = signedIn(M.noToken);

  const run = async (userId: string, command: NotificationCommand, message: string) => {
    const result = await handleCommand(store, notificationsStream(userId), notificationsDecider, command, {
      actorId: userId,
    });
    const body: NotificationCommandResponse = {
      success: true,
      message,
      position: positionOf(result.position),
    };
    return body;
  };

  /** The notification as the read model shows it to this user (the only place its id can have come from). */
  const seen = async (userId: string, notificationId: string): Promise<SeenNotification> => {
    const { rows } = await db.pool.query<{ read: boolean }>(
      'SELECT read FROM user_notifications($1) WHERE id = $2',
      [userId, notificationId],
    );
    return rows[0] ?? null;
  };

  const counts = async (userId: string) => {
    const { rows } = await db.pool.query<{ total: number; unread: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT read))::int AS unread
         FROM user_notifications($1)`,
      [userId],
    );
    return rows[0]!;
  };

  // The fixed paths first: 'mark-all-read' and 'delete-all' are not ids.
  router.put('/mark-all-read', auth, async (req, res) => {
    const userId = currentUserId(req);
    const { unread } = await counts(userId);
    res.json(
      await run(userId, { type: 'MarkAllRead', data: { userId, unread, now: now() } }, M.allMarkedRead),
    );
  });

  router.delete('/delete-all', auth, async (req, res) => {
    const userId = currentUserId(req);
    const { total } = await counts(userId);
    res.json(
      await run(
        userId,
        { type: 'DeleteAllNotifications', data: { userId, total, now: now() } },
        M.allDeleted,
      ),
    );
  });

  router.put('/:id/read', auth, async (req, res) => {
    const userId = currentUserId(req);
    const notificationId = uuidParam(req.params.id, M.notFound);
    res.json(
      await run(
        userId,
        {
          type: 'MarkRead',
          data: { userId, notificationId, seen: await seen(userId, notificationId), now: now() },
        },
        M.markedRead,
      ),
    );
  });

  router.delete('/:id', auth, async (req, res) => {
    const userId = currentUserId(req);
    const notificationId = uuidParam(req.params.id, M.notFound);
    res.json(
      await run(
        userId,
        {
          type: 'DeleteNotification',
          data: { userId, notificationId, seen: await seen(userId, notificationId), now: now() },
        },
        M.deleted,
      ),
    );
  });

  return router;
}
