import { describe, it } from 'vitest';
import { COMMUNITY_MESSAGES as M, type PostEvent } from '@pawhaven/contracts';
import { deciderSpec } from '@pawhaven/platform/testing';
import { postDecider } from './post';

const given = deciderSpec(postDecider);
const now = new Date('2026-11-21T10:00:00.000Z');
const at = now.toISOString();
const earlier = '2026-11-20T09:00:00.000Z';
const imageUrl = '/api/images/aaaaaaaaaaaaaaaaaaaaaaaa';

const published: PostEvent = {
  type: 'PostPublished',
  data: {
    postId: 'p1',
    authorId: 'alice',
    authorIsVeterinarian: true,
    caption: 'Moti at the beach',
    imageUrl,
    publishedAt: earlier,
  },
};
const deleted: PostEvent = {
  type: 'PostDeleted',
  data: { postId: 'p1', authorId: 'alice', actorId: 'alice', byAdmin: false, deletedAt: earlier },
};
const comment = (commentId: string, authorId: string, parentCommentId: string | null = null): PostEvent => ({
  type: 'CommentAdded',
  data: {
    commentId,
    postId: 'p1',
    postAuthorId: 'alice',
    authorId,
    content: `${authorId} says hi`,
    parentCommentId,
    parentAuthorId: parentCommentId ? 'bob' : null,
    addedAt: earlier,
  },
});
const commentDeleted = (commentId: string, authorId: string): PostEvent => ({
  type: 'CommentDeleted',
  data: { commentId, postId: 'p1', authorId, actorId: authorId, byAdmin: false, deletedAt: earlier },
});

const publish = (postId = 'p1') => ({
  type: 'PublishPost' as const,
  data: {
    postId,
    authorId: 'alice',
    authorIsVeterinarian: true,
    caption: 'Moti at the beach',
    imageUrl,
    now,
  },
});
const edit = (actorId: string, caption = 'Moti in the sea') => ({
  type: 'EditCaption' as const,
  data: { actorId, caption, now },
});
const deletePost = (actorId: string, isAdmin = false) => ({
  type: 'DeletePost' as const,
  data: { actorId, isAdmin, now },
});
const addComment = (commentId: string, authorId: string, content = 'So cute!') => ({
  type: 'AddComment' as const,
  data: { commentId, authorId, content, now },
});
const reply = (commentId: string, authorId: string, parentCommentId: string) => ({
  type: 'ReplyToComment' as const,
  data: { commentId, authorId, content: 'Thanks!', parentCommentId, now },
});
const deleteComment = (commentId: string, actorId: string, isAdmin = false) => ({
  type: 'DeleteComment' as const,
  data: { commentId, actorId, isAdmin, now },
});

describe('PublishPost', () => {
  it('publishes a post carrying its author and whether they are a veterinarian', () =>
    given()
      .when(publish())
      .then([
        {
          type: 'PostPublished',
          data: {
            postId: 'p1',
            authorId: 'alice',
            authorIsVeterinarian: true,
            caption: 'Moti at the beach',
            imageUrl,
            publishedAt: at,
          },
        },
      ]));

  it('refuses a second publish on the same stream (a retried create)', () =>
    given(published).when(publish()).thenRefuses(409, 'This post exists already'));

  it('refuses to publish again over a deleted post', () =>
    given(published, deleted).when(publish()).thenRefuses(409, 'This post exists already'));
});

describe('EditCaption', () => {
  it('lets the author change the caption', () =>
    given(published)
      .when(edit('alice'))
      .then([
        {
          type: 'PostCaptionEdited',
          data: { postId: 'p1', authorId: 'alice', caption: 'Moti in the sea', editedAt: at },
        },
      ]));

  it('records nothing when the caption is unchanged', () =>
    given(published).when(edit('alice', 'Moti at the beach')).thenNothing());

  it('refuses anyone but the author, admins included', () => {
    given(published).when(edit('bob')).thenRefuses(403, M.notAuthor);
    given(published).when(edit('admin')).thenRefuses(403, M.notAuthor);
  });

  it('answers 404 for a post that does not exist or was deleted', () => {
    given().when(edit('alice')).thenRefuses(404, M.postNotFound);
    given(published, deleted).when(edit('alice')).thenRefuses(404, M.postNotFound);
  });
});

describe('DeletePost', () => {
  it('lets the author delete the post', () =>
    given(published)
      .when(deletePost('alice'))
      .then([
        {
          type: 'PostDeleted',
          data: { postId: 'p1', authorId: 'alice', actorId: 'alice', byAdmin: false, deletedAt: at },
        },
      ]));

  it('lets an admin delete anyone’s post, marked byAdmin', () =>
    given(published)
      .when(deletePost('admin', true))
      .then([
        {
          type: 'PostDeleted',
          data: { postId: 'p1', authorId: 'alice', actorId: 'admin', byAdmin: true, deletedAt: at },
        },
      ]));

  it('an admin deleting their own post is not byAdmin', () =>
    given(published)
      .when(deletePost('alice', true))
      .then([
        {
          type: 'PostDeleted',
          data: { postId: 'p1', authorId: 'alice', actorId: 'alice', byAdmin: false, deletedAt: at },
        },
      ]));

  it('refuses another user', () => given(published).when(deletePost('bob')).thenRefuses(403, M.notAuthor));

  it('answers 404 for an unknown post and for a second delete', () => {
    given().when(deletePost('alice')).thenRefuses(404, M.postNotFound);
    given(published, deleted).when(deletePost('alice')).thenRefuses(404, M.postNotFound);
    given(published, deleted).when(deletePost('admin', true)).thenRefuses(404, M.postNotFound);
  });
});

describe('AddComment', () => {
  it('adds a top-level comment carrying the post’s author for notifications', () =>
    given(published)
      .when(addComment('c1', 'bob'))
      .then([
        {
          type: 'CommentAdded',
          data: {
            commentId: 'c1',
            postId: 'p1',
            postAuthorId: 'alice',
            authorId: 'bob',
            content: 'So cute!',
            parentCommentId: null,
            parentAuthorId: null,
            addedAt: at,
          },
        },
      ]));

  it('lets the author comment on their own post', () =>
    given(published)
      .when(addComment('c1', 'alice'))
      .then([addedNow('c1', 'alice', null, null)]));

  it('answers 404 on a deleted or unknown post', () => {
    given(published, deleted).when(addComment('c1', 'bob')).thenRefuses(404, M.postNotFound);
    given().when(addComment('c1', 'bob')).thenRefuses(404, M.postNotFound);
  });

  it('refuses a comment id that exists already (a retried create)', () =>
    given(published, comment('c1', 'bob'))
      .when(addComment('c1', 'bob'))
      .thenRefuses(409, 'This comment exists already'));
});

describe('ReplyToComment', () => {
  it('replies to a comment of the same post, naming the parent’s author', () =>
    given(published, comment('c1', 'bob'))
      .when(reply('c2', 'alice', 'c1'))
      .then([
        {
          type: 'CommentAdded',
          data: {
            commentId: 'c2',
            postId: 'p1',
            postAuthorId: 'alice',
            authorId: 'alice',
            content: 'Thanks!',
            parentCommentId: 'c1',
            parentAuthorId: 'bob',
            addedAt: at,
          },
        },
      ]));

  it('nests: a reply to a reply', () =>
    given(published, comment('c1', 'bob'), comment('c2', 'carol', 'c1'))
      .when(reply('c3', 'bob', 'c2'))
      .then([
        {
          type: 'CommentAdded',
          data: {
            commentId: 'c3',
            postId: 'p1',
            postAuthorId: 'alice',
            authorId: 'bob',
            content: 'Thanks!',
            parentCommentId: 'c2',
            parentAuthorId: 'carol',
            addedAt: at,
          },
        },
      ]));

  it('may answer a deleted comment: it keeps its place in the thread', () =>
    given(published, comment('c1', 'bob'), commentDeleted('c1', 'bob'))
      .when(reply('c2', 'carol', 'c1'))
      .then([addedNow('c2', 'carol', 'c1', 'bob', 'Thanks!')]));

  it('refuses a parent that is not a comment of this post', () => {
    given(published)
      .when(reply('c2', 'bob', 'elsewhere'))
      .thenRefuses(400, M.parentNotInPost);
    given(published, comment('c1', 'bob'))
      .when(reply('c2', 'bob', 'p1'))
      .thenRefuses(400, M.parentNotInPost);
  });

  it('answers 404 on a deleted or unknown post, before looking at the parent', () => {
    given(published, comment('c1', 'bob'), deleted)
      .when(reply('c2', 'carol', 'c1'))
      .thenRefuses(404, M.postNotFound);
    given()
      .when(reply('c2', 'carol', 'c1'))
      .thenRefuses(404, M.postNotFound);
  });

  it('refuses a reply id that exists already', () =>
    given(published, comment('c1', 'bob'), comment('c2', 'carol', 'c1'))
      .when(reply('c2', 'carol', 'c1'))
      .thenRefuses(409, 'This comment exists already'));
});

describe('DeleteComment', () => {
  it('lets the comment’s author delete it', () =>
    given(published, comment('c1', 'bob'))
      .when(deleteComment('c1', 'bob'))
      .then([
        {
          type: 'CommentDeleted',
          data: {
            commentId: 'c1',
            postId: 'p1',
            authorId: 'bob',
            actorId: 'bob',
            byAdmin: false,
            deletedAt: at,
          },
        },
      ]));

  it('lets an admin delete anyone’s comment, marked byAdmin', () =>
    given(published, comment('c1', 'bob'))
      .when(deleteComment('c1', 'admin', true))
      .then([
        {
          type: 'CommentDeleted',
          data: {
            commentId: 'c1',
            postId: 'p1',
            authorId: 'bob',
            actorId: 'admin',
            byAdmin: true,
            deletedAt: at,
          },
        },
      ]));

  it('refuses the post’s author and any other user', () => {
    given(published, comment('c1', 'bob'))
      .when(deleteComment('c1', 'alice'))
      .thenRefuses(403, M.notCommentAuthor);
    given(published, comment('c1', 'bob'))
      .when(deleteComment('c1', 'carol'))
      .thenRefuses(403, M.notCommentAuthor);
  });

  it('deleting twice is 404', () =>
    given(published, comment('c1', 'bob'), commentDeleted('c1', 'bob'))
      .when(deleteComment('c1', 'bob'))
      .thenRefuses(404, M.commentNotFound));

  it('answers 404 for a comment that is not in this post', () =>
    given(published).when(deleteComment('c9', 'bob')).thenRefuses(404, M.commentNotFound));

  it('answers 404 once the post is deleted: its comments went with it', () =>
    given(published, comment('c1', 'bob'), deleted)
      .when(deleteComment('c1', 'bob'))
      .thenRefuses(404, M.commentNotFound));

  it('deleting a comment with replies leaves the replies in place', () =>
    given(published, comment('c1', 'bob'), comment('c2', 'carol', 'c1'), commentDeleted('c1', 'bob'))
      .when(reply('c3', 'alice', 'c2'))
      .then([addedNow('c3', 'alice', 'c2', 'carol', 'Thanks!')]));
});

function addedNow(
  commentId: string,
  authorId: string,
  parentCommentId: string | null,
  parentAuthorId: string | null,
  content = 'So cute!',
): PostEvent {
  return {
    type: 'CommentAdded',
    data: {
      commentId,
      postId: 'p1',
      postAuthorId: 'alice',
      authorId,
      content,
      parentCommentId,
      parentAuthorId,
      addedAt: at,
    },
  };
}
