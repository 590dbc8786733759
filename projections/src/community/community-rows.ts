import { isUuid } from '@pawhaven/contracts';
import type { RowStore, TableSpec } from '@pawhaven/platform';

/** The community read models' rows, every column included. */
export type PostRow = {
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
export type LikeRow = { post_id: string; user_id: string; liked_at: string };
export type CommentRow = {
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
export type StatsRow = {
  user_id: string;
  posts: number;
  comments: number;
  likes_given: number;
  likes_received: number;
};
export type TotalsRow = { id: true; posts: number };

export type CommunityRows = {
  posts: PostRow;
  post_likes: LikeRow;
  post_comments: CommentRow;
  user_community_stats: StatsRow;
  community_totals: TotalsRow;
};
export type CommunityStore = RowStore<CommunityRows>;

/** Keys, and what each table is found by: an author's posts, a post's likes and comments, a user's likes. */
export const COMMUNITY_TABLES: { [K in keyof CommunityRows]: TableSpec<CommunityRows[K]> } = {
  posts: { key: ['id'], lookups: ['author_id'] },
  post_likes: { key: ['post_id', 'user_id'], lookups: ['post_id', 'user_id'] },
  post_comments: { key: ['id'], lookups: ['post_id', 'author_id'] },
  user_community_stats: { key: ['user_id'] },
  community_totals: { key: ['id'] },
};

/**
 * An id bound for a uuid column as the column keeps it (lower case), so keys match as the columns do; `undefined`
 * for anything else, whose event is skipped (it could never reach the column).
 */
export const uuidKey = (id: unknown): string | null | undefined =>
  id === null ? null : typeof id === 'string' && isUuid(id) ? id.toLowerCase() : undefined;
