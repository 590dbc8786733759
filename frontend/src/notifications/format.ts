import { NOTIFICATION_LIMITS, NOTIFICATION_MESSAGES, type NotificationDto } from '@pawhaven/contracts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When a notification came: under 60 s 'Just now', then 'Nm ago', 'Nh ago', 'Nd ago' up to 30 days, then the date
 * (en-US, 'Jan 5, 2026'). A time slightly in the future (clock skew) counts as now.
 */
export function relativeTime(value: string | null | undefined, now: number = Date.now()): string {
  if (!value) return '';
  const at = new Date(value).getTime();
  if (Number.isNaN(at)) return '';
  const diff = Math.max(0, now - at);
  if (diff < MINUTE) return NOTIFICATION_MESSAGES.justNow;
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h ago`;
  const days = Math.floor(diff / DAY);
  if (days <= NOTIFICATION_LIMITS.relativeDays) return `${days}d ago`;
  return new Date(at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The bell's badge: nothing at 0, '99+' above 99. */
export function badgeText(count: number | null | undefined): string | null {
  if (!count || count <= 0) return null;
  return count > NOTIFICATION_LIMITS.badgeMax ? `${NOTIFICATION_LIMITS.badgeMax}+` : String(count);
}

/**
 * Where a notification leads: /posts/{postId} for post types; for adoption requests the ad owner's requests on
 * /my-adoptions, for an answered request the requester's own requests on /adoptionhistory. Null when there is nowhere
 * to go (a post type without its post id).
 */
export function destinationOf(n: Pick<NotificationDto, 'type' | 'data'>): string | null {
  const data = n.data ?? {};
  switch (n.type) {
    case 'post_like':
    case 'post_comment':
    case 'new_post_vet_notification':
      return data.postId ? `/posts/${encodeURIComponent(data.postId)}` : null;
    case 'adoption_request':
      return '/my-adoptions';
    case 'adoption_request_accepted':
    case 'adoption_request_rejected':
      return '/adoptionhistory';
    default:
      return data.postId ? `/posts/${encodeURIComponent(data.postId)}` : null;
  }
}

/** Responses carry both `_id` and `id`. */
export const notificationId = (n: Pick<NotificationDto, '_id' | 'id'>) => n._id || n.id;
