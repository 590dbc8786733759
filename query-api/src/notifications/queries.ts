import type { NotificationDto } from '@pawhaven/contracts';
import type { Pool } from 'pg';

/** One notification as its owner sees it (the socket gateway pushes it), or null (TODO). */
export async function notificationById(_pool: Pool, _id: string): Promise<NotificationDto | null> {
  return null;
}
