/** The notifications projection's fold: its read model computed in memory from the log, for rebuilds. */
import {
  adIdOfStream,
  ADOPTION_MESSAGES,
  NOTIFICATION_TEXTS as T,
  userIdOfNotificationsStream,
  userIdOfStream,
} from '@pawhaven/contracts';
import type { ProjectionFold, RecordedEvent } from '@pawhaven/platform';
import { addTo, removeFrom } from '../fold-index';
import {
  broadcastRow,
  contentOf,
  isVet,
  notificationId,
  text,
  timeOf,
  UUID,
  type AdRow,
  type BroadcastRow,
  type Handled,
  type MarkRow,
  type NewNotification,
  type NotificationRow,
  type PostRow,
  type ReceiptRow,
  type RequestRow,
  type UserRow,
  type VetTermRow,
} from './notifications.rows';

/**
 * In a fold, what one event tells its recipients, held once for all of them, with the event's position. Every deletion
 * but a user's own takes an announcement away whole (all its rows share the post, comment, request and actor deleted
 * by): the fold notes when each actor, post, comment and request was deleted, and whatever was announced about it
 * before then is gone. (Deletions are rare: indexing every announcement by what it is about, to find it when one
 * came, took a third of the fold's time.) Its rows' content is made when they are read.
 */
type Announcement = Omit<NewNotification, 'recipientId'> & { createdAt: string; position: bigint };
/** One recipient's notification in a fold: the row is its `id`, `user_id` and `read` with what `of` says. */
type Delivered = { id: string; user_id: string; read: boolean; deleted: boolean; of: Announcement };

/**
 * Files `row` under `key` of a fold's secondary index. A row deleted otherwise stays listed (cheaper than finding it
 * in every list): whoever reads a list skips the rows deleted since.
 */
function file<R>(index: Map<string, R[]>, key: string, row: R): void {
  const list = index.get(key);
  if (list) list.push(row);
  else index.set(key, [row]);
}

/** Deletes from `table` every row of `index` under `key` it still holds, and the list itself. */
function deleteListed<R extends { id: string }>(table: Map<string, R>, index: Map<string, R[]>, key: string) {
  const list = index.get(key);
  if (!list) return;
  for (const row of list) if (table.get(row.id) === row) table.delete(row.id);
  index.delete(key);
}

/** Keeps in `list` (in place) only what passes `keep`; answers how many are left. */
function keepOnly<R>(list: R[], keep: (item: R) => boolean): number {
  let kept = 0;
  for (const item of list) if (keep(item)) list[kept++] = item;
  list.length = kept;
  return kept;
}

/** Deleted notifications still listed in a fold, past which they are swept out (see `sweep`). */
const SWEEP_AFTER = 10_000;

/** A fresh fold of the notifications read model: the projection's `fold`. */
export function foldNotifications(): ProjectionFold {
  /** Each user's notifications (deleted ones too, until swept): what the rows are read from. */
  const toUser = new Map<string, Delivered[]>();
  /** When each actor (user), post, comment and request was last deleted: what was announced before is gone. */
  const actorGone = new Map<string, bigint>();
  const postGone = new Map<string, bigint>();
  const commentGone = new Map<string, bigint>();
  const requestGone = new Map<string, bigint>();
  /** Per post, per liker, their post_like notifications, for a repeated like and an unlike. */
  const likes = new Map<string, Map<string, Delivered[]>>();
  const users = new Map<string, UserRow>();
  /** Veterinarians' posts' broadcasts in log order (taken-away ones too: `liveBroadcasts` holds the rest). */
  const broadcasts: BroadcastRow[] = [];
  const liveBroadcasts = new Map<string, BroadcastRow>();
  const broadcastsOfPost = new Map<string, Set<BroadcastRow>>();
  const broadcastsBy = new Map<string, Set<BroadcastRow>>();
  const terms = new Map<string, VetTermRow[]>();
  /** Per user, per broadcast id. A taken-away broadcast's receipts are simply not written (`apply` deletes them). */
  const receipts = new Map<string, Map<string, ReceiptRow>>();
  const marks = new Map<string, MarkRow>();
  /**
   * Per user who acted on one notification: the ids of the broadcasts they received (`notificationId`), computed
   * up to `next` in `broadcasts`. A term only ever starts after every broadcast listed, so an entry stays right.
   */
  const received = new Map<string, { byId: Map<string, BroadcastRow>; next: number }>();
  const posts = new Map<string, PostRow>();
  const postsBy = new Map<string, PostRow[]>();
  const ads = new Map<string, AdRow>();
  const adsOf = new Map<string, AdRow[]>();
  const requests = new Map<string, RequestRow>();
  const requestsBy = new Map<string, RequestRow[]>();
  const requestsOn = new Map<string, RequestRow[]>();

  const goneSince = (gone: Map<string, bigint>, key: string | undefined, position: bigint) => {
    if (key === undefined || gone.size === 0) return false;
    const at = gone.get(key);
    return at !== undefined && at > position;
  };
  const isHeld = (a: Announcement) =>
    !goneSince(actorGone, a.actorId, a.position) &&
    !goneSince(postGone, a.postId, a.position) &&
    !goneSince(commentGone, a.commentId, a.position) &&
    !goneSince(requestGone, a.requestId, a.position);
  const isLive = (n: Delivered) => !n.deleted && isHeld(n.of);
  /** Notifications not deleted, and deleted ones still listed: swept once they outnumber the live ones. */
  let live = 0;
  let unswept = 0;
  const sweep = () => {
    if (unswept < SWEEP_AFTER || unswept < live) return;
    for (const index of [toUser, ...likes.values()])
      for (const [key, list] of index) if (keepOnly(list, isLive) === 0) index.delete(key);
    unswept = 0;
  };
  const deleteOne = (n: Delivered) => {
    if (!isLive(n)) return;
    n.deleted = true;
    live--;
    unswept++;
  };
  /** Deletes every notification listed under `key`, and the list. */
  const deleteDelivered = (index: Map<string, Delivered[]>, key: string) => {
    for (const n of index.get(key) ?? []) deleteOne(n);
    index.delete(key);
    sweep();
  };
  /** Takes away everything announced so far about `key` (an actor, post, comment or request). */
  const deleteAnnounced = (gone: Map<string, bigint>, key: string, recorded: RecordedEvent) => {
    gone.set(key, recorded.position);
  };

  const usernameOf = (userId: string) => users.get(userId)?.username ?? T.someone;
  /** As the projection's `reconsiderVet`. */
  const reconsiderVet = (user: UserRow, recorded: RecordedEvent) => {
    const list = terms.get(user.id);
    const open = list?.find((t) => t.until === null);
    if (isVet(user) && !open) {
      const term = { user_id: user.id, since: recorded.position, until: null };
      if (list) list.push(term);
      else terms.set(user.id, [term]);
    } else if (!isVet(user) && open) open.until = recorded.position;
  };
  const receives = (userId: string, b: BroadcastRow) =>
    b.actor_id !== userId &&
    (terms.get(userId)?.some((t) => b.position > t.since && (t.until === null || b.position < t.until)) ??
      false);
  /** The broadcast `id` names among `userId`'s notifications, with whether they read it; null if none. */
  const broadcastSeen = (userId: string, id: string): { b: BroadcastRow; read: boolean } | null => {
    let r = received.get(userId);
    if (!r) received.set(userId, (r = { byId: new Map(), next: 0 }));
    for (; r.next < broadcasts.length; r.next++) {
      const b = broadcasts[r.next]!;
      if (receives(userId, b)) r.byId.set(notificationId(b.id, userId), b);
    }
    const b = r.byId.get(id);
    if (!b || !liveBroadcasts.has(b.id)) return null;
    const mark = marks.get(userId);
    const receipt = receipts.get(userId)?.get(b.id);
    if (b.position <= (mark?.deleted_before ?? 0n) || receipt?.deleted === true) return null;
    return { b, read: b.position < (mark?.read_before ?? 0n) || receipt !== undefined };
  };
  const dropBroadcasts = (index: Map<string, Set<BroadcastRow>>, key: string) => {
    for (const b of index.get(key) ?? []) {
      liveBroadcasts.delete(b.id);
      removeFrom(broadcastsOfPost, b.post_id, b);
      removeFrom(broadcastsBy, b.actor_id, b);
    }
  };
  const markAll = (userId: string, mark: 'read_before' | 'deleted_before', recorded: RecordedEvent) => {
    let row = marks.get(userId);
    if (!row) marks.set(userId, (row = { user_id: userId, read_before: 0n, deleted_before: 0n }));
    row[mark] = recorded.position;
  };

  const announce = (
    recorded: RecordedEvent,
    about: Omit<NewNotification, 'recipientId'>,
    createdAt: string,
  ): Announcement => ({
    // Every field, in one order (not a spread: V8 would give each kind a hidden class of its own, and the rows are
    // read from announcements of every kind alike).
    type: about.type,
    title: about.title,
    message: about.message,
    actorId: about.actorId,
    postId: about.postId,
    commentId: about.commentId,
    adId: about.adId,
    requestId: about.requestId,
    createdAt,
    position: recorded.position,
  });
  /** The recipients `notify` already kept for the event it was last called for: one notification each (its id). */
  let telling: RecordedEvent | null = null;
  const told = new Set<string>();
  /**
   * As the projection's `notify`: nobody hears of their own action nor after their account was deleted, once per event. Answers
   * the notification made, if any.
   */
  const notify = (recorded: RecordedEvent, a: Announcement, recipientId: string): Delivered | null => {
    if (recipientId === a.actorId || users.get(recipientId)?.deleted === true) return null;
    if (telling !== recorded) {
      telling = recorded;
      told.clear();
    }
    if (told.has(recipientId)) return null;
    told.add(recipientId);
    const n: Delivered = {
      id: notificationId(recorded.eventId, recipientId),
      user_id: recipientId,
      read: false,
      deleted: false,
      of: a,
    };
    live++;
    file(toUser, recipientId, n);
    return n;
  };
  function* notificationRows(): Generator<NotificationRow> {
    for (const list of toUser.values())
      for (const n of list) {
        if (!isLive(n)) continue;
        const c = contentOf(n.of, n.of.createdAt);
        yield {
          id: n.id,
          user_id: n.user_id,
          type: c.type,
          title: c.title,
          message: c.message,
          data: c.data,
          actor_id: c.actor_id,
          post_id: c.post_id,
          comment_id: c.comment_id,
          ad_id: c.ad_id,
          request_id: c.request_id,
          read: n.read,
          created_at: c.created_at,
        };
      }
  }

  function* receiptRows(): Generator<ReceiptRow> {
    for (const mine of receipts.values())
      for (const receipt of mine.values()) if (liveBroadcasts.has(receipt.broadcast_id)) yield receipt;
  }

  return {
    apply(recorded) {
      const event = { type: recorded.type, data: recorded.data ?? {} } as Handled;
      switch (event.type) {
        // ── who is who ──
        case 'UserRegistered': {
          const d = event.data;
          const id = userIdOfStream(recorded.streamId);
          // The merge leaves `deleted` as it was: a deleted account stays one.
          let user = users.get(id);
          if (!user)
            users.set(
              id,
              (user = { id, username: '', is_veterinarian: false, verified: false, deleted: false }),
            );
          user.username = user.deleted ? '' : String(d.username);
          user.is_veterinarian = d.isVeterinarian === true;
          user.verified = d.via !== 'password';
          reconsiderVet(user, recorded);
          return;
        }
        case 'RegistrationRenewed': {
          const user = users.get(userIdOfStream(recorded.streamId));
          if (!user) return;
          user.username = user.deleted ? '' : String(event.data.username);
          user.is_veterinarian = event.data.isVeterinarian === true;
          reconsiderVet(user, recorded);
          return;
        }
        case 'EmailVerified': {
          const user = users.get(userIdOfStream(recorded.streamId));
          if (!user) return;
          user.verified = true;
          reconsiderVet(user, recorded);
          return;
        }

        case 'UserDeleted': {
          const userId = text(event.data.userId);
          if (!userId) return;
          deleteAnnounced(actorGone, userId, recorded);
          deleteDelivered(toUser, userId);
          deleteListed(posts, postsBy, userId);
          deleteListed(requests, requestsBy, userId);
          // The requests on their ads go with the ads.
          for (const ad of adsOf.get(userId) ?? [])
            if (ads.get(ad.id) === ad) deleteListed(requests, requestsOn, ad.id);
          deleteListed(ads, adsOf, userId);
          let user = users.get(userId);
          if (!user)
            users.set(
              userId,
              (user = { id: userId, username: '', is_veterinarian: false, verified: false, deleted: true }),
            );
          user.username = '';
          user.is_veterinarian = false;
          user.verified = false;
          user.deleted = true;
          dropBroadcasts(broadcastsBy, userId);
          for (const table of [terms, receipts, marks, received]) table.delete(userId);
          return;
        }

        // ── community ──
        case 'PostPublished': {
          const d = event.data;
          const postId = text(d.postId);
          const authorId = text(d.authorId);
          if (!postId || !authorId) return;
          if (!posts.has(postId)) {
            const post = { id: postId, author_id: authorId };
            posts.set(postId, post);
            file(postsBy, authorId, post);
          }
          if (d.authorIsVeterinarian !== true) return;
          const b = broadcastRow(
            recorded,
            postId,
            authorId,
            usernameOf(authorId),
            timeOf(d.publishedAt, recorded),
          );
          broadcasts.push(b);
          liveBroadcasts.set(b.id, b);
          addTo(broadcastsOfPost, postId, b);
          addTo(broadcastsBy, authorId, b);
          return;
        }
        case 'PostDeleted': {
          const postId = text(event.data.postId);
          if (!postId) return;
          posts.delete(postId);
          deleteAnnounced(postGone, postId, recorded);
          dropBroadcasts(broadcastsOfPost, postId);
          return;
        }
        case 'CommentAdded': {
          const d = event.data;
          const [postId, commentId, actorId] = [text(d.postId), text(d.commentId), text(d.authorId)];
          if (!postId || !commentId || !actorId || !posts.has(postId)) return;
          const actor = usernameOf(actorId);
          const postAuthorId = text(d.postAuthorId);
          const parentAuthorId = text(d.parentAuthorId);
          const createdAt = timeOf(d.addedAt, recorded);
          const about = { type: 'post_comment' as const, actorId, postId, commentId };
          if (postAuthorId) {
            const t = parentAuthorId === postAuthorId ? T.comment_reply : T.post_comment;
            notify(
              recorded,
              announce(recorded, { ...about, title: t.title, message: t.message(actor) }, createdAt),
              postAuthorId,
            );
          }
          if (parentAuthorId)
            notify(
              recorded,
              announce(
                recorded,
                { ...about, title: T.comment_reply.title, message: T.comment_reply.message(actor) },
                createdAt,
              ),
              parentAuthorId,
            );
          return;
        }
        case 'CommentDeleted': {
          const commentId = text(event.data.commentId);
          if (commentId) deleteAnnounced(commentGone, commentId, recorded);
          return;
        }
        case 'PostLiked': {
          const d = event.data;
          const [postId, actorId, postAuthorId] = [text(d.postId), text(d.userId), text(d.postAuthorId)];
          if (!postId || !actorId || !postAuthorId || !posts.has(postId)) return;
          let onPost = likes.get(postId);
          if (!onPost) likes.set(postId, (onPost = new Map()));
          const already = onPost.get(actorId);
          if (already?.some((n) => isLive(n) && n.user_id === postAuthorId)) return;
          const like = announce(
            recorded,
            {
              type: 'post_like',
              title: T.post_like.title,
              message: T.post_like.message(usernameOf(actorId)),
              actorId,
              postId,
            },
            timeOf(d.likedAt, recorded),
          );
          const n = notify(recorded, like, postAuthorId);
          if (n && already) already.push(n);
          else if (n) onPost.set(actorId, [n]);
          return;
        }
        case 'PostUnliked': {
          const [postId, actorId] = [text(event.data.postId), text(event.data.userId)];
          const onPost = postId ? likes.get(postId) : undefined;
          if (onPost && actorId) deleteDelivered(onPost, actorId);
          return;
        }

        // ── adoption ──
        case 'AdoptionAdPublished': {
          const d = event.data;
          const ownerId = text(d.ownerId);
          const id = adIdOfStream(recorded.streamId);
          if (!ownerId || ads.has(id)) return;
          const ad = { id, owner_id: ownerId, name: String(d.details?.name ?? '') };
          ads.set(id, ad);
          file(adsOf, ownerId, ad);
          return;
        }
        case 'AdoptionAdUpdated': {
          const name = event.data.changes?.name;
          const ad = ads.get(adIdOfStream(recorded.streamId));
          if (typeof name === 'string' && ad) ad.name = name;
          return;
        }
        case 'AdoptionRequested': {
          const d = event.data;
          const [requestId, requesterId] = [text(d.requestId), text(d.requesterId)];
          if (!requestId || !requesterId) return;
          const adId = adIdOfStream(recorded.streamId);
          if (!requests.has(requestId)) {
            const request = { id: requestId, ad_id: adId, requester_id: requesterId };
            requests.set(requestId, request);
            file(requestsBy, requesterId, request);
            file(requestsOn, adId, request);
          }
          const ad = ads.get(adId);
          if (!ad) return;
          const requested = announce(
            recorded,
            {
              type: 'adoption_request',
              title: T.adoption_request.title,
              message: T.adoption_request.message(usernameOf(requesterId), ad.name),
              actorId: requesterId,
              adId,
              requestId,
            },
            timeOf(d.requestedAt, recorded),
          );
          notify(recorded, requested, ad.owner_id);
          return;
        }
        case 'AdoptionRequestAccepted':
        case 'AdoptionRequestRejected': {
          const requestId = text(event.data.requestId);
          const request = requestId ? requests.get(requestId) : undefined;
          const ad = request ? ads.get(request.ad_id) : undefined;
          if (!requestId || !request || !ad) return;
          const accepted = event.type === 'AdoptionRequestAccepted';
          const t = accepted
            ? T.adoption_request_accepted
            : event.data.reason === ADOPTION_MESSAGES.anotherAccepted
              ? T.adoption_request_rejected_other
              : T.adoption_request_rejected;
          const decision = announce(
            recorded,
            {
              type: accepted ? 'adoption_request_accepted' : 'adoption_request_rejected',
              title: t.title,
              message: t.message(ad.name),
              actorId: ad.owner_id,
              adId: ad.id,
              requestId,
            },
            timeOf(accepted ? event.data.acceptedAt : event.data.rejectedAt, recorded),
          );
          notify(recorded, decision, request.requester_id);
          return;
        }

        case 'AdoptionRequestDeleted': {
          const requestId = text(event.data.requestId);
          if (!requestId) return;
          requests.delete(requestId);
          deleteAnnounced(requestGone, requestId, recorded);
          return;
        }

        // ── what the user did with their notifications ──
        case 'NotificationRead':
        case 'NotificationDeleted': {
          const id = text(event.data.notificationId);
          if (!id || !UUID.test(id)) return;
          // Only the stream's own user's notifications, whatever the data names.
          const userId = userIdOfNotificationsStream(recorded.streamId);
          const reading = event.type === 'NotificationRead';
          const n = toUser.get(userId)?.find((n) => n.id === id && isLive(n));
          if (n) {
            if (reading) n.read = true;
            else {
              deleteOne(n);
              sweep();
            }
            return;
          }
          const seen = broadcastSeen(userId, id);
          if (!seen || (reading && seen.read)) return;
          let mine = receipts.get(userId);
          if (!mine) receipts.set(userId, (mine = new Map()));
          mine.set(seen.b.id, { broadcast_id: seen.b.id, user_id: userId, deleted: !reading });
          return;
        }
        case 'AllNotificationsRead': {
          const userId = userIdOfNotificationsStream(recorded.streamId);
          for (const n of toUser.get(userId) ?? []) if (isLive(n)) n.read = true;
          const mine = receipts.get(userId);
          for (const [id, receipt] of mine ?? []) if (!receipt.deleted) mine!.delete(id);
          markAll(userId, 'read_before', recorded);
          return;
        }
        case 'AllNotificationsDeleted': {
          const userId = userIdOfNotificationsStream(recorded.streamId);
          deleteDelivered(toUser, userId);
          receipts.delete(userId);
          markAll(userId, 'deleted_before', recorded);
          return;
        }
        default:
          return;
      }
    },
    rows: () => ({
      notifications: notificationRows(),
      notification_users: users.values(),
      notification_posts: posts.values(),
      notification_ads: ads.values(),
      notification_adoption_requests: requests.values(),
      notification_broadcasts: liveBroadcasts.values(),
      notification_vet_terms: [...terms.values()].flat(),
      notification_receipts: receiptRows(),
      notification_marks: marks.values(),
    }),
  };
}
