import {
  COMMUNITY_MESSAGES,
  type AuthorDto,
  type CommentDto,
  type PostDto,
  type UserDto,
} from '@pawhaven/contracts';
import { ApiError } from '../shared/api';

import { userIdOf } from '../shared/user-id';

export { userIdOf };

/** The author's id of a post or comment; null when the account is gone. */
export const authorIdOf = (item: { userId: AuthorDto | null }) => item.userId?._id || item.userId?.id || null;

/** 'Unknown User' when the author's account is gone or has no name. */
export const authorName = (item: { userId: AuthorDto | null }) =>
  item.userId?.username?.trim() || COMMUNITY_MESSAGES.unknownUser;

/** The signed-in user as a post or comment author (optimistic comments). */
export function authorFromUser(user: UserDto): AuthorDto {
  const id = userIdOf(user) ?? '';
  return {
    _id: id,
    id,
    username: user.username,
    isVeterinarian: Boolean(user.isVeterinarian),
    profileImage: user.profileImage ?? null,
  };
}

const format = (value: string | null | undefined, opts: Intl.DateTimeFormatOptions, time = false) => {
  if (!value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return time ? d.toLocaleString('en-US', opts) : d.toLocaleDateString('en-US', opts);
};

/** Posts: en-US long form, 'January 5, 2026'. */
export const longDate = (value: string | null | undefined) =>
  format(value, { year: 'numeric', month: 'long', day: 'numeric' });

/** Comments: en-US short form with time, 'Jan 5, 2026, 3:04 PM'. */
export const commentDate = (value: string | null | undefined) =>
  format(
    value,
    { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
    true,
  );

/** Posts on a public profile: short month and day, 'Jan 5'. */
export const monthDay = (value: string | null | undefined) =>
  format(value, { month: 'short', day: 'numeric' });

export const likeCountOf = (post: Pick<PostDto, 'likes' | 'likeCount'>) =>
  Array.isArray(post.likes) ? post.likes.length : (post.likeCount ?? 0);

export const commentCountOf = (post: Pick<PostDto, 'comments' | 'commentCount'>) =>
  typeof post.commentCount === 'number'
    ? post.commentCount
    : (post.comments ?? []).filter((c) => !c.deleted).length;

const TITLE_MAX = 80;

/**
 * A post on a public profile: its caption is the title (the first line, cut at 80 characters; 'Pet Story' without one)
 * and the text shows only what the title does not already say.
 */
export function postTitleAndText(post: Pick<PostDto, 'caption' | 'text'>) {
  const caption = (post.caption ?? '').trim();
  const firstLine = caption.split('\n')[0]!.trim();
  const title = !firstLine
    ? COMMUNITY_MESSAGES.defaultPostTitle
    : firstLine.length > TITLE_MAX
      ? `${firstLine.slice(0, TITLE_MAX - 1).trimEnd()}…`
      : firstLine;
  const text = (post.text || caption).trim();
  return { title, text: text && text !== title ? text : null };
}

export type ThreadNode = { comment: CommentDto; replies: ThreadNode[] };

/**
 * The comments (oldest first) as threads: top-level comments with their replies nested under their parents.
 * A reply whose parent is not in the list (not sent with the feed) is shown at the top level.
 */
export function buildThreads(comments: readonly CommentDto[]): ThreadNode[] {
  const nodes = new Map<string, ThreadNode>();
  for (const c of comments) nodes.set(c._id, { comment: c, replies: [] });
  const roots: ThreadNode[] = [];
  for (const c of comments) {
    const node = nodes.get(c._id)!;
    const parent = c.parentCommentId ? nodes.get(c.parentCommentId) : undefined;
    if (parent && parent !== node) parent.replies.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Comments in the threads that are not deleted placeholders. */
export function liveCount(threads: readonly ThreadNode[]): number {
  let n = 0;
  for (const t of threads) n += (t.comment.deleted ? 0 : 1) + liveCount(t.replies);
  return n;
}

/**
 * The list after `commentId` is deleted: a comment with replies stays as 'This comment was deleted' so its thread
 * keeps its shape; one without goes, and so does any deleted parent left without replies.
 */
export function withoutComment(comments: readonly CommentDto[], commentId: string): CommentDto[] {
  let list = comments.map((c) => (c._id === commentId ? { ...c, deleted: true, content: '' } : c));
  for (;;) {
    const parents = new Set(list.map((c) => c.parentCommentId).filter(Boolean));
    const next = list.filter((c) => !c.deleted || parents.has(c._id));
    if (next.length === list.length) return next;
    list = next;
  }
}

/** The server's own text when it answered, else the fixed fallback text. */
export function failureText(err: unknown, fallback: string) {
  if (err instanceof ApiError && err.kind === 'http') return err.serverMessage ?? fallback;
  return fallback;
}

/** A post's own page; `#comments` opens it at its comments. */
export const postPath = (postId: string, at?: 'comments') =>
  `/posts/${encodeURIComponent(postId)}${at ? `#${at}` : ''}`;

export const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** Comments made optimistically carry this id prefix until the server's answer replaces them. */
export const TEMP_PREFIX = 'temp-';
export const isTemp = (id: string) => id.startsWith(TEMP_PREFIX);
