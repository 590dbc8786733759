import { randomUUID } from 'node:crypto';
import {
  postLikeStream,
  postStream,
  type CommunityEvent,
  type CommunityEventType,
} from '@pawhaven/contracts';
import type { EventStore } from '@pawhaven/platform';

type Data<T extends CommunityEventType> = Extract<CommunityEvent, { type: T }>['data'];

/**
 * For tests and the bench: records community events straight into the log, as the command side would (same
 * streams, same data, the actor in the metadata), without its rules, so read models can be tested on any history,
 * duplicates and stragglers included. Each call answers the position of its event.
 *
 * Event times come from a clock that starts at `start` and moves `stepMs` per event, so orders are deterministic.
 */
export function communityLog(store: EventStore, opts: { start?: Date; stepMs?: number } = {}) {
  let now = (opts.start ?? new Date(Date.now() - 24 * 3600_000)).getTime();
  const step = opts.stepMs ?? 1000;
  const tick = () => new Date((now += step)).toISOString();

  const record = async <T extends CommunityEventType>(
    stream: string,
    type: T,
    data: Data<T>,
    actorId: string,
  ): Promise<bigint> => (await store.append(stream, [{ type, data, metadata: { actorId } }], 'any')).position;

  const authors = new Map<string, string>();
  const commentAuthors = new Map<string, string>();
  const authorOf = (postId: string) => authors.get(postId) ?? 'unknown-author';

  return {
    tick,
    async publish(
      authorId: string,
      opts: { postId?: string; caption?: string; vet?: boolean; at?: string } = {},
    ) {
      const postId = opts.postId ?? randomUUID();
      authors.set(postId, authorId);
      const position = await record(
        postStream(postId),
        'PostPublished',
        {
          postId,
          authorId,
          authorIsVeterinarian: opts.vet ?? false,
          caption: opts.caption ?? `Post ${postId.slice(0, 8)}`,
          imageUrl: `/api/images/${postId.replaceAll('-', '').slice(0, 24)}`,
          publishedAt: opts.at ?? tick(),
        },
        authorId,
      );
      return { postId, position };
    },
    editCaption: (postId: string, caption: string) =>
      record(
        postStream(postId),
        'PostCaptionEdited',
        { postId, authorId: authorOf(postId), caption, editedAt: tick() },
        authorOf(postId),
      ),
    deletePost: (postId: string, actorId = authorOf(postId)) =>
      record(
        postStream(postId),
        'PostDeleted',
        {
          postId,
          authorId: authorOf(postId),
          actorId,
          byAdmin: actorId !== authorOf(postId),
          deletedAt: tick(),
        },
        actorId,
      ),
    async comment(postId: string, authorId: string, content: string, parentCommentId: string | null = null) {
      const commentId = randomUUID();
      commentAuthors.set(commentId, authorId);
      const position = await record(
        postStream(postId),
        'CommentAdded',
        {
          commentId,
          postId,
          postAuthorId: authorOf(postId),
          authorId,
          content,
          parentCommentId,
          parentAuthorId: parentCommentId ? (commentAuthors.get(parentCommentId) ?? null) : null,
          addedAt: tick(),
        },
        authorId,
      );
      return { commentId, position };
    },
    deleteComment: (postId: string, commentId: string, actorId = commentAuthors.get(commentId)!) =>
      record(
        postStream(postId),
        'CommentDeleted',
        {
          commentId,
          postId,
          authorId: commentAuthors.get(commentId)!,
          actorId,
          byAdmin: actorId !== commentAuthors.get(commentId),
          deletedAt: tick(),
        },
        actorId,
      ),
    like: (postId: string, userId: string) =>
      record(
        postLikeStream(postId, userId),
        'PostLiked',
        { postId, postAuthorId: authorOf(postId), userId, likedAt: tick() },
        userId,
      ),
    unlike: (postId: string, userId: string) =>
      record(
        postLikeStream(postId, userId),
        'PostUnliked',
        { postId, postAuthorId: authorOf(postId), userId, unlikedAt: tick() },
        userId,
      ),
  };
}

export type CommunityLog = ReturnType<typeof communityLog>;
