import { Router } from 'express';
import {
  addCommentBody,
  COMMUNITY_LIMITS,
  COMMUNITY_MESSAGES as M,
  createPostBody,
  editPostBody,
  postIdOfStream,
  postLikeStream,
  postStream,
  replyBody,
  type AuthorDto,
  type CommentDto,
  type LikeResponse,
  type PostDto,
  userStream,
} from '@pawhaven/contracts';
import {
  badRequest,
  currentUserId,
  handleCommand,
  loadState,
  notFound,
  requireCommunityMember,
} from '@pawhaven/platform';
import { creatorIsDeleted } from '../accounts/deleted-users';
import { userDecider, type UserState } from '../accounts/user';
import type { CommandDeps } from '../deps';
import { newIdFor } from '../http/idempotency';
import { signedIn, uuidParam } from '../http/route-helpers';
import { postgresReadModels } from '../ports/read-models';
import { rateLimits } from '../http/rate-limits';
import { singleUpload, uploadedFile } from '../http/upload';
import { withStagedImage, type ImageKind } from '../images/image-store';
import { postLikeDecider } from './post-like';
import { postDecider, type PostCommand, type PostState } from './post';

/** Post images: PNG, JPEG or GIF by content, under 10 MB, fitted into 1200 px and kept as WebP like every image. */
const postImage: ImageKind = {
  maxBytes: COMMUNITY_LIMITS.imageMaxBytes,
  width: 1200,
  height: 1200,
  fit: 'inside',
  tooLarge: M.imageTooLarge,
  invalid: M.imageInvalid,
  formats: ['png', 'jpeg', 'gif'],
};

const authorDto = (u: UserState): AuthorDto | null =>
  u.status === 'unregistered' || u.status === 'deleted'
    ? null
    : {
        _id: u.userId,
        id: u.userId,
        username: u.username,
        isVeterinarian: u.isVeterinarian,
        profileImage: u.profileImage,
      };

const positionOf = (position: bigint | null) => (position === null ? undefined : String(position));

/** A post just published: nobody has liked or commented on it yet. */
const newPostDto = (s: PostState, author: AuthorDto | null): PostDto => ({
  _id: s.postId,
  id: s.postId,
  userId: author,
  caption: s.caption,
  text: s.caption,
  imageUrl: s.imageUrl,
  likes: [],
  likeCount: 0,
  commentCount: 0,
  comments: [],
  createdAt: s.publishedAt,
  updatedAt: s.updatedAt,
});

const commentDto = (s: PostState, commentId: string, author: AuthorDto | null): CommentDto => {
  const c = s.comments[commentId]!;
  return {
    _id: commentId,
    id: commentId,
    postId: s.postId,
    userId: author,
    content: c.deleted ? '' : c.content,
    parentCommentId: c.parentCommentId,
    deleted: c.deleted,
    createdAt: c.addedAt,
  };
};

/** The routes of community posts and comments, mounted at /api/posts and /api/comments. */
export function communityRoutes(deps: CommandDeps): { posts: Router; comments: Router } {
  const { store, db } = deps;
  const now = deps.now ?? (() => new Date());
  const limits = rateLimits(deps);
  const readModels = postgresReadModels(db);

  const run = (postId: string, command: PostCommand, actorId: string) =>
    handleCommand(store, postStream(postId), postDecider, command, { actorId });

  /** The user as the write model knows them right now (authoritative: the vet flag of a post comes from here). */
  const userOf = async (userId: string) => (await loadState(store, userStream(userId), userDecider)).state;
  const authorOf = async (userId: string) => authorDto(await userOf(userId));

  /** Which post a comment belongs to (comment ids are global), also right after it was written. */
  const postOfComment = async (commentId: string) => {
    const stream = await readModels.recordingStream('post-comment', commentId);
    if (!stream) throw notFound(M.commentNotFound);
    return postIdOfStream(stream);
  };

  /** A deleted user's post is gone from every read model: it takes no more comments or likes (404). */
  const authorIsDeleted = (postId: string) => creatorIsDeleted(db.knex, postStream(postId), 'authorId');
  const notOfDeletedAuthor = async (postId: string) => {
    if (await authorIsDeleted(postId)) throw notFound(M.postNotFound);
  };

  /** The post's likes as the read model has them, with this user's new state on top (the model may lag). */
  const likesAfter = async (postId: string, userId: string, liked: boolean) => {
    const ids = await readModels.postLikers(postId);
    if (!liked) return ids.filter((id) => id !== userId);
    return ids.includes(userId) ? ids : [...ids, userId];
  };

  // ───────────────────────────────────────────────────────────────────────────── /api/posts

  const posts = Router();

  posts.post(
    '/',
    requireCommunityMember('create posts', M.mustBeLoggedIn),
    limits.upload,
    singleUpload('image', COMMUNITY_LIMITS.imageMaxBytes, M.imageTooLarge),
    async (req, res) => {
      const authorId = currentUserId(req);
      const { caption } = createPostBody.parse(req.body ?? {});
      const file = uploadedFile(req);
      if (!file) throw badRequest(M.imageRequired);
      const postId = newIdFor(req, 'post');
      const author = await userOf(authorId);
      const result = await withStagedImage(
        db.knex,
        { bytes: file.buffer, kind: postImage, streamId: postStream(postId) },
        (imageUrl) =>
          run(
            postId,
            {
              type: 'PublishPost',
              data: {
                postId,
                authorId,
                authorIsVeterinarian: author.isVeterinarian,
                caption,
                imageUrl,
                now: now(),
              },
            },
            authorId,
          ),
      );
      res.status(201).json({
        ...newPostDto(result.state, authorDto(author)),
        message: M.created,
        position: positionOf(result.position),
      });
    },
  );

  posts.put('/:id', signedIn(M.mustBeLoggedIn), async (req, res) => {
    const postId = uuidParam(req.params.id, M.postNotFound);
    const actorId = currentUserId(req);
    const { caption } = editPostBody.parse(req.body ?? {});
    const result = await run(
      postId,
      { type: 'EditCaption', data: { actorId, caption, now: now() } },
      actorId,
    );
    // The post without likes and comments (they live elsewhere): the client merges it into the post it shows.
    const s = result.state;
    res.json({
      _id: s.postId,
      id: s.postId,
      userId: await authorOf(s.authorId),
      caption: s.caption,
      text: s.caption,
      imageUrl: s.imageUrl,
      createdAt: s.publishedAt,
      updatedAt: s.updatedAt,
      message: M.updated,
      position: positionOf(result.position),
    });
  });

  posts.delete('/:id', signedIn(M.mustBeLoggedIn), async (req, res) => {
    const postId = uuidParam(req.params.id, M.postNotFound);
    const actorId = currentUserId(req);
    const result = await run(
      postId,
      { type: 'DeletePost', data: { actorId, isAdmin: req.auth?.isAdmin ?? false, now: now() } },
      actorId,
    );
    res.json({ message: M.deleted, position: positionOf(result.position) });
  });

  posts.post('/:id/like', requireCommunityMember('like posts', M.mustBeLoggedIn), async (req, res) => {
    const postId = uuidParam(req.params.id, M.postNotFound);
    const userId = currentUserId(req);
    const { state: post } = await loadState(store, postStream(postId), postDecider);
    const result = await handleCommand(
      store,
      postLikeStream(postId, userId),
      postLikeDecider,
      {
        type: 'ToggleLike',
        data: {
          postId,
          userId,
          postExists: post.status === 'published' && !(await authorIsDeleted(postId)),
          postAuthorId: post.authorId,
          now: now(),
        },
      },
      { actorId: userId },
    );
    const { liked } = result.state;
    const likes = await likesAfter(postId, userId, liked);
    const body: LikeResponse = {
      liked,
      likes,
      likeCount: likes.length,
      position: String(result.position),
    };
    res.json(body);
  });

  // ───────────────────────────────────────────────────────────────────────────── /api/comments

  const comments = Router();

  comments.post(
    '/:postId',
    requireCommunityMember('comment on posts', M.mustBeLoggedIn),
    async (req, res) => {
      const postId = uuidParam(req.params.postId, M.postNotFound);
      const authorId = currentUserId(req);
      const { content } = addCommentBody.parse(req.body ?? {});
      await notOfDeletedAuthor(postId);
      const commentId = newIdFor(req, 'comment');
      const [result, author] = await Promise.all([
        run(postId, { type: 'AddComment', data: { commentId, authorId, content, now: now() } }, authorId),
        authorOf(authorId),
      ]);
      res
        .status(201)
        .json({ ...commentDto(result.state, commentId, author), position: positionOf(result.position) });
    },
  );

  comments.post(
    '/:postId/comments',
    requireCommunityMember('comment on posts', M.mustBeLoggedIn),
    async (req, res) => {
      const postId = uuidParam(req.params.postId, M.postNotFound);
      const authorId = currentUserId(req);
      const { content, parentCommentId } = replyBody.parse(req.body ?? {});
      await notOfDeletedAuthor(postId);
      // Ids are lower case; a parent id that is not one of this post's comments is refused by the decider.
      const commentId = newIdFor(req, 'comment');
      const [result, author] = await Promise.all([
        run(
          postId,
          {
            type: 'ReplyToComment',
            data: {
              commentId,
              authorId,
              content,
              parentCommentId: parentCommentId.toLowerCase(),
              now: now(),
            },
          },
          authorId,
        ),
        authorOf(authorId),
      ]);
      res
        .status(201)
        .json({ ...commentDto(result.state, commentId, author), position: positionOf(result.position) });
    },
  );

  comments.delete('/:commentId', signedIn(M.mustBeLoggedIn), async (req, res) => {
    const commentId = uuidParam(req.params.commentId, M.commentNotFound);
    const actorId = currentUserId(req);
    const postId = await postOfComment(commentId);
    const result = await run(
      postId,
      {
        type: 'DeleteComment',
        data: { commentId, actorId, isAdmin: req.auth?.isAdmin ?? false, now: now() },
      },
      actorId,
    );
    res.json({ message: M.commentDeleted, position: positionOf(result.position) });
  });

  return { posts, comments };
}
