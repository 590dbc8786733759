import type { Knex } from 'knex';
import { COMMUNITY_EVENT_TYPES, type CommunityEvent, type UserEvent } from '@pawhaven/contracts';
import { defineProjection } from '@pawhaven/platform';
import { prepared } from './prepared';
import { addTo, removeFrom } from '../fold-index';

/** Rows as `apply` leaves them, every column included (defaults from migration 0120). */
type PostRow = {
  id: string;
  author_id: string;
  caption: string;
  image_url: string;
  author_is_veterinarian: boolean;
  like_count: number;
  comment_count: number;
  created_at: string;
  updated_at: string;
};
type LikeRow = { post_id: string; user_id: string; liked_at: string };
type CommentRow = {
  id: string;
  post_id: string;
  author_id: string;
  content: string;
  parent_comment_id: string | null;
  deleted: boolean;
  created_at: string;
  deleted_at: string | null;
  thread_id: string;
  thread_created_at: string;
  live_replies: number;
};
type StatsRow = {
  user_id: string;
  posts: number;
  comments: number;
  likes_given: number;
  likes_received: number;
};

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
/**
 * The fold's form of `uuids` for one id: the same test, and the id as PostgreSQL keeps it in a uuid column
 * (lower case), so the fold's keys match as the columns do; `undefined` when `apply` would skip the event.
 */
const uuidKey = (id: unknown): string | null | undefined =>
  id === null ? null : typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined;

/** A map's values, iterable as often as the reader likes. */
const valuesOf = <V>(map: Map<unknown, V>): Iterable<V> => ({ [Symbol.iterator]: () => map.values() });

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
  fold: () => {
    /** A live post with what leaves with it: its likes (liker → like) and the ids of its comments. */
    type FoldedPost = { row: PostRow; likes: Map<string, LikeRow>; commentIds: Set<string> };
    const posts = new Map<string, FoldedPost>();
    const comments = new Map<string, CommentRow>();
    const stats = new Map<string, StatsRow>();
    let totals: { id: true; posts: number } | undefined;
    // What a deleted user leaves: their posts, the posts they like, their comments.
    const postsByAuthor = new Map<string, Set<string>>();
    const likedByUser = new Map<string, Set<string>>();
    const commentsByAuthor = new Map<string, Set<string>>();

    /** `addStats` for one user: the row is created (zeros) by the first delta, even one of 0 or below. */
    const count = (
      userId: string,
      posts: number,
      comments: number,
      likesGiven: number,
      likesReceived: number,
    ) => {
      let s = stats.get(userId);
      if (!s)
        stats.set(
          userId,
          (s = { user_id: userId, posts: 0, comments: 0, likes_given: 0, likes_received: 0 }),
        );
      s.posts += posts;
      s.comments += comments;
      s.likes_given += likesGiven;
      s.likes_received += likesReceived;
    };
    const addTotal = (by: 1 | -1) => {
      if (totals) totals.posts += by;
      else totals = { id: true, posts: by };
    };

    /** `moveLiveReplies`: from a comment of the post up through its ancestors (parents are not checked for post). */
    const moveLiveReplies = (postId: string, fromCommentId: string, by: 1 | -1) => {
      let c = comments.get(fromCommentId);
      if (c?.post_id !== postId) return;
      // A chain visits each comment once; the cap only stops a cycle (the recursive CTE would never end on one).
      for (let left = comments.size; c && left > 0; left--) {
        c.live_replies += by;
        c = c.parent_comment_id === null ? undefined : comments.get(c.parent_comment_id);
      }
    };

    // Likes and comments exist only on live posts (both are inserted from `posts`), so a post absent here has none.
    const deletePost = (postId: string) => {
      const post = posts.get(postId);
      if (!post) return;
      posts.delete(postId);
      removeFrom(postsByAuthor, post.row.author_id, postId);
      addTotal(-1);
      count(post.row.author_id, -1, 0, 0, -post.likes.size);
      for (const like of post.likes.values()) {
        removeFrom(likedByUser, like.user_id, postId);
        count(like.user_id, 0, 0, -1, 0);
      }
      for (const id of post.commentIds) {
        const c = comments.get(id)!;
        comments.delete(id);
        removeFrom(commentsByAuthor, c.author_id, id);
        if (!c.deleted) count(c.author_id, 0, -1, 0, 0);
      }
    };

    const deleteComment = (postId: string, commentId: string, at: string) => {
      const c = comments.get(commentId);
      if (!c || c.post_id !== postId || c.deleted) return;
      c.deleted = true;
      c.content = '';
      c.deleted_at = at;
      const post = posts.get(postId);
      if (post) {
        post.row.comment_count -= 1;
        count(c.author_id, 0, -1, 0, 0);
      }
      if (c.parent_comment_id !== null) moveLiveReplies(postId, c.parent_comment_id, -1);
    };

    const unlike = (postId: string, userId: string) => {
      const post = posts.get(postId);
      if (!post?.likes.delete(userId)) return;
      removeFrom(likedByUser, userId, postId);
      post.row.like_count -= 1;
      count(userId, 0, 0, -1, 0);
      count(post.row.author_id, 0, 0, 0, -1);
    };

    /** `forgetUser`, step by step (the lists are taken before each step changes them, as the SQL plucks them). */
    const forgetUser = (userId: string, at: string) => {
      for (const postId of [...(postsByAuthor.get(userId) ?? [])]) deletePost(postId);
      for (const postId of [...(likedByUser.get(userId) ?? [])]) unlike(postId, userId);
      const authored = [...(commentsByAuthor.get(userId) ?? [])];
      for (const id of authored) {
        const c = comments.get(id)!;
        if (!c.deleted) deleteComment(c.post_id, id, at);
      }
      commentsByAuthor.delete(userId);
      for (const id of authored) {
        const c = comments.get(id)!;
        if (c.live_replies === 0) {
          comments.delete(id);
          posts.get(c.post_id)!.commentIds.delete(id);
        } else {
          c.author_id = '';
          addTo(commentsByAuthor, '', id);
        }
      }
      stats.delete(userId);
    };

    return {
      apply(recorded) {
        if (recorded.type === 'UserDeleted') {
          const d = recorded.data as Extract<UserEvent, { type: 'UserDeleted' }>['data'];
          forgetUser(d.userId, d.deletedAt);
          return;
        }
        const event = recorded as unknown as CommunityEvent;
        const postId = uuidKey(event.data.postId);
        // A null post id matches no row (`apply` would fail to publish one).
        if (postId == null) return;
        switch (event.type) {
          case 'PostPublished': {
            const d = event.data;
            if (posts.has(postId)) return;
            posts.set(postId, {
              row: {
                id: postId,
                author_id: d.authorId,
                caption: d.caption,
                image_url: d.imageUrl,
                author_is_veterinarian: d.authorIsVeterinarian,
                like_count: 0,
                comment_count: 0,
                created_at: d.publishedAt,
                updated_at: d.publishedAt,
              },
              likes: new Map(),
              commentIds: new Set(),
            });
            addTo(postsByAuthor, d.authorId, postId);
            addTotal(1);
            count(d.authorId, 1, 0, 0, 0);
            return;
          }
          case 'PostCaptionEdited': {
            const post = posts.get(postId);
            if (!post) return;
            post.row.caption = event.data.caption;
            post.row.updated_at = event.data.editedAt;
            return;
          }
          case 'PostDeleted':
            deletePost(postId);
            return;
          case 'CommentAdded': {
            const d = event.data;
            const commentId = uuidKey(d.commentId);
            const parentId = uuidKey(d.parentCommentId);
            if (commentId == null || parentId === undefined) return;
            const post = posts.get(postId);
            if (!post || comments.has(commentId)) return;
            const parent = parentId === null ? undefined : comments.get(parentId);
            // The parent's thread only if the parent is of this post; otherwise the comment starts its own.
            const thread = parent?.post_id === postId ? parent : undefined;
            comments.set(commentId, {
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
            post.commentIds.add(commentId);
            addTo(commentsByAuthor, d.authorId, commentId);
            post.row.comment_count += 1;
            count(d.authorId, 0, 1, 0, 0);
            if (parentId !== null) moveLiveReplies(postId, parentId, 1);
            return;
          }
          case 'CommentDeleted': {
            const commentId = uuidKey(event.data.commentId);
            if (commentId == null) return;
            deleteComment(postId, commentId, event.data.deletedAt);
            return;
          }
          case 'PostLiked': {
            const d = event.data;
            const post = posts.get(postId);
            if (!post || post.likes.has(d.userId)) return;
            post.likes.set(d.userId, { post_id: postId, user_id: d.userId, liked_at: d.likedAt });
            addTo(likedByUser, d.userId, postId);
            post.row.like_count += 1;
            count(d.userId, 0, 0, 1, 0);
            count(post.row.author_id, 0, 0, 0, 1);
            return;
          }
          case 'PostUnliked':
            unlike(postId, event.data.userId);
            return;
          default: {
            const _exhaustive: never = event;
            return;
          }
        }
      },
      rows: () => ({
        posts: {
          *[Symbol.iterator]() {
            for (const post of posts.values()) yield post.row;
          },
        },
        post_likes: {
          *[Symbol.iterator]() {
            for (const post of posts.values()) yield* post.likes.values();
          },
        },
        post_comments: valuesOf(comments),
        user_community_stats: valuesOf(stats),
        community_totals: totals ? [totals] : [],
      }),
    };
  },
});
