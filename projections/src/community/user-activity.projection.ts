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

const digit = (s: string, i: number) => {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};
const digits = (s: string, i: number, n: number) => {
  let v = 0;
  for (let k = 0; k < n; k++) v = v * 10 + digit(s, i + k);
  return v;
};

/**
 * `Date.parse` of a time as `toISOString` writes it (`last_active` always is, read from memory or from the table),
 * read off its digits: a rebuild asks this for nearly every event, and `Date.parse` was most of this model's time.
 * Anything else (or a value out of range) goes to `Date.parse`.
 */
function timeOf(iso: string): number {
  if (
    iso.length !== 24 ||
    iso.charCodeAt(4) !== 45 /* - */ ||
    iso.charCodeAt(7) !== 45 ||
    iso.charCodeAt(10) !== 84 /* T */ ||
    iso.charCodeAt(13) !== 58 /* : */ ||
    iso.charCodeAt(16) !== 58 ||
    iso.charCodeAt(19) !== 46 /* . */ ||
    iso.charCodeAt(23) !== 90 /* Z */
  )
    return Date.parse(iso);
  const year = digits(iso, 0, 4);
  const month = digits(iso, 5, 2);
  const day = digits(iso, 8, 2);
  const hour = digits(iso, 11, 2);
  const minute = digits(iso, 14, 2);
  const second = digits(iso, 17, 2);
  const ms = digits(iso, 20, 3);
  // NaN (a character not a digit) fails every comparison; years below 100 Date.UTC would read as 19xx.
  if (
    !(year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 31) ||
    !(hour <= 23 && minute <= 59 && second <= 59 && ms >= 0)
  )
    return Date.parse(iso);
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

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
    else if (at.getTime() >= timeOf(was.last_active) + ACTIVITY_THROTTLE_MS) {
      was.last_active = at.toISOString();
      activity.put(was);
    }
  },
});
