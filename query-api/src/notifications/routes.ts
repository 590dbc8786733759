import { Router } from 'express';
import type { QueryDeps } from '../deps';

/** One's notifications, mounted at /api/notifications (TODO). */
export function notificationQueries(_deps: QueryDeps): Router {
  return Router();
}
