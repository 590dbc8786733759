import { COMMUNITY_MESSAGES as M, type PostEvent } from '@pawhaven/contracts';
import { badRequest, conflict, forbidden, notFound } from '@pawhaven/platform';

/**
 * The community post aggregate, stream `post-{postId}`, with its comments inside: a reply's parent is checked
 * against this post's own comments, and deleting the post closes every thread at the same revision. Likes live in
 * their own per-user streams (post-like.ts).
 */

export type PostCommand =
  | {
      type: 'PublishPost';
      data: {
        postId: string;
        authorId: string;
        authorIsVeterinarian: boolean;
        caption: string;
        imageUrl: string;
        now: Date;
      };
    }
  | { type: 'EditCaption'; data: { actorId: string; caption: string; now: Date } }
  | { type: 'DeletePost'; data: { actorId: string; isAdmin: boolean; now: Date } }
  | { type: 'AddComment'; data: { commentId: string; authorId: string; content: string; now: Date } }
  | {
      type: 'ReplyToComment';
      data: { commentId: string; authorId: string; content: string; parentCommentId: string; now: Date };
    }
  | { type: 'DeleteComment'; data: { commentId: string; actorId: string; isAdmin: boolean; now: Date } };

type CommentState = {
  authorId: string;
  content: string;
  parentCommentId: string | null;
  addedAt: string;
  deleted: boolean;
};

export type PostState = {
  status: 'none' | 'published' | 'deleted';
  postId: string;
  authorId: string;
  authorIsVeterinarian: boolean;
  caption: string;
  imageUrl: string;
  publishedAt: string;
  updatedAt: string;
  /** Every comment ever added, deleted ones included (a reply may still hang from them). */
  comments: Record<string, CommentState>;
};

const initialPostState = (): PostState => ({
  status: 'none',
  postId: '',
  authorId: '',
  authorIsVeterinarian: false,
  caption: '',
  imageUrl: '',
  publishedAt: '',
  updatedAt: '',
  comments: {},
});

function evolvePost(state: PostState, event: PostEvent): PostState {
  switch (event.type) {
    case 'PostPublished': {
      const d = event.data;
      return {
        ...state,
        status: 'published',
        postId: d.postId,
        authorId: d.authorId,
        authorIsVeterinarian: d.authorIsVeterinarian,
        caption: d.caption,
        imageUrl: d.imageUrl,
        publishedAt: d.publishedAt,
        updatedAt: d.publishedAt,
      };
    }
    case 'PostCaptionEdited':
      return { ...state, caption: event.data.caption, updatedAt: event.data.editedAt };
    case 'PostDeleted':
      return { ...state, status: 'deleted', updatedAt: event.data.deletedAt };
    case 'CommentAdded': {
      const d = event.data;
      return {
        ...state,
        comments: {
          ...state.comments,
          [d.commentId]: {
            authorId: d.authorId,
            content: d.content,
            parentCommentId: d.parentCommentId,
            addedAt: d.addedAt,
            deleted: false,
          },
        },
      };
    }
    case 'CommentDeleted': {
      const c = state.comments[event.data.commentId];
      return c
        ? { ...state, comments: { ...state.comments, [event.data.commentId]: { ...c, deleted: true } } }
        : state;
    }
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

function decidePost(command: PostCommand, state: PostState): PostEvent[] {
  const at = command.data.now.toISOString();
  const live = () => {
    if (state.status !== 'published') throw notFound(M.postNotFound);
  };
  const authorOnly = (actorId: string) => {
    if (actorId !== state.authorId) throw forbidden(M.notAuthor);
  };
  const newComment = (commentId: string) => {
    if (state.comments[commentId]) throw conflict('This comment exists already');
  };

  switch (command.type) {
    case 'PublishPost': {
      if (state.status !== 'none') throw conflict('This post exists already');
      const d = command.data;
      return [
        {
          type: 'PostPublished',
          data: {
            postId: d.postId,
            authorId: d.authorId,
            authorIsVeterinarian: d.authorIsVeterinarian,
            caption: d.caption,
            imageUrl: d.imageUrl,
            publishedAt: at,
          },
        },
      ];
    }
    case 'EditCaption': {
      live();
      authorOnly(command.data.actorId);
      if (command.data.caption === state.caption) return [];
      return [
        {
          type: 'PostCaptionEdited',
          data: {
            postId: state.postId,
            authorId: state.authorId,
            caption: command.data.caption,
            editedAt: at,
          },
        },
      ];
    }
    case 'DeletePost': {
      live();
      const { actorId, isAdmin } = command.data;
      if (!isAdmin) authorOnly(actorId);
      return [
        {
          type: 'PostDeleted',
          data: {
            postId: state.postId,
            authorId: state.authorId,
            actorId,
            byAdmin: isAdmin && actorId !== state.authorId,
            deletedAt: at,
          },
        },
      ];
    }
    case 'AddComment': {
      live();
      const d = command.data;
      newComment(d.commentId);
      return [
        {
          type: 'CommentAdded',
          data: {
            commentId: d.commentId,
            postId: state.postId,
            postAuthorId: state.authorId,
            authorId: d.authorId,
            content: d.content,
            parentCommentId: null,
            parentAuthorId: null,
            addedAt: at,
          },
        },
      ];
    }
    case 'ReplyToComment': {
      live();
      const d = command.data;
      // A deleted parent still holds its place in the thread ('This comment was deleted'), so it can be answered.
      const parent = state.comments[d.parentCommentId];
      if (!parent) throw badRequest(M.parentNotInPost);
      newComment(d.commentId);
      return [
        {
          type: 'CommentAdded',
          data: {
            commentId: d.commentId,
            postId: state.postId,
            postAuthorId: state.authorId,
            authorId: d.authorId,
            content: d.content,
            parentCommentId: d.parentCommentId,
            parentAuthorId: parent.authorId,
            addedAt: at,
          },
        },
      ];
    }
    case 'DeleteComment': {
      const { commentId, actorId, isAdmin } = command.data;
      const comment = state.comments[commentId];
      // The comments of a deleted post are gone with it.
      if (state.status !== 'published' || !comment || comment.deleted) throw notFound(M.commentNotFound);
      if (!isAdmin && actorId !== comment.authorId) throw forbidden(M.notCommentAuthor);
      return [
        {
          type: 'CommentDeleted',
          data: {
            commentId,
            postId: state.postId,
            authorId: comment.authorId,
            actorId,
            byAdmin: isAdmin && actorId !== comment.authorId,
            deletedAt: at,
          },
        },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const postDecider = { initialState: initialPostState, evolve: evolvePost, decide: decidePost };
