import { userIdOfStream, type UserEvent } from '@pawhaven/contracts';
import type { Notices, RecordedEvent } from '@pawhaven/platform';
import { takeAway } from './deliver';
import { isVet, text, type NotificationStore, type UserRow } from './notifications.rows';
import { dropBroadcasts } from './vet-broadcasts';

type Data<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>['data'];

/**
 * Who is who: each user's name, whether they are a verified veterinarian (and since when: their terms), and the
 * tombstone a deleted account leaves so that nothing later notifies them.
 */

/**
 * A registration: a lapsed sign-up's stream can be registered again (by Google): the new registration wins. A
 * deleted account stays one and keeps no name: a registration recorded after the deletion may be readable or not,
 * depending on whether the person's key was destroyed yet (a replay must not differ).
 */
export function registered(
  rows: NotificationStore,
  recorded: RecordedEvent,
  d: Data<'UserRegistered'>,
): void {
  const id = userIdOfStream(recorded.streamId);
  const deleted = rows.notification_users.get(id)?.deleted ?? false;
  rows.notification_users.put({
    id,
    username: deleted ? '' : String(d.username),
    is_veterinarian: d.isVeterinarian === true,
    verified: d.via !== 'password',
    deleted,
  });
  reconsiderVet(rows, id, recorded);
}

/** A renewed registration (name, veterinarian), or a verified address: changes a user known, never creates one. */
export function changedUser(
  rows: NotificationStore,
  recorded: RecordedEvent,
  change: (user: UserRow) => UserRow,
): void {
  const id = userIdOfStream(recorded.streamId);
  const user = rows.notification_users.get(id);
  if (user) rows.notification_users.put(change(user));
  reconsiderVet(rows, id, recorded);
}

export const renewed =
  (d: Data<'RegistrationRenewed'>) =>
  (user: UserRow): UserRow => ({
    ...user,
    username: user.deleted ? '' : String(d.username),
    is_veterinarian: d.isVeterinarian === true,
  });

export const verified = (user: UserRow): UserRow => ({ ...user, verified: true });

/** After a user's row changed at `recorded`: opens their term as a verified veterinarian, or closes it. */
function reconsiderVet(rows: NotificationStore, userId: string, recorded: RecordedEvent): void {
  const user = rows.notification_users.get(userId);
  const open = rows.notification_vet_terms.find('user_id', userId).filter((t) => t.until === null);
  const vet = user !== undefined && isVet(user);
  const at = Number(recorded.position);
  if (vet && open.length === 0) rows.notification_vet_terms.put({ user_id: userId, since: at, until: null });
  else if (!vet) for (const term of open) rows.notification_vet_terms.put({ ...term, until: at });
}

/**
 * A deleted account: their own notifications and every one they caused go; the lookups forget their posts, ads
 * (with the requests on them) and requests. The user's row stays as a tombstone (name blanked) so nothing later
 * notifies them. Their posts' broadcasts go; they stop receiving any, and what they did with them is forgotten.
 */
export function forgetUser(rows: NotificationStore, notices: Notices, d: Data<'UserDeleted'>): void {
  const userId = text(d.userId);
  if (!userId) return;
  takeAway(rows, notices, [
    ...rows.notifications.find('actor_id', userId),
    ...rows.notifications.find('user_id', userId),
  ]);
  for (const post of rows.notification_posts.find('author_id', userId))
    rows.notification_posts.delete(post.id);
  const requests = rows.notification_adoption_requests;
  for (const r of requests.find('requester_id', userId)) requests.delete(r.id);
  for (const ad of rows.notification_ads.find('owner_id', userId)) {
    for (const r of requests.find('ad_id', ad.id)) requests.delete(r.id);
    rows.notification_ads.delete(ad.id);
  }
  rows.notification_users.put({
    id: userId,
    username: '',
    is_veterinarian: false,
    verified: false,
    deleted: true,
  });
  dropBroadcasts(rows, notices, rows.notification_broadcasts.find('actor_id', userId));
  for (const t of rows.notification_vet_terms.find('user_id', userId))
    rows.notification_vet_terms.delete(t.user_id, t.since);
  for (const r of rows.notification_receipts.find('user_id', userId))
    rows.notification_receipts.delete(r.user_id, r.broadcast_id);
  rows.notification_marks.delete(userId);
}
