import { COMMUNITY_EVENT_TYPES, type CommunityEvent, type UserEvent } from '@pawhaven/contracts';
import { defineReadModel } from '@pawhaven/platform';
import {
  addTotal,
  count,
  deleteComment,
  deletePost,
  forgetUser,
  like,
  moveLiveReplies,
  unlike,
} from './community-changes';
import { COMMUNITY_TABLES, uuidKey, type CommunityRows } from './community-rows';

/**
 * The community read models, written together because each follows from the others' rows:
 * - `posts`: the feed, with like and live-comment counts; a deleted post is removed with its likes and comments;
 * - `post_likes`: one row per (post, user), a set: a like of a liked post or an unlike of an unliked one changes
 *   nothing, so `like_count` can never double or go negative;
 * - `post_comments`: every comment of a live post; a deleted one keeps its row (content emptied) for its thread;
 * - `user_community_stats`: per user, live posts, live comments, likes given and likes received (on live posts),
 *   i.e. always the aggregates of the three tables above (`community-changes.ts`);
 * - `community_totals`: one row, the number of live posts (the feed's X-Total-Count).
 * Everything comes from the events' data (times included), so a rebuild reproduces the same rows.
 */
export const communityPostsProjection = defineReadModel<CommunityRows>({
  name: 'community-posts',
  tables: COMMUNITY_TABLES,
  handles: [...COMMUNITY_EVENT_TYPES, 'UserDeleted'],
  evolve(rows, recorded) {
    if (recorded.type === 'UserDeleted') {
      const d = recorded.data as Extract<UserEvent, { type: 'UserDeleted' }>['data'];
      forgetUser(rows, d.userId, d.deletedAt);
      return;
    }
    const event = recorded as unknown as CommunityEvent;
    // Every community event names its post (a like's stream is the user's own, not the post's); an id that is no
    // uuid names none.
    const postId = uuidKey(event.data.postId);
    if (postId == null) return;
    switch (event.type) {
      case 'PostPublished': {
        const d = event.data;
        if (rows.posts.get(postId)) return; // published once
        rows.posts.put({
          id: postId,
          author_id: d.authorId,
          caption: d.caption,
          image_url: d.imageUrl,
          author_is_veterinarian: d.authorIsVeterinarian,
          like_count: 0,
          comment_count: 0,
          created_at: d.publishedAt,
          updated_at: d.publishedAt,
        });
        addTotal(rows, 1);
        count(rows, d.authorId, { posts: 1 });
        return;
      }
      case 'PostCaptionEdited': {
        const post = rows.posts.get(postId);
        if (!post) return;
        post.caption = event.data.caption;
        post.updated_at = event.data.editedAt;
        rows.posts.put(post);
        return;
      }
      case 'PostDeleted':
        deletePost(rows, postId);
        return;
      case 'CommentAdded': {
        const d = event.data;
        const commentId = uuidKey(d.commentId);
        const parentId = uuidKey(d.parentCommentId);
        if (commentId == null || parentId === undefined) return;
        // Only on a live post, once.
        const post = rows.posts.get(postId);
        if (!post || rows.post_comments.get(commentId)) return;
        // The thread is the parent's (a reply to a reply joins the same thread) if the parent is of this post;
        // otherwise the comment starts its own.
        const parent = parentId === null ? undefined : rows.post_comments.get(parentId);
        const thread = parent?.post_id === postId ? parent : undefined;
        rows.post_comments.put({
          id: commentId,
          post_id: postId,
          author_id: d.authorId,
          content: d.content,
          parent_comment_id: parentId,
          deleted: false,
          created_at: d.addedAt,
          deleted_at: null,
          thread_id: thread ? thread.thread_id : commentId,
          thread_created_at: thread ? thread.thread_created_at : d.addedAt,
          live_replies: 0,
        });
        post.comment_count++;
        rows.posts.put(post);
        count(rows, d.authorId, { comments: 1 });
        if (parentId !== null) moveLiveReplies(rows, postId, parentId, 1);
        return;
      }
      case 'CommentDeleted': {
        const commentId = uuidKey(event.data.commentId);
        if (commentId != null) deleteComment(rows, postId, commentId, event.data.deletedAt);
        return;
      }
      case 'PostLiked': {
        const { userId, postAuthorId } = event.data;
        const post = rows.posts.get(postId);
        // What `like` reads, asked now (read models' rule: ask first for every row the event names), so that a live
        // batch loads it with the post in one round trip instead of one more after it.
        rows.post_likes.get(postId, userId);
        rows.user_community_stats.get(userId);
        rows.user_community_stats.get(postAuthorId);
        if (post) like(rows, post, userId, event.data.likedAt);
        return;
      }
      case 'PostUnliked':
        unlike(rows, postId, event.data.userId);
        return;
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
  },
});
