import { z } from 'zod';

export const COMMUNITY_LIMITS = {
  /** The form hints 10 MB and does not check it; the server enforces it. */
  imageMaxBytes: 10 * 1024 * 1024,
  captionMaxLength: 2000,
  commentMaxLength: 1000,
  pageSizeDefault: 10,
  pageSizeMax: 50,
  /** Comments (top-level threads) shown on a card before 'View N More Comments'. */
  commentsShown: 2,
  /** Comments sent with each post of the feed (the first view); the post page sends them all. */
  feedCommentsPerPost: 50,
  feedRefreshMs: 30_000,
} as const;

/** Every user-visible text of the community pages and the server's refusals. */
export const COMMUNITY_MESSAGES = {
  linkCopied: 'Link copied',
  linkCopyFailed: 'Could not copy the link',
  captionRequired: 'Caption is required',
  captionTooLong: `Caption must be at most ${COMMUNITY_LIMITS.captionMaxLength} characters`,
  imageRequired: 'Please select an image',
  imageInvalid: 'Please select a PNG, JPG or GIF image',
  imageTooLarge: 'Image size should be less than 10MB',
  imageHint: 'PNG, JPG, GIF up to 10MB',
  contentRequired: 'Comment cannot be empty',
  contentTooLong: `Comment must be at most ${COMMUNITY_LIMITS.commentMaxLength} characters`,
  mustBeLoggedIn: 'You must be logged in to do that',
  tokenMissing: 'Token is missing. Please log in again.',
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  parentNotInPost: 'You can only reply to a comment of the same post',
  notAuthor: 'Only the author can do that',
  notCommentAuthor: 'You can only delete your own comments',
  created: 'Post created successfully',
  updated: 'Post updated successfully',
  deleted: 'Post deleted successfully',
  commentDeleted: 'Comment deleted successfully',
  // Pages
  feedEmptyTitle: 'No posts yet',
  feedEmptyText: 'Be the first to share your pet story!',
  feedFailed: 'Failed to load posts. Please try again later.',
  createFailed: 'Failed to create post',
  createPageFailed: 'Failed to create post. Please try again.',
  myPostsEmpty: 'No posts yet. Share your first pet moment!',
  myPostsUpdateFailed: 'Failed to update post. Please try again.',
  myPostsDeleteFailed: 'Failed to delete post. Please try again.',
  noComments: 'No comments yet. Be the first to comment!',
  unknownUser: 'Unknown User',
  commentWasDeleted: 'This comment was deleted',
  confirmDeleteComment: 'Are you sure you want to delete this comment?',
  confirmDeletePost: 'Are you sure you want to delete this post?',
  chatTip: 'Start private conversation',
  signInToPost: 'Sign in to Post',
  postPageFailed: 'Failed to load post. Please try again later.',
  defaultPostTitle: 'Pet Story',
} as const;

const text = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);

/** Multipart fields of POST /api/posts (the image is the file field `image`). */
export const createPostBody = z.object({
  caption: text(
    COMMUNITY_MESSAGES.captionRequired,
    COMMUNITY_LIMITS.captionMaxLength,
    COMMUNITY_MESSAGES.captionTooLong,
  ),
});
export const editPostBody = createPostBody;
export const addCommentBody = z.object({
  content: text(
    COMMUNITY_MESSAGES.contentRequired,
    COMMUNITY_LIMITS.commentMaxLength,
    COMMUNITY_MESSAGES.contentTooLong,
  ),
});
export const replyBody = addCommentBody.extend({
  parentCommentId: z
    .string({ error: 'parentCommentId is required' })
    .trim()
    .min(1, 'parentCommentId is required'),
});
export const postListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(COMMUNITY_LIMITS.pageSizeMax)
    .default(COMMUNITY_LIMITS.pageSizeDefault),
});

export type AuthorDto = {
  _id: string;
  id: string;
  username: string;
  isVeterinarian: boolean;
  profileImage: string | null;
};

export type CommentDto = {
  _id: string;
  id: string;
  postId: string;
  /** null when the author's account is gone ('Unknown User'). */
  userId: AuthorDto | null;
  /** '' when deleted (shown as 'This comment was deleted'). */
  content: string;
  parentCommentId: string | null;
  /** A deleted comment stays only while it has replies, so its thread keeps its shape. */
  deleted: boolean;
  createdAt: string;
};

export type PostDto = {
  _id: string;
  id: string;
  userId: AuthorDto | null;
  caption: string;
  /** The post page also reads `text`: the same caption. */
  text: string;
  imageUrl: string;
  /** User ids, a set. */
  likes: string[];
  likeCount: number;
  commentCount: number;
  /** Oldest first. In the feed at most COMMUNITY_LIMITS.feedCommentsPerPost (the newest threads); all on the post page. */
  comments: CommentDto[];
  createdAt: string;
  updatedAt: string;
};

/** POST /api/posts/{id}/like answers the post's whole likes list after the toggle. */
export type LikeResponse = { liked: boolean; likes: string[]; likeCount: number; position: string };
