import { Router } from 'express';
import type { CommandDeps } from '../deps';

/** Reading and deleting one's notifications, mounted at /api/notifications (TODO). */
export function notificationRoutes(_deps: CommandDeps): Router {
  return Router();
}
