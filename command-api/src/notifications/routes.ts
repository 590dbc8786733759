import { Router } from 'express';
import {
  NOTIFICATION_MESSAGES as M,
  notificationsStream,
  type NotificationCommandResponse,
} from '@pawhaven/contracts';
import { currentUserId, handleCommand } from '@pawhaven/platform';
import type { CommandDeps } from '../deps';
import { signedIn, uuidParam } from '../http/route-helpers';
import { postgresReadModels } from '../ports/read-models';
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

  const readModels = postgresReadModels(db);
  const seen = (userId: string, notificationId: string): Promise<SeenNotification> =>
    readModels.notificationSeen(userId, notificationId);
  const counts = (userId: string) => readModels.notificationCounts(userId);

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
