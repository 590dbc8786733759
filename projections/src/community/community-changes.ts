import type { CommunityStore, PostRow } from './community-rows';

/**
 * The changes the community events make, each keeping every count the aggregate of the rows: a user's stats (live
 * posts, live comments, likes given, likes received on live posts), a post's like and comment counts, a comment's
 * live replies, the number of live posts.
 */

/** Adds to one user's stats; the row is created (zeros) by the first change, even one of 0 or below. */
export function count(
  rows: CommunityStore,
  userId: string,
  by: { posts?: number; comments?: number; likes_given?: number; likes_received?: number },
) {
  const s = rows.user_community_stats.get(userId) ?? {
    user_id: userId,
    posts: 0,
    comments: 0,
    likes_given: 0,
    likes_received: 0,
  };
  s.posts += by.posts ?? 0;
  s.comments += by.comments ?? 0;
  s.likes_given += by.likes_given ?? 0;
  s.likes_received += by.likes_received ?? 0;
  rows.user_community_stats.put(s);
}

/** The number of live posts (the feed's X-Total-Count), moved by `by`. */
export function addTotal(rows: CommunityStore, by: 1 | -1) {
  const totals = rows.community_totals.get(true) ?? { id: true, posts: 0 };
  totals.posts += by;
  rows.community_totals.put(totals);
}

/** From a comment of the post up through its ancestors (parents are not checked for post), `live_replies` moves. */
export function moveLiveReplies(rows: CommunityStore, postId: string, fromCommentId: string, by: 1 | -1) {
  let c = rows.post_comments.get(fromCommentId);
  if (c?.post_id !== postId) return;
  // A chain visits each comment once; the cap only stops a cycle.
  const seen = new Set<string>();
  while (c && !seen.has(c.id)) {
    seen.add(c.id);
    c.live_replies += by;
    rows.post_comments.put(c);
    c = c.parent_comment_id === null ? undefined : rows.post_comments.get(c.parent_comment_id);
  }
}

/** A post leaves with its likes and comments, and everyone's counts lose what they had from it. */
export function deletePost(rows: CommunityStore, postId: string) {
  const post = rows.posts.get(postId);
  if (!post) return;
  rows.posts.delete(postId);
  addTotal(rows, -1);
  const likes = rows.post_likes.find('post_id', postId);
  count(rows, post.author_id, { posts: -1, likes_received: -likes.length });
  for (const like of likes) {
    rows.post_likes.delete(postId, like.user_id);
    count(rows, like.user_id, { likes_given: -1 });
  }
  for (const c of rows.post_comments.find('post_id', postId)) {
    rows.post_comments.delete(c.id);
    if (!c.deleted) count(rows, c.author_id, { comments: -1 });
  }
}

/** A comment keeps its row, emptied, for its thread; the counts and its ancestors' live replies lose it. */
export function deleteComment(rows: CommunityStore, postId: string, commentId: string, at: string) {
  const c = rows.post_comments.get(commentId);
  if (!c || c.post_id !== postId || c.deleted) return;
  c.deleted = true;
  c.content = '';
  c.deleted_at = at;
  rows.post_comments.put(c);
  const post = rows.posts.get(postId);
  if (post) {
    post.comment_count--;
    rows.posts.put(post);
    count(rows, c.author_id, { comments: -1 });
  }
  if (c.parent_comment_id !== null) moveLiveReplies(rows, postId, c.parent_comment_id, -1);
}

/** A like counts once: on a live post this user has not liked yet (the set decides, not the event). */
export function like(rows: CommunityStore, post: PostRow, userId: string, at: string) {
  if (rows.post_likes.get(post.id, userId)) return;
  rows.post_likes.put({ post_id: post.id, user_id: userId, liked_at: at });
  post.like_count++;
  rows.posts.put(post);
  count(rows, userId, { likes_given: 1 });
  count(rows, post.author_id, { likes_received: 1 });
}

export function unlike(rows: CommunityStore, postId: string, userId: string) {
  const post = rows.posts.get(postId);
  if (!post || !rows.post_likes.get(postId, userId)) return;
  rows.post_likes.delete(postId, userId);
  post.like_count--;
  rows.posts.put(post);
  count(rows, userId, { likes_given: -1 });
  count(rows, post.author_id, { likes_received: -1 });
}

/**
 * A deleted user's community data leaves, each step as the event it stands for, so every count stays the
 * aggregate of the rows: their posts (with all likes and comments on them), their likes, their comments (deleted as
 * by CommentDeleted). A comment of theirs that others answered keeps its place, emptied and without author ('This
 * comment was deleted'); the rest of their comment rows go. Then their stats row.
 */
export function forgetUser(rows: CommunityStore, userId: string, at: string) {
  for (const post of rows.posts.find('author_id', userId)) deletePost(rows, post.id);
  for (const liked of rows.post_likes.find('user_id', userId)) unlike(rows, liked.post_id, userId);
  for (const c of rows.post_comments.find('author_id', userId))
    if (!c.deleted) deleteComment(rows, c.post_id, c.id, at);
  for (const c of rows.post_comments.find('author_id', userId)) {
    if (c.live_replies === 0) rows.post_comments.delete(c.id);
    else {
      c.author_id = '';
      rows.post_comments.put(c);
    }
  }
  rows.user_community_stats.delete(userId);
}
