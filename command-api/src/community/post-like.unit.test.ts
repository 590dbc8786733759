import { describe, it } from 'vitest';
import { COMMUNITY_MESSAGES as M, type PostLikeEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { postLikeDecider } from './post-like';

const given = deciderSpec(postLikeDecider);
const now = new Date('2026-11-21T10:00:00.000Z');
const at = now.toISOString();
const earlier = '2026-11-20T09:00:00.000Z';

const liked: PostLikeEvent = {
  type: 'PostLiked',
  data: { postId: 'p1', postAuthorId: 'alice', userId: 'bob', likedAt: earlier },
};
const unliked: PostLikeEvent = {
  type: 'PostUnliked',
  data: { postId: 'p1', postAuthorId: 'alice', userId: 'bob', unlikedAt: earlier },
};
const toggle = (postExists = true) => ({
  type: 'ToggleLike' as const,
  data: { postId: 'p1', userId: 'bob', postExists, postAuthorId: postExists ? 'alice' : '', now },
});

const likes: PostLikeEvent[] = [
  { type: 'PostLiked', data: { postId: 'p1', postAuthorId: 'alice', userId: 'bob', likedAt: at } },
];
const unlikes: PostLikeEvent[] = [
  { type: 'PostUnliked', data: { postId: 'p1', postAuthorId: 'alice', userId: 'bob', unlikedAt: at } },
];

describe('ToggleLike', () => {
  it('likes a post the user has not liked, naming the post’s author for the notification', () =>
    given().when(toggle()).then(likes));

  it('unlikes a post the user likes', () => given(liked).when(toggle()).then(unlikes));

  it('likes again after an unlike: the stream folds to liked or not, never two likes', () => {
    given(liked, unliked).when(toggle()).then(likes);
    given(liked, unliked, liked).when(toggle()).then(unlikes);
  });

  it('lets authors like their own post', () =>
    given()
      .when({
        type: 'ToggleLike',
        data: { postId: 'p1', userId: 'alice', postExists: true, postAuthorId: 'alice', now },
      })
      .then([
        { type: 'PostLiked', data: { postId: 'p1', postAuthorId: 'alice', userId: 'alice', likedAt: at } },
      ]));

  it('answers 404 when the post does not exist or was deleted, liked or not', () => {
    given().when(toggle(false)).thenRefuses(404, M.postNotFound);
    given(liked).when(toggle(false)).thenRefuses(404, M.postNotFound);
  });
});
