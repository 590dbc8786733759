import { notificationsStream } from '@pawhaven/contracts';
import { notificationId } from '@pawhaven/projections';
import { ACTIVE, DELETED, pushCapped, type User, type NotificationRef } from './state';
import { type World } from './world';

/** Notifications: who is notified of what, and the recipients reading and deleting them. */

export function notify(w: World, recipient: User, ref: Omit<NotificationRef, 'read' | 'deleted'>): void {
  if (recipient.status === DELETED || recipient.isAdmin) return;
  const n = (recipient.notifications ??= { rev: -1, refs: [], readAllIdx: -1, deleteAllIdx: -1 });
  // Every ref of one shape (a spread of the optional fields would make them many).
  const full: NotificationRef = {
    eventId: ref.eventId,
    idx: ref.idx,
    kind: ref.kind,
    actor: ref.actor,
    post: ref.post,
    comment: ref.comment,
    like: ref.like,
    gen: ref.gen,
    request: ref.request,
    read: false,
    deleted: false,
  };
  pushCapped(n.refs, full, 6);
  w.recentRecipients.push(recipient);
}

/** Whether the notifications projection still shows it (as far as this simulation knows). */
function shows(w: World, u: User, ref: NotificationRef): boolean {
  const n = u.notifications!;
  if (ref.deleted || ref.idx < n.deleteAllIdx || ref.actor.status === DELETED) return false;
  switch (ref.kind) {
    case 'like':
      return (
        !ref.post!.deleted &&
        ref.post!.author.status !== DELETED &&
        ref.like!.liked &&
        ref.like!.gen === ref.gen
      );
    case 'comment':
      return !ref.post!.deleted && ref.post!.author.status !== DELETED && !ref.comment!.deleted;
    case 'request':
    case 'decision':
      return (
        !ref.request!.deleted &&
        ref.request!.requester.status !== DELETED &&
        ref.request!.ad.owner.status !== DELETED
      );
  }
}

function isUnread(w: World, u: User, ref: NotificationRef): boolean {
  return !ref.read && ref.idx >= u.notifications!.readAllIdx && shows(w, u, ref);
}

function notificationsAppend(w: World, u: User, type: string, data: object, deps: number[]): number {
  const n = u.notifications!;
  const idx = w.emit(notificationsStream(u.id), [w.ev(type, data, { actorId: u.id })], n.rev, deps, u);
  n.rev++;
  return idx;
}

function recipient(w: World): User | undefined {
  const u = w.recentRecipients.pick(w.rng);
  return u && u.status === ACTIVE && u.notifications ? u : undefined;
}

export function readAllNotifications(w: World): void {
  const u = recipient(w);
  const unread = u?.notifications!.refs.filter((r) => isUnread(w, u, r));
  if (!u || !unread?.length) return;
  u.notifications!.readAllIdx = notificationsAppend(
    w,
    u,
    'AllNotificationsRead',
    { userId: u.id, at: w.iso() },
    [u.readyIdx, ...unread.map((r) => r.idx)],
  );
}

export function deleteAllNotifications(w: World): void {
  const u = recipient(w);
  const shown = u?.notifications!.refs.filter((r) => shows(w, u, r));
  if (!u || !shown?.length) return;
  u.notifications!.deleteAllIdx = notificationsAppend(
    w,
    u,
    'AllNotificationsDeleted',
    { userId: u.id, at: w.iso() },
    [u.readyIdx, ...shown.map((r) => r.idx)],
  );
  u.notifications!.refs = [];
}

/** NotificationRead / NotificationDeleted name the notification by the id the projection derives. */
export function readNotification(w: World): void {
  const u = recipient(w);
  const ref = u?.notifications!.refs.filter((r) => isUnread(w, u, r)).pop();
  if (!u || !ref) return;
  ref.read = true;
  notificationsAppend(
    w,
    u,
    'NotificationRead',
    { userId: u.id, notificationId: notificationId(ref.eventId, u.id), at: w.iso() },
    [u.readyIdx, ref.idx],
  );
}

export function deleteNotification(w: World): void {
  const u = recipient(w);
  const shown = u?.notifications!.refs.filter((r) => shows(w, u, r));
  if (!u || !shown?.length) return;
  const ref = w.rng.pick(shown);
  ref.deleted = true;
  notificationsAppend(
    w,
    u,
    'NotificationDeleted',
    { userId: u.id, notificationId: notificationId(ref.eventId, u.id), at: w.iso() },
    [u.readyIdx, ref.idx],
  );
}
