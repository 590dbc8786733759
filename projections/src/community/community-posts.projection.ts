import type { Knex } from 'knex';
import { COMMUNITY_EVENT_TYPES, type CommunityEvent, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';
import { prepared } from './prepared';

/**
 * Adds per-user deltas to `user_community_stats`. `deltas` is a SELECT (or CTE name) yielding
 * (user_id, posts, comments, likes_given, likes_received); one user may appear in several rows (liking one's own
 * post), so they are summed first: ON CONFLICT cannot touch one row twice.
 */
const addStats = (deltas: string) => `
  INSERT INTO user_community_stats AS s (user_id, posts, comments, likes_given, likes_received)
  SELECT user_id, sum(posts), sum(comments), sum(likes_given), sum(likes_received)
  FROM (${deltas}) AS d (user_id, posts, comments, likes_given, likes_received)
  GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET
    posts = s.posts + EXCLUDED.posts,
    comments = s.comments + EXCLUDED.comments,
    likes_given = s.likes_given + EXCLUDED.likes_given,
    likes_received = s.likes_received + EXCLUDED.likes_received`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids that can reach a uuid column: anything else would stop the projector for good, so it is skipped. */
const uuids = (...ids: (string | null)[]) => ids.every((id) => id === null || UUID.test(id));

/** Adds `by` to the number of live posts, from the CTE `p` (one row per post published or removed). */
const addTotal = (by: 1 | -1) => `
  total AS (
    INSERT INTO community_totals AS t (id, posts) SELECT true, ${by} FROM p
    ON CONFLICT (id) DO UPDATE SET posts = t.posts + EXCLUDED.posts
  )`;

/** Moves `live_replies` of a comment of the post and of every comment above it by `by`. */
const moveLiveReplies = (tx: Knex.Transaction, postId: string, fromCommentId: string, by: 1 | -1) =>
  prepared(
    tx,
    'community-posts/live-replies',
    `WITH RECURSIVE up AS (
       SELECT id, parent_comment_id FROM post_comments WHERE id = ?::uuid AND post_id = ?::uuid
       UNION ALL
       SELECT c.id, c.parent_comment_id FROM post_comments c JOIN up ON c.id = up.parent_comment_id
     )
     UPDATE post_comments SET live_replies = live_replies + ? WHERE id IN (SELECT id FROM up)`,
    [fromCommentId, postId, by],
  );

/** A post leaves with its likes and comments, and everyone's counts lose what they had from it. */
const deletePost = (tx: Knex.Transaction, postId: string) =>
  // Every data-modifying part sees the rows as they were: the counts taken away are those of the rows removed.
  prepared(
    tx,
    'community-posts/post-deleted',
    `WITH p AS (DELETE FROM posts WHERE id = ?::uuid RETURNING author_id),
     l AS (DELETE FROM post_likes WHERE post_id = ?::uuid RETURNING user_id),
     c AS (DELETE FROM post_comments WHERE post_id = ?::uuid RETURNING author_id, deleted),
     ${addTotal(-1)}
     ${addStats(`
       SELECT author_id, -1, 0, 0, -(SELECT count(*) FROM l)::int FROM p
       UNION ALL SELECT user_id, 0, 0, -1, 0 FROM l
       UNION ALL SELECT author_id, 0, -1, 0, 0 FROM c WHERE NOT deleted`)}`,
    [postId, postId, postId],
  );

/** A comment keeps its row, emptied, for its thread; the counts and its ancestors' live replies lose it. */
async function deleteComment(tx: Knex.Transaction, postId: string, commentId: string, at: string) {
  const deleted = await prepared<{ rows: { author_id: string; parent_comment_id: string | null }[] }>(
    tx,
    'community-posts/comment-deleted',
    `UPDATE post_comments SET deleted = true, content = '', deleted_at = ?
     WHERE id = ?::uuid AND post_id = ?::uuid AND NOT deleted
     RETURNING author_id, parent_comment_id`,
    [at, commentId, postId],
  );
  const row = deleted.rows[0];
  if (!row) return;
  await prepared(
    tx,
    'community-posts/comment-deleted-count',
    `WITH p AS (UPDATE posts SET comment_count = comment_count - 1 WHERE id = ?::uuid RETURNING id)
     ${addStats('SELECT ?::text, 0, -1, 0, 0 FROM p')}`,
    [postId, row.author_id],
  );
  if (row.parent_comment_id) await moveLiveReplies(tx, postId, row.parent_comment_id, -1);
}

const unlike = (tx: Knex.Transaction, postId: string, userId: string) =>
  prepared(
    tx,
    'community-posts/post-unliked',
    `WITH l AS (
       DELETE FROM post_likes WHERE post_id = ?::uuid AND user_id = ?
       RETURNING user_id
     ),
     p AS (
       UPDATE posts SET like_count = like_count - 1 WHERE id = ?::uuid AND EXISTS (SELECT 1 FROM l)
       RETURNING author_id
     )
     ${addStats(`SELECT user_id, 0, 0, -1, 0 FROM l UNION ALL SELECT author_id, 0, 0, 0, -1 FROM p`)}`,
    [postId, userId, postId],
  );

/**
 * A deleted user's community data leaves, each step through the same statements as the events it stands for, so
 * every count stays the aggregate of the rows: their posts (with all likes and comments on them), their likes, their
 * comments (deleted as by CommentDeleted). A comment of theirs that others answered keeps its place, emptied and
 * without author ('This comment was deleted'); the rest of their comment rows go. Then their stats row.
 */
async function forgetUser(tx: Knex.Transaction, userId: string, at: string) {
  const posts: string[] = await tx('posts').where({ author_id: userId }).pluck('id');
  for (const postId of posts) await deletePost(tx, postId);
  const liked: string[] = await tx('post_likes').where({ user_id: userId }).pluck('post_id');
  for (const postId of liked) await unlike(tx, postId, userId);
  const comments: { id: string; post_id: string }[] = await tx('post_comments')
    .where({ author_id: userId, deleted: false })
    .orderBy('created_at', 'desc')
    .select('id', 'post_id');
  for (const c of comments) await deleteComment(tx, c.post_id, c.id, at);
  await tx('post_comments').where({ author_id: userId, live_replies: 0 }).delete();
  await tx('post_comments').where({ author_id: userId }).update({ author_id: '' });
  await tx('user_community_stats').where({ user_id: userId }).delete();
}

/**
 * The community read models, written together because each follows from the others' rows:
 * - `posts`: the feed, with like and live-comment counts; a deleted post is removed with its likes and comments;
 * - `post_likes`: one row per (post, user), a set: a like of a liked post or an unlike of an unliked one changes
 *   nothing, so `like_count` can never double or go negative;
 * - `post_comments`: every comment of a live post; a deleted one keeps its row (content emptied) for its thread;
 * - `user_community_stats`: per user, live posts, live comments, likes given and likes received (on live posts),
 *   i.e. always the aggregates of the three tables above;
 * - `community_totals`: one row, the number of live posts (the feed's X-Total-Count).
 * Everything comes from the events' data (times included), so a rebuild reproduces the same rows.
 */
export const communityPostsProjection = defineProjection({
  name: 'community-posts',
  tables: ['posts', 'post_likes', 'post_comments', 'user_community_stats', 'community_totals'],
  handles: [...COMMUNITY_EVENT_TYPES, 'UserDeleted'],
  async apply(tx, recorded) {
    if (recorded.type === 'UserDeleted') {
      const d = recorded.data as Extract<UserEvent, { type: 'UserDeleted' }>['data'];
      await forgetUser(tx, d.userId, d.deletedAt);
      return;
    }
    const event = { type: recorded.type, data: recorded.data } as CommunityEvent;
    // Every community event names its post (a like's stream is the user's own, not the post's).
    const postId = event.data.postId;
    if (!uuids(postId)) return;
    switch (event.type) {
      case 'PostPublished': {
        const d = event.data;
        await prepared(
          tx,
          'community-posts/post-published',
          `WITH p AS (
             INSERT INTO posts (id, author_id, caption, image_url, author_is_veterinarian, created_at, updated_at)
             VALUES (?::uuid, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (id) DO NOTHING
             RETURNING author_id
           ),
           ${addTotal(1)}
           ${addStats('SELECT author_id, 1, 0, 0, 0 FROM p')}`,
          [postId, d.authorId, d.caption, d.imageUrl, d.authorIsVeterinarian, d.publishedAt, d.publishedAt],
        );
        return;
      }
      case 'PostCaptionEdited':
        await tx('posts')
          .where({ id: postId })
          .update({ caption: event.data.caption, updated_at: event.data.editedAt });
        return;
      case 'PostDeleted':
        await deletePost(tx, postId);
        return;
      case 'CommentAdded': {
        const d = event.data;
        if (!uuids(d.commentId, d.parentCommentId)) return;
        // The thread is the parent's (a reply to a reply joins the same thread); a comment without a parent of
        // this post starts its own.
        const inserted = await prepared<{ rows: { id: string }[] }>(
          tx,
          'community-posts/comment-added',
          `WITH parent AS (
             SELECT thread_id, thread_created_at FROM post_comments WHERE id = ?::uuid AND post_id = ?::uuid
           )
           INSERT INTO post_comments
             (id, post_id, author_id, content, parent_comment_id, created_at, thread_id, thread_created_at)
           SELECT ?::uuid, p.id, ?, ?, ?::uuid, ?::timestamptz,
                  coalesce((SELECT thread_id FROM parent), ?::uuid),
                  coalesce((SELECT thread_created_at FROM parent), ?::timestamptz)
           FROM posts p WHERE p.id = ?::uuid
           ON CONFLICT (id) DO NOTHING
           RETURNING id`,
          [
            d.parentCommentId,
            postId,
            d.commentId,
            d.authorId,
            d.content,
            d.parentCommentId,
            d.addedAt,
            d.commentId,
            d.addedAt,
            postId,
          ],
        );
        if (inserted.rows.length === 0) return; // the post is gone (or this comment is there already)
        await prepared(
          tx,
          'community-posts/comment-added-count',
          `WITH p AS (UPDATE posts SET comment_count = comment_count + 1 WHERE id = ?::uuid RETURNING id)
           ${addStats('SELECT ?::text, 0, 1, 0, 0 FROM p')}`,
          [postId, d.authorId],
        );
        if (d.parentCommentId) await moveLiveReplies(tx, postId, d.parentCommentId, 1);
        return;
      }
      case 'CommentDeleted': {
        if (!uuids(event.data.commentId)) return;
        await deleteComment(tx, postId, event.data.commentId, event.data.deletedAt);
        return;
      }
      case 'PostLiked':
        // Only a like of a live post that this user has not liked yet counts: the set decides, not the event.
        await prepared(
          tx,
          'community-posts/post-liked',
          `WITH l AS (
             INSERT INTO post_likes (post_id, user_id, liked_at)
             SELECT id, ?, ? FROM posts WHERE id = ?::uuid
             ON CONFLICT (post_id, user_id) DO NOTHING
             RETURNING user_id
           ),
           p AS (
             UPDATE posts SET like_count = like_count + 1 WHERE id = ?::uuid AND EXISTS (SELECT 1 FROM l)
             RETURNING author_id
           )
           ${addStats(`SELECT user_id, 0, 0, 1, 0 FROM l UNION ALL SELECT author_id, 0, 0, 0, 1 FROM p`)}`,
          [event.data.userId, event.data.likedAt, postId, postId],
        );
        return;
      case 'PostUnliked':
        await unlike(tx, postId, event.data.userId);
        return;
      default: {
        const _exhaustive: never = event;
        return;
      }
    }
  },
});
