import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMUNITY_LIMITS, COMMUNITY_MESSAGES as M, CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import { allProjections } from '@pawhaven/projections';
import { COMMENTS_PROJECTION } from '../ports/read-models';
import { recordedEvents } from '@pawhaven/platform/testing';
import {
  startTestApp,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * The write side of community posts, likes and comments over real HTTP, on a fresh PostgreSQL database with the
 * real projector running. Every refusal is checked to append no event and keep no image.
 */

let t: TestApp;
let api: TestApi;
let alice: RegisteredUser; // a veterinarian
let bob: RegisteredUser;
let carol: RegisteredUser;
let adminToken: string;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  [alice, bob, carol] = await Promise.all([
    api.registerVerifiedUser({ isVeterinarian: true }),
    api.registerVerifiedUser(),
    api.registerVerifiedUser(),
  ]);
  adminToken = (await t.signInAdmin()).token;
});
afterAll(async () => {
  await t?.stop();
});

// ---------------------------------------------------------------------------------------------- helpers

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_ID = '0b6f6d0c-6a43-4e3b-9d2e-6a3b9f2c1d00';

const count = async (table: 'events' | 'images') =>
  Number((await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

/** Runs `fn` and checks it appended no event and kept no image. */
async function appendsNothing<T>(fn: () => Promise<T>): Promise<T> {
  const [head, images] = [await lastPosition(), await count('images')];
  const result = await fn();
  const appended = await rows<{ stream_id: string; type: string }>(
    'SELECT stream_id, type FROM events WHERE position > $1 ORDER BY position',
    [head],
  );
  expect(appended).toEqual([]);
  expect(await count('images')).toBe(images);
  return result;
}

const lastPosition = async () =>
  (await t.db.pool.query<{ p: string }>('SELECT coalesce(max(position), 0) AS p FROM events')).rows[0]!.p;

/** Expects a refusal with exactly this status and message, which appended nothing and kept no image. */
async function refused(call: () => Promise<ApiResponse>, status: number, message: string) {
  const res = await appendsNothing(call);
  expect({ status: res.status, message: res.body?.message }, res.text).toEqual({ status, message });
  expect(res.body.error).toBe(message);
  return res;
}

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp' | 'tiff', width = 64, height = 48) => {
  const blank = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });
  return blank[format]().toBuffer();
};

const file = (bytes: Uint8Array, type = 'image/png', filename = 'pet.png') => ({
  field: 'image',
  bytes,
  filename,
  type,
});

const upload = async (
  user: RegisteredUser | undefined,
  fields: Record<string, string>,
  bytes?: Uint8Array,
  type = 'image/png',
  filename = 'pet.png',
) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (bytes) form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
  return api.request('POST', '/api/posts', { form, token: user?.token });
};

async function createPost(user: RegisteredUser, caption = 'Moti found a home 🐶') {
  const res = await api.upload('/api/posts', file(await image('png')), user.token, { caption });
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

async function addComment(user: RegisteredUser, postId: string, content = 'So cute!') {
  const res = await api.post(`/api/comments/${postId}`, { content }, user.token);
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

async function reply(user: RegisteredUser, postId: string, parentCommentId: string, content = 'Thank you!') {
  const res = await api.post(`/api/comments/${postId}/comments`, { content, parentCommentId }, user.token);
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

const like = (user: RegisteredUser | undefined, postId: string) =>
  api.post(`/api/posts/${postId}/like`, undefined, user?.token);

/** A stream's events as the app reads them (personal fields opened). */
const eventsOf = async (streamId: string) =>
  (await recordedEvents(t.db, streamId)).map(({ type, data, metadata }) => ({ type, data, metadata })) as {
    type: string;
    data: Json;
    metadata: Json;
  }[];

/** Waits until every projection has passed `position`. */
async function settle(position: string) {
  const res = await api.get('/api/config', undefined, { [CONSISTENT_AFTER_HEADER]: position });
  expect(res.headers.get('x-consistency')).toBe('consistent');
}

const rows = async <R extends object>(sql: string, params: unknown[] = []) =>
  (await t.db.pool.query<R & object>(sql, params)).rows as R[];

// ---------------------------------------------------------------------------------------------- POST /api/posts

describe('POST /api/posts (create)', () => {
  it('publishes a post with a PNG: the post, its author object, no likes or comments, message and position', async () => {
    const created = await createPost(alice, '  Moti at the beach  ');
    expect(created).toEqual({
      _id: expect.stringMatching(UUID),
      id: created._id,
      userId: {
        _id: alice.user._id,
        id: alice.user._id,
        username: alice.username,
        isVeterinarian: true,
        profileImage: null,
      },
      caption: 'Moti at the beach',
      text: 'Moti at the beach',
      imageUrl: expect.stringMatching(/^\/api\/images\/[a-f0-9]{24}$/),
      likes: [],
      likeCount: 0,
      commentCount: 0,
      comments: [],
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
      message: M.created,
      position: expect.stringMatching(/^\d+$/),
    });

    const events = await eventsOf(`post-${created._id}`);
    expect(events).toEqual([
      {
        type: 'PostPublished',
        data: {
          postId: created._id,
          authorId: alice.user._id,
          authorIsVeterinarian: true,
          caption: 'Moti at the beach',
          imageUrl: created.imageUrl,
          publishedAt: created.createdAt,
        },
        metadata: expect.objectContaining({ actorId: alice.user._id }),
      },
    ]);
    // The image is kept for good (no longer staged) and served.
    const [img] = await rows<{ staged_for: string | null; content_type: string }>(
      'SELECT staged_for, content_type FROM images WHERE id = $1',
      [created.imageUrl.split('/').pop()],
    );
    expect(img).toEqual({ staged_for: null, content_type: 'image/webp' });
    const served = await api.get(created.imageUrl);
    expect(served.status).toBe(200);

    await settle(created.position);
    const [row] = await rows('SELECT author_id, caption, author_is_veterinarian FROM posts WHERE id = $1', [
      created._id,
    ]);
    expect(row).toEqual({
      author_id: alice.user._id,
      caption: 'Moti at the beach',
      author_is_veterinarian: true,
    });
  });

  it('a regular user’s post is not marked as a veterinarian’s', async () => {
    const created = await createPost(bob);
    expect(created.userId).toMatchObject({ _id: bob.user._id, isVeterinarian: false });
    const [event] = await eventsOf(`post-${created._id}`);
    expect(event!.data.authorIsVeterinarian).toBe(false);
  });

  it('accepts JPEG and GIF images, checked by their content', async () => {
    const jpeg = await upload(bob, { caption: 'jpeg' }, await image('jpeg'), 'image/jpeg', 'a.jpg');
    expect(jpeg.status, jpeg.text).toBe(201);
    // The declared type and name do not matter: the bytes do.
    const gif = await upload(
      bob,
      { caption: 'gif' },
      await image('gif'),
      'application/octet-stream',
      'a.bin',
    );
    expect(gif.status, gif.text).toBe(201);
    expect(gif.body.imageUrl).toMatch(/^\/api\/images\/[a-f0-9]{24}$/);
  });

  it('refuses other image formats (WebP, TIFF) and non-images with 415, keeping nothing', async () => {
    await refused(
      async () => upload(bob, { caption: 'webp' }, await image('webp'), 'image/png', 'a.png'),
      415,
      M.imageInvalid,
    );
    await refused(
      async () => upload(bob, { caption: 'tiff' }, await image('tiff'), 'image/tiff', 'a.tiff'),
      415,
      M.imageInvalid,
    );
    await refused(
      () => upload(bob, { caption: 'text' }, new TextEncoder().encode('not an image at all'), 'image/png'),
      415,
      M.imageInvalid,
    );
  });

  it('enforces 10 MB on the server: 10 MB + 1 byte is 413', async () => {
    const big = new Uint8Array(COMMUNITY_LIMITS.imageMaxBytes + 1);
    big.set(await image('png'));
    await refused(() => upload(bob, { caption: 'big' }, big), 413, M.imageTooLarge);
  });

  it('requires a caption and an image, with their fixed messages', async () => {
    const png = await image('png');
    await refused(() => upload(bob, {}, png), 400, M.captionRequired);
    await refused(() => upload(bob, { caption: '   \n\t ' }, png), 400, M.captionRequired);
    await refused(
      () => upload(bob, { caption: 'x'.repeat(COMMUNITY_LIMITS.captionMaxLength + 1) }, png),
      400,
      M.captionTooLong,
    );
    await refused(() => upload(bob, { caption: 'No picture' }), 400, M.imageRequired);
    // A JSON body carries no image.
    await refused(() => api.post('/api/posts', { caption: 'JSON' }, bob.token), 400, M.imageRequired);
  });

  it('refuses visitors (401) before reading the upload', async () => {
    await refused(
      async () => upload(undefined, { caption: 'hi' }, await image('png')),
      401,
      M.mustBeLoggedIn,
    );
    await refused(
      async () => api.upload('/api/posts', file(await image('png')), 'not-a-token', { caption: 'hi' }),
      401,
      'Invalid or expired token',
    );
  });

  it('a retry with the same Idempotency-Key answers the first post again and creates nothing more', async () => {
    const png = await image('png');
    const send = () => {
      const form = new FormData();
      form.append('caption', 'Only once');
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
      return api.request('POST', '/api/posts', {
        form,
        token: bob.token,
        headers: { 'Idempotency-Key': 'create-post-once' },
      });
    };
    const first = await send();
    expect(first.status, first.text).toBe(201);
    const second = await appendsNothing(send);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body._id).toBe(first.body._id);
    expect(await eventsOf(`post-${first.body._id}`)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------- PUT /api/posts/:id

describe('PUT /api/posts/:id (edit caption)', () => {
  it('lets the author change the caption (trimmed)', async () => {
    const post = await createPost(alice, 'Before');
    const res = await api.put(`/api/posts/${post._id}`, { caption: '  After  ' }, alice.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      _id: post._id,
      caption: 'After',
      text: 'After',
      imageUrl: post.imageUrl,
      userId: { _id: alice.user._id, username: alice.username, isVeterinarian: true },
      createdAt: post.createdAt,
      message: M.updated,
      position: expect.stringMatching(/^\d+$/),
    });
    expect(res.body.updatedAt > post.createdAt || res.body.updatedAt === post.createdAt).toBe(true);
    const events = await eventsOf(`post-${post._id}`);
    expect(events.map((e) => e.type)).toEqual(['PostPublished', 'PostCaptionEdited']);
    expect(events[1]!.data).toMatchObject({ postId: post._id, authorId: alice.user._id, caption: 'After' });

    await settle(res.body.position);
    const [row] = await rows<{ caption: string }>('SELECT caption FROM posts WHERE id = $1', [post._id]);
    expect(row!.caption).toBe('After');
  });

  it('an unchanged caption records nothing', async () => {
    const post = await createPost(alice, 'Same');
    const res = await appendsNothing(() =>
      api.put(`/api/posts/${post._id}`, { caption: 'Same' }, alice.token),
    );
    expect(res.status).toBe(200);
    expect(res.body.position).toBeUndefined();
  });

  it('refuses other users and admins (403), empty captions (400), unknown and deleted posts (404)', async () => {
    const post = await createPost(alice, 'Mine');
    const put = (token: string | undefined, body: unknown, id = post._id) =>
      api.put(`/api/posts/${id}`, body, token);
    await refused(() => put(bob.token, { caption: 'Hijack' }), 403, M.notAuthor);
    await refused(() => put(adminToken, { caption: 'Admin edit' }), 403, M.notAuthor);
    await refused(() => put(undefined, { caption: 'Visitor' }), 401, M.mustBeLoggedIn);
    await refused(() => put(alice.token, { caption: '   ' }), 400, M.captionRequired);
    await refused(() => put(alice.token, {}), 400, M.captionRequired);
    await refused(
      () => put(alice.token, { caption: 'y'.repeat(COMMUNITY_LIMITS.captionMaxLength + 1) }),
      400,
      M.captionTooLong,
    );
    await refused(() => put(alice.token, { caption: 'x' }, UNKNOWN_ID), 404, M.postNotFound);
    await refused(() => put(alice.token, { caption: 'x' }, 'not-a-uuid'), 404, M.postNotFound);
    expect((await api.del(`/api/posts/${post._id}`, alice.token)).status).toBe(200);
    await refused(() => put(alice.token, { caption: 'Too late' }), 404, M.postNotFound);
  });
});

// ---------------------------------------------------------------------------------------------- DELETE /api/posts/:id

describe('DELETE /api/posts/:id', () => {
  it('lets the author delete the post; a second delete is 404', async () => {
    const post = await createPost(bob);
    const res = await api.del(`/api/posts/${post._id}`, bob.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: M.deleted, position: expect.stringMatching(/^\d+$/) });
    const events = await eventsOf(`post-${post._id}`);
    expect(events[1]).toMatchObject({
      type: 'PostDeleted',
      data: { postId: post._id, authorId: bob.user._id, actorId: bob.user._id, byAdmin: false },
    });
    await refused(() => api.del(`/api/posts/${post._id}`, bob.token), 404, M.postNotFound);
    await settle(res.body.position);
    expect(await rows('SELECT id FROM posts WHERE id = $1', [post._id])).toEqual([]);
  });

  it('lets an admin delete anyone’s post (byAdmin); refuses other users', async () => {
    const post = await createPost(bob);
    await refused(() => api.del(`/api/posts/${post._id}`, carol.token), 403, M.notAuthor);
    await refused(() => api.del(`/api/posts/${post._id}`), 401, M.mustBeLoggedIn);
    const res = await api.del(`/api/posts/${post._id}`, adminToken);
    expect(res.status, res.text).toBe(200);
    const events = await eventsOf(`post-${post._id}`);
    expect(events[1]).toMatchObject({ type: 'PostDeleted', data: { authorId: bob.user._id, byAdmin: true } });
    await refused(() => api.del(`/api/posts/${post._id}`, adminToken), 404, M.postNotFound);
  });

  it('answers 404 for unknown ids and ids that are not UUIDs', async () => {
    await refused(() => api.del(`/api/posts/${UNKNOWN_ID}`, bob.token), 404, M.postNotFound);
    await refused(() => api.del('/api/posts/12345', bob.token), 404, M.postNotFound);
  });
});

// ---------------------------------------------------------------------------------------------- POST /api/posts/:id/like

describe('POST /api/posts/:id/like (toggle)', () => {
  it('likes, then unlikes; each answer carries the whole likes list, the count and a position', async () => {
    const post = await createPost(alice);
    const first = await like(bob, post._id);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      liked: true,
      likes: [bob.user._id],
      likeCount: 1,
      position: expect.stringMatching(/^\d+$/),
    });
    await settle(first.body.position);
    // Carol sees Bob's like (from the read model) and her own on top.
    const second = await like(carol, post._id);
    expect(second.body).toMatchObject({ liked: true, likes: [bob.user._id, carol.user._id], likeCount: 2 });
    // The list comes from the read model (plus the caller's own toggle): let Carol's like reach it first.
    await settle(second.body.position);
    const third = await like(bob, post._id);
    expect(third.body).toMatchObject({ liked: false, likes: [carol.user._id], likeCount: 1 });

    const events = await eventsOf(`post-like-${post._id}-${bob.user._id}`);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'PostLiked',
        { postId: post._id, postAuthorId: alice.user._id, userId: bob.user._id, likedAt: expect.any(String) },
      ],
      [
        'PostUnliked',
        {
          postId: post._id,
          postAuthorId: alice.user._id,
          userId: bob.user._id,
          unlikedAt: expect.any(String),
        },
      ],
    ]);
    expect(events[0]!.metadata).toMatchObject({ actorId: bob.user._id });
    // Likes do not touch the post's own stream.
    expect(await eventsOf(`post-${post._id}`)).toHaveLength(1);

    await settle(third.body.position);
    const likes = await rows<{ user_id: string }>('SELECT user_id FROM post_likes WHERE post_id = $1', [
      post._id,
    ]);
    expect(likes).toEqual([{ user_id: carol.user._id }]);
    const [row] = await rows<{ like_count: number }>('SELECT like_count FROM posts WHERE id = $1', [
      post._id,
    ]);
    expect(row!.like_count).toBe(1);
  });

  it('an author may like their own post', async () => {
    const post = await createPost(alice);
    const res = await like(alice, post._id);
    expect(res.body).toMatchObject({ liked: true, likes: [alice.user._id] });
  });

  it('ignores any body', async () => {
    const post = await createPost(alice);
    const res = await api.post(`/api/posts/${post._id}/like`, { liked: false, likes: ['x'] }, bob.token);
    expect(res.body).toMatchObject({ liked: true, likes: [bob.user._id] });
  });

  it('answers 404 for a deleted, unknown or malformed post, and 401 to visitors', async () => {
    const post = await createPost(alice);
    await refused(() => like(undefined, post._id), 401, M.mustBeLoggedIn);
    expect((await like(bob, post._id)).status).toBe(200);
    expect((await api.del(`/api/posts/${post._id}`, alice.token)).status).toBe(200);
    await refused(() => like(bob, post._id), 404, M.postNotFound); // unliking a deleted post: 404 too
    await refused(() => like(carol, post._id), 404, M.postNotFound);
    await refused(() => like(bob, UNKNOWN_ID), 404, M.postNotFound);
    await refused(() => like(bob, 'abc'), 404, M.postNotFound);
  });
});

// ---------------------------------------------------------------------------------------------- comments

describe('POST /api/comments/:postId (comment)', () => {
  it('adds a comment (trimmed) and answers it with its author and a position', async () => {
    const post = await createPost(alice);
    const res = await api.post(`/api/comments/${post._id}`, { content: '  What a good boy!  ' }, bob.token);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      _id: expect.stringMatching(UUID),
      id: res.body._id,
      postId: post._id,
      userId: {
        _id: bob.user._id,
        id: bob.user._id,
        username: bob.username,
        isVeterinarian: false,
        profileImage: null,
      },
      content: 'What a good boy!',
      parentCommentId: null,
      deleted: false,
      createdAt: expect.any(String),
      position: expect.stringMatching(/^\d+$/),
    });
    const events = await eventsOf(`post-${post._id}`);
    expect(events[1]).toEqual({
      type: 'CommentAdded',
      data: {
        commentId: res.body._id,
        postId: post._id,
        postAuthorId: alice.user._id,
        authorId: bob.user._id,
        content: 'What a good boy!',
        parentCommentId: null,
        parentAuthorId: null,
        addedAt: res.body.createdAt,
      },
      metadata: expect.objectContaining({ actorId: bob.user._id }),
    });
    await settle(res.body.position);
    const [row] = await rows(
      'SELECT post_id, author_id, content, parent_comment_id FROM post_comments WHERE id = $1',
      [res.body._id],
    );
    expect(row).toEqual({
      post_id: post._id,
      author_id: bob.user._id,
      content: 'What a good boy!',
      parent_comment_id: null,
    });
  });

  it('refuses empty or too long text (400), deleted or unknown posts (404), visitors (401)', async () => {
    const post = await createPost(alice);
    const comment = (body: unknown, token: string | null = bob.token, id = post._id) =>
      api.post(`/api/comments/${id}`, body, token ?? undefined);
    await refused(() => comment({ content: '   ' }), 400, M.contentRequired);
    await refused(() => comment({}), 400, M.contentRequired);
    await refused(() => comment({ content: 42 }), 400, M.contentRequired);
    await refused(
      () => comment({ content: 'c'.repeat(COMMUNITY_LIMITS.commentMaxLength + 1) }),
      400,
      M.contentTooLong,
    );
    await refused(() => comment({ content: 'Hi' }, null), 401, M.mustBeLoggedIn);
    await refused(() => comment({ content: 'Hi' }, bob.token, UNKNOWN_ID), 404, M.postNotFound);
    await refused(() => comment({ content: 'Hi' }, bob.token, 'nope'), 404, M.postNotFound);
    expect((await api.del(`/api/posts/${post._id}`, alice.token)).status).toBe(200);
    await refused(() => comment({ content: 'Hi' }), 404, M.postNotFound);
  });
});

describe('POST /api/comments/:postId/comments (reply)', () => {
  it('replies to a comment of the same post; replies to replies nest', async () => {
    const post = await createPost(alice);
    const top = await addComment(bob, post._id, 'Lovely!');
    const r1 = await reply(alice, post._id, top._id, 'Thanks Bob!');
    expect(r1).toMatchObject({
      postId: post._id,
      parentCommentId: top._id,
      content: 'Thanks Bob!',
      userId: { _id: alice.user._id, isVeterinarian: true },
      deleted: false,
    });
    const r2 = await reply(bob, post._id, r1._id, 'Anytime');
    expect(r2.parentCommentId).toBe(r1._id);

    const events = (await eventsOf(`post-${post._id}`)).filter((e) => e.type === 'CommentAdded');
    expect(events.map((e) => [e.data.commentId, e.data.parentCommentId, e.data.parentAuthorId])).toEqual([
      [top._id, null, null],
      [r1._id, top._id, bob.user._id],
      [r2._id, r1._id, alice.user._id],
    ]);
  });

  it('refuses a parent of another post or no comment at all (400), and a missing parent id', async () => {
    const post = await createPost(alice);
    const other = await createPost(alice);
    const foreign = await addComment(bob, other._id);
    const send = (body: unknown) => api.post(`/api/comments/${post._id}/comments`, body, carol.token);
    await refused(() => send({ content: 'Hi', parentCommentId: foreign._id }), 400, M.parentNotInPost);
    await refused(() => send({ content: 'Hi', parentCommentId: UNKNOWN_ID }), 400, M.parentNotInPost);
    await refused(() => send({ content: 'Hi', parentCommentId: 'garbage' }), 400, M.parentNotInPost);
    await refused(() => send({ content: 'Hi', parentCommentId: post._id }), 400, M.parentNotInPost);
    await refused(() => send({ content: 'Hi' }), 400, 'parentCommentId is required');
    await refused(() => send({ content: '  ', parentCommentId: foreign._id }), 400, M.contentRequired);
  });

  it('answers 404 on a deleted or unknown post and 401 to visitors', async () => {
    const post = await createPost(alice);
    const top = await addComment(bob, post._id);
    const send = (token: string | undefined, id = post._id) =>
      api.post(`/api/comments/${id}/comments`, { content: 'Hi', parentCommentId: top._id }, token);
    await refused(() => send(undefined), 401, M.mustBeLoggedIn);
    await refused(() => send(carol.token, UNKNOWN_ID), 404, M.postNotFound);
    expect((await api.del(`/api/posts/${post._id}`, adminToken)).status).toBe(200);
    await refused(() => send(carol.token), 404, M.postNotFound);
  });
});

describe('DELETE /api/comments/:commentId', () => {
  it('looks comments up behind the checkpoint of the projection that owns post_comments', () => {
    expect(allProjections.find((p) => p.tables.includes('post_comments'))?.name).toBe(COMMENTS_PROJECTION);
  });

  it('lets the author delete their comment right after writing it (found in the log before the read model)', async () => {
    const post = await createPost(alice);
    // An open transaction holds the projections back: the comment is in the log but not yet in the read model.
    const holder = await t.db.pool.connect();
    let res: ApiResponse;
    let c: Json;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      c = await addComment(bob, post._id);
      expect(await rows('SELECT id FROM post_comments WHERE id = $1', [c._id])).toEqual([]);
      res = await api.del(`/api/comments/${c._id}`, bob.token);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: M.commentDeleted, position: expect.stringMatching(/^\d+$/) });
    const events = await eventsOf(`post-${post._id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'CommentDeleted',
      data: {
        commentId: c._id,
        postId: post._id,
        authorId: bob.user._id,
        actorId: bob.user._id,
        byAdmin: false,
      },
    });
    await refused(() => api.del(`/api/comments/${c._id}`, bob.token), 404, M.commentNotFound);
  });

  it('a deleted comment with replies keeps its place; the replies stay', async () => {
    const post = await createPost(alice);
    const top = await addComment(bob, post._id, 'First!');
    const r1 = await reply(alice, post._id, top._id);
    const r2 = await reply(carol, post._id, r1._id);
    await settle(r2.position);
    const res = await api.del(`/api/comments/${top._id}`, bob.token);
    expect(res.status, res.text).toBe(200);
    await settle(res.body.position);
    const comments = await rows<{ id: string; deleted: boolean; content: string }>(
      'SELECT id, deleted, content FROM post_comments WHERE post_id = $1 ORDER BY created_at, id',
      [post._id],
    );
    expect(comments).toEqual(
      expect.arrayContaining([
        { id: top._id, deleted: true, content: '' },
        { id: r1._id, deleted: false, content: 'Thank you!' },
        { id: r2._id, deleted: false, content: 'Thank you!' },
      ]),
    );
    // The deleted comment can still be answered: its thread goes on.
    await reply(carol, post._id, top._id, 'Still here');
  });

  it('refuses the post’s author and other users (403); an admin may delete any comment', async () => {
    const post = await createPost(alice);
    const c = await addComment(bob, post._id);
    await settle(c.position);
    await refused(() => api.del(`/api/comments/${c._id}`, alice.token), 403, M.notCommentAuthor);
    await refused(() => api.del(`/api/comments/${c._id}`, carol.token), 403, M.notCommentAuthor);
    await refused(() => api.del(`/api/comments/${c._id}`), 401, M.mustBeLoggedIn);
    const res = await api.del(`/api/comments/${c._id}`, adminToken);
    expect(res.status, res.text).toBe(200);
    const events = await eventsOf(`post-${post._id}`);
    expect(events.at(-1)).toMatchObject({
      type: 'CommentDeleted',
      data: { commentId: c._id, authorId: bob.user._id, byAdmin: true },
    });
    await refused(() => api.del(`/api/comments/${c._id}`, adminToken), 404, M.commentNotFound);
  });

  it('answers 404 for unknown and malformed ids, and for comments of a deleted post', async () => {
    await refused(() => api.del(`/api/comments/${UNKNOWN_ID}`, bob.token), 404, M.commentNotFound);
    await refused(() => api.del('/api/comments/xyz', bob.token), 404, M.commentNotFound);
    const post = await createPost(alice);
    const c = await addComment(bob, post._id);
    const gone = await api.del(`/api/posts/${post._id}`, alice.token);
    expect(gone.status).toBe(200);
    // Before and after the read model has removed the post's comments.
    await refused(() => api.del(`/api/comments/${c._id}`, bob.token), 404, M.commentNotFound);
    await settle(gone.body.position);
    await refused(() => api.del(`/api/comments/${c._id}`, bob.token), 404, M.commentNotFound);
  });
});
