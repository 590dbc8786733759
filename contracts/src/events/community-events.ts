/**
 * Events of a community post (stream `post-{postId}`), version 1. A post's comments live in its stream, so a
 * reply's parent is checked against the post's own comments and deleting a post closes its threads atomically.
 * Likes live in one small stream per post and user (`post-like-{postId}-{userId}`): a toggle decides from that
 * user's own state, so concurrent toggles by many users never contend and one user's can never double.
 *
 * Every event carries what a notification needs (post id, the post's author, the actor) so notifications can be
 * built from the log alone. Who did it is also in the metadata (actorId).
 */
export type CommunityEvent =
  | {
      type: 'PostPublished';
      data: {
        postId: string;
        authorId: string;
        /** Vets' posts alert the other vets (new_post_vet_notification). */
        authorIsVeterinarian: boolean;
        caption: string;
        imageUrl: string;
        publishedAt: string;
      };
    }
  | {
      type: 'PostCaptionEdited';
      data: { postId: string; authorId: string; caption: string; editedAt: string };
    }
  | {
      type: 'PostDeleted';
      data: { postId: string; authorId: string; actorId: string; byAdmin: boolean; deletedAt: string };
    }
  | {
      type: 'CommentAdded';
      data: {
        commentId: string;
        postId: string;
        postAuthorId: string;
        authorId: string;
        content: string;
        /** null for a top-level comment; otherwise a comment of the same post (replies to replies nest). */
        parentCommentId: string | null;
        /** The parent comment's author, for a reply notification; null at top level. */
        parentAuthorId: string | null;
        addedAt: string;
      };
    }
  | {
      type: 'CommentDeleted';
      data: {
        commentId: string;
        postId: string;
        authorId: string;
        actorId: string;
        byAdmin: boolean;
        deletedAt: string;
      };
    }
  | { type: 'PostLiked'; data: { postId: string; postAuthorId: string; userId: string; likedAt: string } }
  | {
      type: 'PostUnliked';
      data: { postId: string; postAuthorId: string; userId: string; unlikedAt: string };
    };

export type CommunityEventType = CommunityEvent['type'];

/** The events of a post's own stream (`post-{postId}`): the post and its comments. */
export type PostEvent = Exclude<CommunityEvent, { type: 'PostLiked' | 'PostUnliked' }>;

/** The events of one user's like of one post (`post-like-{postId}-{userId}`). */
export type PostLikeEvent = Extract<CommunityEvent, { type: 'PostLiked' | 'PostUnliked' }>;

/** Every community event type, for projections that follow all of them. */
export const COMMUNITY_EVENT_TYPES = [
  'PostPublished',
  'PostCaptionEdited',
  'PostDeleted',
  'CommentAdded',
  'CommentDeleted',
  'PostLiked',
  'PostUnliked',
] as const satisfies readonly CommunityEventType[];

const LIKE_PREFIX = 'post-like-';
export const postStream = (postId: string) => `post-${postId}`;
/** The post of a `post-{postId}` stream, and of a `post-like-{postId}-{userId}` stream (post ids are UUIDs). */
export const postIdOfStream = (streamId: string) =>
  streamId.startsWith(LIKE_PREFIX)
    ? streamId.slice(LIKE_PREFIX.length, LIKE_PREFIX.length + 36)
    : streamId.slice('post-'.length);
export const postLikeStream = (postId: string, userId: string) => `${LIKE_PREFIX}${postId}-${userId}`;
