import {
  ADOPTION_EVENT_TYPES,
  COMMUNITY_EVENT_TYPES,
  USER_EVENT_TYPES,
  type AdoptionEventType,
  type CommunityEventType,
  type UserEventType,
} from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';

/** A user's last activity moves only when it moves forward by at least this much (one write a minute at most). */
export const ACTIVITY_THROTTLE_MS = 60_000;

type ActivityRow = { user_id: string; last_active: string };

/**
 * Events anyone who knows an address can cause, without being that account's owner (asking for a code, typing a
 * wrong one): they say nothing about the owner's activity. Everything else a user's own command records is theirs.
 */
const NOT_THE_OWNERS_DOING = new Set<UserEventType>([
  'RegistrationCodeIssued',
  'RegistrationCodeRejected',
  'PasswordResetCodeIssued',
  'PasswordResetCodeRejected',
]);

const FOLLOWED = [
  ...USER_EVENT_TYPES.filter((t) => !NOT_THE_OWNERS_DOING.has(t)),
  ...ADOPTION_EVENT_TYPES,
  ...COMMUNITY_EVENT_TYPES,
];

// A new event type must be added to its context's list (and so followed here): this fails to compile otherwise.
type Unlisted =
  | Exclude<UserEventType, (typeof USER_EVENT_TYPES)[number]>
  | Exclude<AdoptionEventType, (typeof ADOPTION_EVENT_TYPES)[number]>
  | Exclude<CommunityEventType, (typeof COMMUNITY_EVENT_TYPES)[number]>;
const everyTypeListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyTypeListed;

/**
 * `user_activity`: when each user last did something, for the public profile's "Active …". The actor of every
 * user, adoption and community event (metadata.actorId; sign-ins included) at the time the event was recorded,
 * written only when that moves the user's time forward by ACTIVITY_THROTTLE_MS or more. The time is the log's, not
 * the clock's, so a rebuild reproduces the same rows.
 */
export const userActivityProjection = defineReadModel<{ user_activity: ActivityRow }>({
  name: 'user-activity',
  tables: { user_activity: { key: ['user_id'] } },
  handles: FOLLOWED,
  // Counts and times: no personal field.
  readsPersonalData: false,
  evolve({ user_activity: activity }, recorded) {
    // A deleted user's row goes; the administrator who deleted them was active.
    if (recorded.type === 'UserDeleted') activity.delete((recorded.data as { userId: string }).userId);
    const actorId = recorded.metadata.actorId;
    if (typeof actorId !== 'string' || actorId === '' || actorId === 'system') return;
    const at = recorded.createdAt;
    const was = activity.get(actorId);
    if (!was) activity.put({ user_id: actorId, last_active: at.toISOString() });
    else if (at.getTime() >= Date.parse(was.last_active) + ACTIVITY_THROTTLE_MS) {
      was.last_active = at.toISOString();
      activity.put(was);
    }
  },
});
