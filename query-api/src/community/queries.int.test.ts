import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adoptionStream,
  COMMUNITY_LIMITS,
  COMMUNITY_MESSAGES as M,
  CONSISTENT_AFTER_HEADER,
  type AdoptionEvent,
  type CommentDto,
  type PostDto,
} from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import { startTestApp, type RegisteredUser, type TestApi, type TestApp } from '@pawhaven/testing';
import { communityLog, type CommunityLog } from '@pawhaven/projections/testing';

/**
 * The community reads over real HTTP. Events are appended straight to the log (the command routes are tested on
 * their own), then read back through GET /api/posts, /api/posts/{id}, /api/posts/user/{userId} and the profile.
 */

let t: TestApp;
let api: TestApi;
let store: PostgresEventStore;
let log: CommunityLog;
let alice: RegisteredUser;
let bob: RegisteredUser;
let last = 0n;

const track = async <T extends bigint | { position: bigint }>(r: Promise<T>): Promise<T> => {
  const v = await r;
  const position = typeof v === 'bigint' ? v : v.position;
  if (position > last) last = position;
  return v;
};
const consistent = () => ({ [CONSISTENT_AFTER_HEADER]: last.toString() });

const get = async <B>(path: string) => {
  const res = await api.get<B>(path, undefined, consistent());
  expect(res.headers.get('x-consistency')).toBe('consistent');
  return res;
};

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  store = new PostgresEventStore(t.db.pool);
  log = communityLog(store, { start: new Date('2025-01-01T00:00:00.000Z') });
  alice = await api.registerVerifiedUser();
  bob = await api.registerVerifiedUser({ isVeterinarian: true });
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

const POST_KEYS = [
  '_id',
  'caption',
  'commentCount',
  'comments',
  'createdAt',
  'id',
  'imageUrl',
  'likeCount',
  'likes',
  'text',
  'updatedAt',
  'userId',
];
const COMMENT_KEYS = ['_id', 'content', 'createdAt', 'deleted', 'id', 'parentCommentId', 'postId', 'userId'];

describe('GET /api/posts', () => {
  const published: { postId: string; at: string; author: RegisteredUser }[] = [];

  it('answers an empty page and X-Total-Count 0 before anyone posts', async () => {
    const res = await get<PostDto[]>('/api/posts');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total-count')).toBe('0');
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('pages newest first with page and limit (default 10); X-Total-Count is the total over all pages', async () => {
    for (let i = 0; i < 23; i++) {
      const author = i % 2 === 0 ? alice : bob;
      const at = log.tick();
      const { postId } = await track(
        log.publish(author.user._id, { at, caption: `Story ${i}`, vet: author === bob }),
      );
      published.push({ postId, at, author });
    }
    const newestFirst = [...published].reverse().map((p) => p.postId);

    const first = await get<PostDto[]>('/api/posts');
    expect(first.headers.get('x-total-count')).toBe('23');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-per-page')).toBe(String(COMMUNITY_LIMITS.pageSizeDefault));
    expect(first.body.map((p) => p._id)).toEqual(newestFirst.slice(0, 10));

    const third = await get<PostDto[]>('/api/posts?page=3');
    expect(third.body.map((p) => p._id)).toEqual(newestFirst.slice(20));
    const second = await get<PostDto[]>('/api/posts?page=2&limit=7');
    expect(second.body.map((p) => p._id)).toEqual(newestFirst.slice(7, 14));
    const all = await get<PostDto[]>(`/api/posts?limit=${COMMUNITY_LIMITS.pageSizeMax}`);
    expect(all.body.map((p) => p._id)).toEqual(newestFirst);
    const beyond = await get<PostDto[]>('/api/posts?page=99999999999999');
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total-count')).toBe('23');
  });

  it('refuses a page below 1 or a limit above the maximum with 400', async () => {
    for (const qs of [
      'page=0',
      `limit=${COMMUNITY_LIMITS.pageSizeMax + 1}`,
      'limit=0',
      'page=1.5',
      'limit=ten',
    ]) {
      const res = await api.get(`/api/posts?${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.message, qs).toEqual(expect.any(String));
    }
  });

  it('sends each post in its shape: author, likes (a set), counts, comments', async () => {
    const newest = published[published.length - 1]!; // Story 22, by Alice
    await track(log.like(newest.postId, bob.user._id));
    await track(log.like(newest.postId, alice.user._id));
    await track(log.like(newest.postId, bob.user._id)); // a repeated like changes nothing
    const { commentId } = await track(log.comment(newest.postId, bob.user._id, 'Lovely!'));
    const reply = await track(log.comment(newest.postId, alice.user._id, 'Thanks', commentId));

    const [post] = (await get<PostDto[]>('/api/posts?limit=1')).body;
    expect(Object.keys(post!).sort()).toEqual(POST_KEYS);
    expect(post).toEqual({
      _id: newest.postId,
      id: newest.postId,
      userId: {
        _id: alice.user._id,
        id: alice.user._id,
        username: alice.username,
        isVeterinarian: false,
        profileImage: null,
      },
      caption: 'Story 22',
      text: 'Story 22',
      imageUrl: expect.stringMatching(/^\/api\/images\//),
      likes: [bob.user._id, alice.user._id],
      likeCount: 2,
      commentCount: 2,
      comments: [
        {
          _id: commentId,
          id: commentId,
          postId: newest.postId,
          userId: {
            _id: bob.user._id,
            id: bob.user._id,
            username: bob.username,
            isVeterinarian: true,
            profileImage: null,
          },
          content: 'Lovely!',
          parentCommentId: null,
          deleted: false,
          createdAt: expect.any(String),
        },
        expect.objectContaining({
          _id: reply.commentId,
          parentCommentId: commentId,
          content: 'Thanks',
          deleted: false,
        }),
      ],
      createdAt: newest.at,
      updatedAt: newest.at,
    });
    for (const c of post!.comments) expect(Object.keys(c).sort()).toEqual(COMMENT_KEYS);
    expect(new Date(post!.comments[0]!.createdAt).toISOString()).toBe(post!.comments[0]!.createdAt);
    // A vet's post carries the vet badge on its author.
    const bobs = (await get<PostDto[]>('/api/posts?limit=2')).body[1]!;
    expect(bobs.userId).toMatchObject({ _id: bob.user._id, isVeterinarian: true });
  });

  it('shows a post whose author is gone with userId null (the page shows Unknown User)', async () => {
    const { postId } = await track(log.publish(`gone-${randomUUID()}`));
    const [post] = (await get<PostDto[]>('/api/posts?limit=1')).body;
    expect(post).toMatchObject({ _id: postId, userId: null });
    await track(log.deletePost(postId));
  });

  it(`sends at most ${COMMUNITY_LIMITS.feedCommentsPerPost} comments per post: the newest threads whole, oldest first`, async () => {
    const { postId } = await track(log.publish(alice.user._id, { caption: 'Busy' }));
    const threads: string[][] = [];
    for (let i = 0; i < 30; i++) {
      const top = await track(log.comment(postId, bob.user._id, `Top ${i}`));
      const reply = await track(log.comment(postId, alice.user._id, `Reply ${i}`, top.commentId));
      threads.push([top.commentId, reply.commentId]);
    }
    const [post] = (await get<PostDto[]>('/api/posts?limit=1')).body;
    expect(post!._id).toBe(postId);
    expect(post!.commentCount).toBe(60);
    expect(post!.comments).toHaveLength(COMMUNITY_LIMITS.feedCommentsPerPost);
    // Threads 5..29 (the newest 25) with their replies, oldest first.
    expect(post!.comments.map((c) => c._id)).toEqual(threads.slice(5).flat());

    const page = await get<PostDto>(`/api/posts/${postId}`);
    expect(page.body.comments.map((c) => c._id)).toEqual(threads.flat());
    expect(page.body.commentCount).toBe(60);
  });

  it('keeps a deleted comment with live replies (content empty, deleted) and drops one without', async () => {
    const { postId } = await track(log.publish(bob.user._id, { caption: 'Threads' }));
    const c1 = await track(log.comment(postId, alice.user._id, 'c1'));
    const c2 = await track(log.comment(postId, bob.user._id, 'c2', c1.commentId));
    const c3 = await track(log.comment(postId, alice.user._id, 'c3', c2.commentId));
    const c4 = await track(log.comment(postId, alice.user._id, 'c4'));
    await track(log.deleteComment(postId, c1.commentId));
    await track(log.deleteComment(postId, c2.commentId));
    await track(log.deleteComment(postId, c4.commentId));

    const expectThreads = (comments: CommentDto[]) => {
      expect(comments.map((c) => [c._id, c.content, c.deleted, c.parentCommentId])).toEqual([
        [c1.commentId, '', true, null],
        [c2.commentId, '', true, c1.commentId],
        [c3.commentId, 'c3', false, c2.commentId],
      ]);
    };
    const [inFeed] = (await get<PostDto[]>('/api/posts?limit=1')).body;
    expect(inFeed!.commentCount).toBe(1);
    expectThreads(inFeed!.comments);
    expectThreads((await get<PostDto>(`/api/posts/${postId}`)).body.comments);

    // The last live reply goes: the whole thread disappears.
    await track(log.deleteComment(postId, c3.commentId));
    const after = (await get<PostDto>(`/api/posts/${postId}`)).body;
    expect(after.comments).toEqual([]);
    expect(after.commentCount).toBe(0);
  });
});

describe('GET /api/posts/:id', () => {
  it('answers one post with all its comments', async () => {
    const { postId } = await track(log.publish(bob.user._id, { caption: 'One', vet: true }));
    await track(log.editCaption(postId, 'One, edited'));
    await track(log.comment(postId, alice.user._id, 'Nice'));
    const res = await get<PostDto>(`/api/posts/${postId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(POST_KEYS);
    expect(res.body).toMatchObject({
      _id: postId,
      caption: 'One, edited',
      text: 'One, edited',
      commentCount: 1,
      userId: { _id: bob.user._id, username: bob.username, isVeterinarian: true },
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(res.body.createdAt));
  });

  it("answers 404 'Post not found' for an unknown, a deleted or a malformed id", async () => {
    const { postId } = await track(log.publish(alice.user._id));
    await track(log.deletePost(postId));
    for (const id of [randomUUID(), postId, 'not-a-uuid', '123', `${randomUUID()}x`]) {
      const res = await get<{ message: string }>(`/api/posts/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.message, id).toBe(M.postNotFound);
    }
  });
});

describe('GET /api/posts/user/:userId', () => {
  it("answers the user's posts, newest first, and [] for someone without posts", async () => {
    const feed = (await get<PostDto[]>(`/api/posts?limit=${COMMUNITY_LIMITS.pageSizeMax}`)).body;
    const res = await get<PostDto[]>(`/api/posts/user/${alice.user._id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((p) => p._id)).toEqual(
      feed.filter((p) => p.userId?._id === alice.user._id).map((p) => p._id),
    );
    expect(res.body.length).toBeGreaterThan(10);
    for (const p of res.body) expect(p.userId?._id).toBe(alice.user._id);
    expect((await get(`/api/posts/user/${randomUUID()}`)).body).toEqual([]);
    expect((await get(`/api/posts/user/not-a-user`)).body).toEqual([]);
  });
});

describe('GET /api/auth/profile/:userId', () => {
  const publishAd = async (ownerId: string) => {
    const adId = randomUUID();
    const event: AdoptionEvent = {
      type: 'AdoptionAdPublished',
      data: {
        adId,
        ownerId,
        publishedAt: new Date().toISOString(),
        details: {
          name: 'Milo',
          age: '2',
          ageUnit: 'yrs',
          petType: 'Cat',
          breed: 'Persian',
          gender: null,
          size: null,
          vaccinated: null,
          spayedNeutered: null,
          goodWithChildren: null,
          goodWithDogs: null,
          goodWithCats: null,
          description: 'A calm cat.',
          location: 'Lahore',
          imageUrl: '/api/images/000000000000000000000000',
        },
      },
    };
    await track(
      store.append(adoptionStream(adId), [{ ...event, metadata: { actorId: ownerId } }], 'no_stream'),
    );
    return adId;
  };

  it('keeps success, message and data, and adds joinedDate, lastActive, postCount and adoptionAdCount', async () => {
    await publishAd(bob.user._id);
    const deleted = await publishAd(bob.user._id);
    await track(
      store.append(
        adoptionStream(deleted),
        [
          {
            type: 'AdoptionAdDeleted',
            data: { deletedAt: new Date().toISOString(), byAdmin: false },
            metadata: { actorId: bob.user._id },
          },
        ],
        'any',
      ),
    );
    const posts = (await get<PostDto[]>(`/api/posts/user/${bob.user._id}`)).body;

    const res = await get<{ success: boolean; message: string; data: Record<string, unknown> }>(
      `/api/auth/profile/${bob.user._id}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Profile loaded' });
    expect(res.body.data).toMatchObject({
      _id: bob.user._id,
      id: bob.user._id,
      username: bob.username,
      isVeterinarian: true,
      userType: 'Veterinarian',
      postCount: posts.length,
      adoptionAdCount: 1,
    });
    expect(posts.length).toBeGreaterThan(0);
    const joined = Date.parse(res.body.data.joinedDate as string);
    const active = Date.parse(res.body.data.lastActive as string);
    expect(joined).not.toBeNaN();
    expect(active).toBeGreaterThanOrEqual(joined);
    expect(res.body.data).not.toHaveProperty('email');

    const none = await get<{ data: Record<string, unknown> }>(`/api/auth/profile/${alice.user._id}`);
    expect(none.body.data).toMatchObject({ adoptionAdCount: 0 });
  });

  it('takes lastActive from the recorded activity when it is later than the last sign-in', async () => {
    const later = new Date(Date.now() + 3600_000);
    await t.db.pool.query(`UPDATE user_activity SET last_active = $2 WHERE user_id = $1`, [
      alice.user._id,
      later,
    ]);
    const res = await get<{ data: { lastActive: string } }>(`/api/auth/profile/${alice.user._id}`);
    expect(res.body.data.lastActive).toBe(later.toISOString());
    const own = await api.get<{ data: { lastActive: string } }>('/api/auth/profile', alice.token);
    expect(own.body.data.lastActive).toBe(later.toISOString());
  });

  it('answers 404 for an unknown user, as before', async () => {
    const res = await get<{ success: boolean }>(`/api/auth/profile/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });
});

describe('the feed kept in memory (ReadCache)', () => {
  type Feed = PostDto[];
  const profileImage = (feed: Feed, postId: string) =>
    (feed.find((p) => p._id === postId)?.userId as { profileImage?: string | null } | null)?.profileImage;

  it('answers repeated reads from memory and follows every like, comment, caption and author change', async () => {
    const { postId } = await track(log.publish(alice.user._id, { caption: 'Cached at first' }));
    const first = await get<Feed>('/api/posts');
    // Nothing changed: the same answer, byte for byte (whether from memory or not, it must not differ).
    const again = await get<Feed>('/api/posts');
    expect(again.body).toEqual(first.body);

    await track(log.like(postId, bob.user._id));
    expect((await get<Feed>('/api/posts')).body.find((p) => p._id === postId)?.likes).toEqual([bob.user._id]);

    await track(log.comment(postId, bob.user._id, 'Seen from memory?'));
    const withComment = (await get<Feed>('/api/posts')).body.find((p) => p._id === postId)!;
    expect(withComment.comments.map((c) => c.content)).toContain('Seen from memory?');

    await track(log.editCaption(postId, 'Edited after caching'));
    expect((await get<PostDto>(`/api/posts/${postId}`)).body.caption).toBe('Edited after caching');

    // The author's picture lives in another read model (users): its change shows too.
    await track(
      store.append(
        `user-${alice.user._id}`,
        [
          {
            type: 'ProfileImageChanged',
            data: { profileImage: '/api/images/aaaaaaaaaaaaaaaaaaaaaaaa' },
            metadata: { actorId: alice.user._id },
          },
        ],
        'any',
      ),
    );
    expect(profileImage((await get<Feed>('/api/posts')).body, postId)).toBe(
      '/api/images/aaaaaaaaaaaaaaaaaaaaaaaa',
    );
  });
});
