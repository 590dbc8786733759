import { NOTIFICATION_TEXTS as T, type CommunityEvent } from '@pawhaven/contracts';
import type { Notices, RecordedEvent } from '@pawhaven/platform';
import { notify, takeAway } from './deliver';
import {
  broadcastRow,
  notificationId,
  text,
  timeOf,
  usernameOf,
  type NewNotification,
  type NotificationStore,
} from './notifications.rows';
import { broadcast, dropBroadcasts } from './vet-broadcasts';

/**
 * The community's notifications: post_like and post_comment to a post's author, and post_comment to the author of
 * a comment answered; an unlike takes the like's notification back; deleting a post or a comment takes away the
 * notifications about it. A veterinarian's post is broadcast to the other veterinarians (`vet-broadcasts.ts`).
 * Which posts are live is this model's own lookup (`notification_posts`): a comment or a like recorded after its
 * post was deleted notifies nobody.
 */
export function applyCommunityEvent(
  rows: NotificationStore,
  recorded: RecordedEvent,
  event: CommunityEvent,
  notices: Notices,
): void {
  switch (event.type) {
    case 'PostPublished': {
      const d = event.data;
      const postId = text(d.postId);
      const authorId = text(d.authorId);
      if (!postId || !authorId) return;
      if (!rows.notification_posts.get(postId))
        rows.notification_posts.put({ id: postId, author_id: authorId });
      if (d.authorIsVeterinarian !== true) return;
      const createdAt = timeOf(d.publishedAt, recorded);
      broadcast(
        rows,
        notices,
        broadcastRow(recorded, postId, authorId, usernameOf(rows, authorId), createdAt),
      );
      return;
    }
    case 'PostDeleted': {
      const postId = text(event.data.postId);
      if (!postId) return;
      rows.notification_posts.delete(postId);
      takeAway(rows, notices, rows.notifications.find('post_id', postId));
      dropBroadcasts(rows, notices, rows.notification_broadcasts.find('post_id', postId));
      return;
    }
    case 'CommentAdded': {
      const d = event.data;
      const [postId, commentId, actorId] = [text(d.postId), text(d.commentId), text(d.authorId)];
      if (!postId || !commentId || !actorId || !rows.notification_posts.get(postId)) return;
      const actor = usernameOf(rows, actorId);
      const postAuthorId = text(d.postAuthorId);
      const parentAuthorId = text(d.parentAuthorId);
      const about = { type: 'post_comment' as const, actorId, postId, commentId };
      const list: NewNotification[] = [];
      if (postAuthorId) {
        const t = parentAuthorId === postAuthorId ? T.comment_reply : T.post_comment;
        list.push({ ...about, recipientId: postAuthorId, title: t.title, message: t.message(actor) });
      }
      if (parentAuthorId) {
        const t = T.comment_reply;
        list.push({ ...about, recipientId: parentAuthorId, title: t.title, message: t.message(actor) });
      }
      notify(rows, recorded, notices, timeOf(d.addedAt, recorded), list);
      return;
    }
    case 'CommentDeleted': {
      const commentId = text(event.data.commentId);
      if (commentId) takeAway(rows, notices, rows.notifications.find('comment_id', commentId));
      return;
    }
    case 'PostLiked': {
      const d = event.data;
      const [postId, actorId, postAuthorId] = [text(d.postId), text(d.userId), text(d.postAuthorId)];
      if (!postId || !actorId || !postAuthorId) return;
      const post = rows.notification_posts.get(postId);
      // One like notification per liker and post, whatever a history of repeated likes says.
      const likes = rows.notifications.find('post_id', postId);
      // What `notify` reads, asked with the post (ask first for every row the event names): one load on a live batch.
      rows.notification_users.get(actorId);
      rows.notification_users.get(postAuthorId);
      rows.notifications.get(notificationId(recorded.eventId, postAuthorId));
      if (!post) return;
      if (likes.some((n) => n.type === 'post_like' && n.actor_id === actorId && n.user_id === postAuthorId))
        return;
      const { title, message } = T.post_like;
      notify(rows, recorded, notices, timeOf(d.likedAt, recorded), [
        {
          recipientId: postAuthorId,
          type: 'post_like',
          title,
          message: message(usernameOf(rows, actorId)),
          actorId,
          postId,
        },
      ]);
      return;
    }
    case 'PostUnliked': {
      const [postId, actorId] = [text(event.data.postId), text(event.data.userId)];
      if (!postId || !actorId) return;
      const about = rows.notifications.find('post_id', postId);
      takeAway(
        rows,
        notices,
        about.filter((n) => n.type === 'post_like' && n.actor_id === actorId),
      );
      return;
    }
    case 'PostCaptionEdited':
      return;
    default: {
      const _exhaustive: never = event;
      return;
    }
  }
}
