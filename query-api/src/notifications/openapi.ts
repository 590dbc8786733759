import { notificationListQuery } from '@pawhaven/contracts';
import type { Operation } from '../system/openapi';

/** The notification calls, for the OpenAPI document. Every one needs a token. */
export const notificationOperations: Record<string, Operation> = {
  // ── Notifications (query side) ──
  'GET /api/notifications': {
    summary:
      "The signed-in user's notifications, newest first: notifications, pagination { page, limit, total, hasMore }, unreadCount",
    query: notificationListQuery,
    auth: 'required',
  },
  'GET /api/notifications/unread-count': {
    summary: 'How many of them are unread: { success, count }',
    auth: 'required',
  },

  // ── Notifications (command side) ──
  'PUT /api/notifications/mark-all-read': {
    summary: 'Mark every notification read; answers success, message and position',
    auth: 'required',
  },
  'PUT /api/notifications/:id/read': {
    summary: "Mark one of one's notifications read (404 if it is not one's own)",
    auth: 'required',
  },
  'DELETE /api/notifications/delete-all': {
    summary: 'Delete every notification',
    auth: 'required',
  },
  'DELETE /api/notifications/:id': {
    summary: "Delete one of one's notifications (404 if it is not one's own)",
    auth: 'required',
  },
};
