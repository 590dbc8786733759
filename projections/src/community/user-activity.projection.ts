import {
  ADOPTION_EVENT_TYPES,
  COMMUNITY_EVENT_TYPES,
  USER_EVENT_TYPES,
  type AdoptionEventType,
  type CommunityEventType,
  type UserEventType,
} from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';
import { prepared } from './prepared';

/** A user's last activity moves only when it moves forward by at least this much (one write a minute at most). */
export const ACTIVITY_THROTTLE = '1 minute';
/** ACTIVITY_THROTTLE in milliseconds, for the fold (event times are whole milliseconds, as `apply` binds them). */
const ACTIVITY_THROTTLE_MS = 60_000;

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
 * written only when that moves the user's time forward by ACTIVITY_THROTTLE or more. The time is the log's, not
 * the clock's, so a rebuild reproduces the same rows.
 */
export const userActivityProjection = defineProjection({
  name: 'user-activity',
  tables: ['user_activity'],
  handles: FOLLOWED,
  // Counts and times: no personal field.
  readsPersonalData: false,
  async apply(tx, recorded) {
    // A deleted user's row goes; the administrator who deleted them was active.
    if (recorded.type === 'UserDeleted')
      await tx('user_activity')
        .where({ user_id: (recorded.data as { userId: string }).userId })
        .delete();
    const actorId = recorded.metadata.actorId;
    if (typeof actorId !== 'string' || actorId === '' || actorId === 'system') return;
    await prepared(
      tx,
      'user-activity/touch',
      `INSERT INTO user_activity AS a (user_id, last_active) VALUES (?, ?)
       ON CONFLICT (user_id) DO UPDATE SET last_active = EXCLUDED.last_active
       WHERE EXCLUDED.last_active >= a.last_active + interval '${ACTIVITY_THROTTLE}'`,
      [actorId, recorded.createdAt],
    );
  },
  fold: () => {
    /** User id → last activity, as milliseconds since the epoch. */
    const lastActive = new Map<string, number>();
    return {
      apply(recorded) {
        if (recorded.type === 'UserDeleted') lastActive.delete((recorded.data as { userId: string }).userId);
        const actorId = recorded.metadata.actorId;
        if (typeof actorId !== 'string' || actorId === '' || actorId === 'system') return;
        const at = recorded.createdAt.getTime();
        const was = lastActive.get(actorId);
        if (was === undefined || at >= was + ACTIVITY_THROTTLE_MS) lastActive.set(actorId, at);
      },
      rows: () => ({
        user_activity: {
          *[Symbol.iterator]() {
            for (const [userId, at] of lastActive)
              yield { user_id: userId, last_active: new Date(at).toISOString() };
          },
        },
      }),
    };
  },
});
