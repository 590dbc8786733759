import { COMMUNITY_LIMITS, type CommentDto, type LikeResponse, type PostDto } from '@pawhaven/contracts';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { api } from '../shared/api';

/** Calls of the community context. Every command answer carries `position`. */
const POSTS = '/api/posts';
const COMMENTS = '/api/comments';
const LIST_TIMEOUT_MS = 10_000;
/** Image uploads take longer than the client's default 5 s on a slow phone connection. */
const UPLOAD_TIMEOUT_MS = 30_000;

export const FEED_PAGE_SIZE = COMMUNITY_LIMITS.pageSizeDefault;

type Message = { message?: string; position?: string };
type FeedPage = { items: PostDto[]; total: number | null };
export type FeedData = InfiniteData<FeedPage, number>;

const id = (value: string) => encodeURIComponent(value);

export const communityApi = {
  /** One page of the feed, newest first, with the total in X-Total-Count. */
  feed: (page: number, signal?: AbortSignal) =>
    api.getPage<PostDto>(`${POSTS}?page=${page}&limit=${FEED_PAGE_SIZE}`, {
      timeoutMs: LIST_TIMEOUT_MS,
      signal,
    }),
  /** One post with all its comments. */
  post: (postId: string, signal?: AbortSignal) => api.get<PostDto>(`${POSTS}/${id(postId)}`, { signal }),
  byUser: (userId: string, signal?: AbortSignal) =>
    api.get<PostDto[]>(`${POSTS}/user/${id(userId)}`, { timeoutMs: LIST_TIMEOUT_MS, signal }),

  create: (form: FormData) =>
    api.post<Partial<PostDto> & Message>(POSTS, form, { timeoutMs: UPLOAD_TIMEOUT_MS }),
  editCaption: (postId: string, caption: string) =>
    api.put<Partial<PostDto> & Message>(`${POSTS}/${id(postId)}`, { caption }),
  remove: (postId: string) => api.delete<Message>(`${POSTS}/${id(postId)}`),
  /** The toggle: the server decides from the current state and answers the whole likes list. */
  like: (postId: string) => api.post<LikeResponse>(`${POSTS}/${id(postId)}/like`),

  comment: (postId: string, content: string) =>
    api.post<CommentDto & Message>(`${COMMENTS}/${id(postId)}`, { content }),
  reply: (postId: string, content: string, parentCommentId: string) =>
    api.post<CommentDto & Message>(`${COMMENTS}/${id(postId)}/comments`, { content, parentCommentId }),
  deleteComment: (commentId: string) => api.delete<Message>(`${COMMENTS}/${id(commentId)}`),
};

/**
 * Every cached post lives under ['posts', …]: the feed (pages), one post, and the lists of one user's posts
 * (own posts, and a public profile's Posts tab, which shows a failed load as an empty list).
 */
export const communityKeys = {
  all: ['posts'] as const,
  feed: () => ['posts', 'feed'] as const,
  detail: (postId: string) => ['posts', 'detail', postId] as const,
  lists: () => ['posts', 'list'] as const,
  mine: (userId: string) => ['posts', 'list', 'mine', userId] as const,
  ofUser: (userId: string) => ['posts', 'list', 'user', userId] as const,
};

/** A post as the pages use it: likes and comments always lists (a create answer may leave them out). */
export function normalisePost(post: Partial<PostDto> & Pick<PostDto, '_id'>): PostDto {
  const likes = post.likes ?? [];
  const comments = post.comments ?? [];
  return {
    id: post._id,
    userId: null,
    caption: '',
    imageUrl: '',
    createdAt: new Date().toISOString(),
    ...post,
    text: post.text ?? post.caption ?? '',
    updatedAt: post.updatedAt ?? post.createdAt ?? new Date().toISOString(),
    likes,
    comments,
    likeCount: post.likeCount ?? likes.length,
    commentCount: post.commentCount ?? comments.filter((c) => !c.deleted).length,
  } as PostDto;
}

/**
 * Changes one post in every cache at once (feed, the post page, the user lists); `change` answering null removes
 * it from the lists.
 */
export function patchPost(
  queryClient: QueryClient,
  postId: string,
  change: (post: PostDto) => PostDto | null,
) {
  const inList = (list: PostDto[]) =>
    list.some((p) => p._id === postId)
      ? list.flatMap((p) => {
          if (p._id !== postId) return [p];
          const next = change(p);
          return next ? [next] : [];
        })
      : list;
  queryClient.setQueriesData<FeedData>({ queryKey: communityKeys.feed() }, (old) =>
    old ? { ...old, pages: old.pages.map((page) => ({ ...page, items: inList(page.items) })) } : old,
  );
  queryClient.setQueriesData<PostDto[]>({ queryKey: communityKeys.lists() }, (old) =>
    Array.isArray(old) ? inList(old) : old,
  );
  queryClient.setQueryData<PostDto>(communityKeys.detail(postId), (old) =>
    old ? (change(old) ?? old) : old,
  );
}

/** A new post goes first in the feed; the other lists are read again. */
export function addToFeed(queryClient: QueryClient, post: PostDto) {
  queryClient.setQueriesData<FeedData>({ queryKey: communityKeys.feed() }, (old) => {
    if (!old || old.pages.length === 0) return old;
    if (old.pages.some((p) => p.items.some((x) => x._id === post._id))) return old;
    const [first, ...rest] = old.pages;
    return {
      ...old,
      pages: [
        { items: [post, ...first!.items], total: first!.total === null ? null : first!.total + 1 },
        ...rest,
      ],
    };
  });
  void queryClient.invalidateQueries({ queryKey: communityKeys.lists() });
}

/**
 * Before an optimistic change: stop reads under way so an answer from before the change cannot overwrite it.
 * Only queries that already hold data (a first load that is stopped would stay empty).
 */
export const holdReads = (queryClient: QueryClient) =>
  queryClient.cancelQueries({
    queryKey: communityKeys.all,
    predicate: (q) => q.state.data !== undefined,
  });
