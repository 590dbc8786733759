import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { COMMUNITY_MESSAGES, type CommentDto, type PostDto } from '@pawhaven/contracts';
import { newIdempotencyKey } from '../shared/api';
import { useSession } from '../shared/session';
import { useToast } from '../shared/toast';
import { communityApi, communityKeys, holdReads, patchPost } from './api';
import { authorFromUser, failureText, TEMP_PREFIX, userIdOf, withoutComment } from './format';

/**
 * Like toggle, optimistic: the heart turns at once, the server's likes list replaces ours when it answers, and a
 * failure puts the list back and is only logged. One toggle per post at a time.
 */
export function useLikePost() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const me = userIdOf(user);
  const inFlight = useRef(new Set<string>());
  const mutation = useMutation({
    mutationFn: (post: PostDto) => communityApi.like(post._id),
    onMutate: async (post) => {
      await holdReads(queryClient);
      const before = post.likes;
      const liked = me !== null && before.includes(me);
      const likes = liked ? before.filter((x) => x !== me) : [...before, me!];
      patchPost(queryClient, post._id, (p) => ({ ...p, likes, likeCount: likes.length }));
      return { before };
    },
    onSuccess: (res, post) => {
      const likes = Array.isArray(res?.likes) ? res.likes : null;
      if (likes)
        patchPost(queryClient, post._id, (p) => ({ ...p, likes, likeCount: res.likeCount ?? likes.length }));
    },
    onError: (err, post, context) => {
      console.error('Failed to like the post', err);
      if (context)
        patchPost(queryClient, post._id, (p) => ({
          ...p,
          likes: context.before,
          likeCount: context.before.length,
        }));
    },
    onSettled: (_res, _err, post) => {
      inFlight.current.delete(post._id);
    },
  });
  return {
    toggle(post: PostDto) {
      if (!me || inFlight.current.has(post._id)) return;
      inFlight.current.add(post._id);
      mutation.mutate(post);
    },
  };
}

type NewComment = {
  post: PostDto;
  content: string;
  parentCommentId: string | null;
  /** Called when the comment could not be sent (the draft goes back to its box). */
  onFailed?: () => void;
};

/**
 * A comment or a reply, optimistic: it shows at once under the post, is replaced by the server's comment when
 * that answers, and removed again on failure, which is only logged.
 */
export function useAddComment() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useMutation({
    mutationFn: ({ post, content, parentCommentId }: NewComment) =>
      parentCommentId
        ? communityApi.reply(post._id, content, parentCommentId)
        : communityApi.comment(post._id, content),
    onMutate: async ({ post, content, parentCommentId }) => {
      await holdReads(queryClient);
      const tempId = `${TEMP_PREFIX}${newIdempotencyKey()}`;
      const temp: CommentDto = {
        _id: tempId,
        id: tempId,
        postId: post._id,
        userId: user ? authorFromUser(user) : null,
        content,
        parentCommentId,
        deleted: false,
        createdAt: new Date().toISOString(),
      };
      patchPost(queryClient, post._id, (p) => ({
        ...p,
        comments: [...p.comments, temp],
        commentCount: p.commentCount + 1,
      }));
      return { tempId };
    },
    onSuccess: (res, { post, content, parentCommentId }, context) => {
      const saved: CommentDto = {
        ...res,
        _id: res._id,
        id: res.id ?? res._id,
        postId: res.postId ?? post._id,
        userId: res.userId ?? (user ? authorFromUser(user) : null),
        content: res.content ?? content,
        parentCommentId: res.parentCommentId ?? parentCommentId,
        deleted: false,
        createdAt: res.createdAt ?? new Date().toISOString(),
      };
      delete (saved as Partial<{ message: string; position: string }>).message;
      delete (saved as Partial<{ message: string; position: string }>).position;
      patchPost(queryClient, post._id, (p) => {
        const hadTemp = p.comments.some((c) => c._id === context.tempId);
        const rest = p.comments.filter((c) => c._id !== context.tempId);
        if (rest.some((c) => c._id === saved._id)) return { ...p, comments: rest };
        return {
          ...p,
          comments: [...rest, saved],
          commentCount: hadTemp ? p.commentCount : p.commentCount + 1,
        };
      });
    },
    onError: (err, { post, onFailed }, context) => {
      console.error('Failed to add the comment', err);
      if (context)
        patchPost(queryClient, post._id, (p) =>
          p.comments.some((c) => c._id === context.tempId)
            ? {
                ...p,
                comments: p.comments.filter((c) => c._id !== context.tempId),
                commentCount: Math.max(0, p.commentCount - 1),
              }
            : p,
        );
      onFailed?.();
    },
  });
}

/** Deletes one's own comment (after confirmation); with replies it stays as 'This comment was deleted'. */
export function useDeleteComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ comment }: { post: PostDto; comment: CommentDto }) =>
      communityApi.deleteComment(comment._id),
    onSuccess: (_res, { post, comment }) => {
      patchPost(queryClient, post._id, (p) =>
        p.comments.some((c) => c._id === comment._id && !c.deleted)
          ? {
              ...p,
              comments: withoutComment(p.comments, comment._id),
              commentCount: Math.max(0, p.commentCount - 1),
            }
          : p,
      );
    },
    onError: (err) => console.error('Failed to delete the comment', err),
  });
}

/** The author changes a caption (My Posts); the caller shows the failure. */
export function useEditCaption() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ post, caption }: { post: PostDto; caption: string }) =>
      communityApi.editCaption(post._id, caption),
    onSuccess: (res, { post, caption }) => {
      const next = res?.caption ?? caption;
      patchPost(queryClient, post._id, (p) => ({ ...p, caption: next, text: next }));
      void queryClient.invalidateQueries({ queryKey: communityKeys.all, refetchType: 'none' });
      toast(res?.message || COMMUNITY_MESSAGES.updated, 'success');
    },
  });
}

/** The author deletes a post (after confirmation). */
export function useDeletePost() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (post: PostDto) => communityApi.remove(post._id),
    onSuccess: (res, post) => {
      patchPost(queryClient, post._id, () => null);
      queryClient.removeQueries({ queryKey: communityKeys.detail(post._id) });
      void queryClient.invalidateQueries({ queryKey: communityKeys.all, refetchType: 'none' });
      toast(res?.message || COMMUNITY_MESSAGES.deleted, 'success');
    },
    onError: (err) => toast(failureText(err, COMMUNITY_MESSAGES.myPostsDeleteFailed), 'error', 6000),
  });
}
