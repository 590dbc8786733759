import { COMMUNITY_MESSAGES as M, type PostLikeEvent } from '@pawhaven/contracts';
import { notFound } from '@pawhaven/platform';

/**
 * One user's like of one post, stream `post-like-{postId}-{userId}`: a toggle decides from this user's own state
 * only, so many users liking one post never contend, and one user's concurrent toggles are ordered by the stream's
 * revision (the stream folds to liked or not; it can never hold two likes).
 *
 * Whether the post exists is not in this stream: the route loads the post and passes what it found, so the decider
 * stays pure.
 */

export type PostLikeCommand = {
  type: 'ToggleLike';
  data: {
    postId: string;
    userId: string;
    /** The post is published and not deleted (from its own stream). */
    postExists: boolean;
    postAuthorId: string;
    now: Date;
  };
};

type PostLikeState = { liked: boolean };

const initialPostLikeState = (): PostLikeState => ({ liked: false });

function evolvePostLike(state: PostLikeState, event: PostLikeEvent): PostLikeState {
  switch (event.type) {
    case 'PostLiked':
      return { liked: true };
    case 'PostUnliked':
      return { liked: false };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

function decidePostLike(command: PostLikeCommand, state: PostLikeState): PostLikeEvent[] {
  switch (command.type) {
    case 'ToggleLike': {
      const { postId, userId, postExists, postAuthorId, now } = command.data;
      if (!postExists) throw notFound(M.postNotFound);
      const at = now.toISOString();
      return state.liked
        ? [{ type: 'PostUnliked', data: { postId, postAuthorId, userId, unlikedAt: at } }]
        : [{ type: 'PostLiked', data: { postId, postAuthorId, userId, likedAt: at } }];
    }
    default: {
      const _exhaustive: never = command.type;
      return [];
    }
  }
}

export const postLikeDecider = {
  initialState: initialPostLikeState,
  evolve: evolvePostLike,
  decide: decidePostLike,
};
