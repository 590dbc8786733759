import type { z } from 'zod';
import { COMMUNITY_LIMITS, isUuid, type postListQuery } from '@pawhaven/contracts';
import type { Database } from '@pawhaven/platform';

type Pool = Database['pool'];

/**
 * The community reads. Each is ONE prepared statement that builds the whole JSON answer (PostDto[] or PostDto) in
 * PostgreSQL: the page of posts with their authors, likes and comments, whatever the page size, so a page costs
 * one round trip and Node only passes the text on. The DTO shapes are those of `@pawhaven/contracts`
 * (PostDto, CommentDto, AuthorDto); queries.int.test.ts checks them field by field.
 */

/** The JSON form of a timestamptz, exactly as Date.prototype.toISOString writes it. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** AuthorDto of the users row `alias`, or null when that account is gone ('Unknown User'). */
const author = (alias: string) => `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object(
  '_id', ${alias}.id, 'id', ${alias}.id, 'username', ${alias}.username,
  'isVeterinarian', ${alias}.is_veterinarian, 'profileImage', ${alias}.profile_image) END`;

/**
 * PostDto of the posts row `p` joined with its author `u`. `commentLimit` is the SQL of the most comments to send
 * (NULL: all): the newest threads first, each with its replies, then sent oldest first. A deleted comment is sent
 * (content '', deleted true) only while a live comment sits below it, so its thread keeps its shape.
 */
const postJson = (commentLimit: string) => `json_build_object(
  '_id', p.id, 'id', p.id,
  'userId', ${author('u')},
  'caption', p.caption, 'text', p.caption, 'imageUrl', p.image_url,
  'likes', coalesce(
    (SELECT json_agg(l.user_id ORDER BY l.liked_at, l.user_id) FROM post_likes l WHERE l.post_id = p.id),
    '[]'::json),
  'likeCount', p.like_count,
  'commentCount', p.comment_count,
  'comments', coalesce((
    SELECT json_agg(json_build_object(
      '_id', c.id, 'id', c.id, 'postId', c.post_id,
      'userId', ${author('cu')},
      'content', c.content, 'parentCommentId', c.parent_comment_id, 'deleted', c.deleted,
      'createdAt', ${iso('c.created_at')}) ORDER BY c.created_at, c.id)
    FROM (
      SELECT * FROM post_comments
      WHERE post_id = p.id AND (NOT deleted OR live_replies > 0)
      ORDER BY thread_created_at DESC, thread_id DESC, created_at, id
      LIMIT ${commentLimit}
    ) c
    LEFT JOIN users cu ON cu.id = c.author_id), '[]'::json),
  'createdAt', ${iso('p.created_at')},
  'updatedAt', ${iso('p.updated_at')})`;

// The page is picked from the feed index alone (id and created_at), then its rows fetched: a deep page skips
// index entries, not table rows. The total is kept by the projection (community_totals), not counted.
const FEED_SQL = `
  SELECT coalesce(json_agg(${postJson('$3')} ORDER BY p.created_at DESC, p.id DESC), '[]'::json)::text AS body,
         coalesce((SELECT posts FROM community_totals), 0) AS total
  FROM (SELECT id FROM posts ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2) page
  JOIN posts p ON p.id = page.id
  LEFT JOIN users u ON u.id = p.author_id`;

const USER_POSTS_SQL = `
  SELECT coalesce(json_agg(${postJson('$2')} ORDER BY p.created_at DESC, p.id DESC), '[]'::json)::text AS body
  FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE p.author_id = $1`;

const POST_SQL = `
  SELECT ${postJson('NULL')}::text AS body
  FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE p.id = $1`;

/** Offsets beyond this can hold no post (and would overflow a bigint): such pages are simply empty. */
const MAX_OFFSET = 2 ** 52;

export type PostPage = {
  /** PostDto[] as JSON text. */
  body: string;
  total: number;
  page: number;
  limit: number;
};

/** One page of the feed, newest first, with the total number of posts. */
export async function listPosts(pool: Pool, query: z.infer<typeof postListQuery>): Promise<PostPage> {
  const offset = Math.min((query.page - 1) * query.limit, MAX_OFFSET);
  const { rows } = await pool.query<{ body: string; total: number }>({
    name: 'community-feed',
    text: FEED_SQL,
    values: [query.limit, offset, COMMUNITY_LIMITS.feedCommentsPerPost],
  });
  const row = rows[0]!;
  return { body: row.body, total: row.total, page: query.page, limit: query.limit };
}

/** A user's posts, newest first (PostDto[] as JSON text). */
export async function listUserPosts(pool: Pool, userId: string): Promise<string> {
  const { rows } = await pool.query<{ body: string }>({
    name: 'community-user-posts',
    text: USER_POSTS_SQL,
    values: [userId, COMMUNITY_LIMITS.feedCommentsPerPost],
  });
  return rows[0]!.body;
}

/** One post with all its comments (PostDto as JSON text), or null: unknown, deleted, or not a post id at all. */
export async function findPost(pool: Pool, postId: string): Promise<string | null> {
  if (!isUuid(postId)) return null;
  const { rows } = await pool.query<{ body: string }>({
    name: 'community-post',
    text: POST_SQL,
    values: [postId],
  });
  return rows[0]?.body ?? null;
}
