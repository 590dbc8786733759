import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER } from '@pawhaven/contracts';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * Concurrency of likes. One user's likes of one post are one small stream, so concurrent toggles are ordered by
 * its revision (the stream folds to liked or not, never two likes); many users liking one post write to
 * different streams and never contend. The read models agree: `post_likes` is a set and `like_count` its size.
 */

const CONCURRENT = 20;

let t: TestApp;
let api: TestApi;
let author: RegisteredUser;
let likers: RegisteredUser[];
let image: Buffer;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  const users = await api.registerVerifiedUsers(CONCURRENT + 1);
  author = users[0]!;
  likers = users.slice(1);
});
afterAll(async () => {
  await t?.stop();
});

async function createPost() {
  const res = await api.upload(
    '/api/posts',
    { field: 'image', bytes: image, filename: 'pet.png', type: 'image/png' },
    author.token,
    { caption: 'Everyone loves this one' },
  );
  expect(res.status, res.text).toBe(201);
  return res.body as Json;
}

const like = (user: RegisteredUser, postId: string) =>
  api.post(`/api/posts/${postId}/like`, undefined, user.token);

const query = async <R extends object>(sql: string, params: unknown[]) =>
  (await t.db.pool.query<R & object>(sql, params)).rows as R[];

const likeEvents = (postId: string, userId: string) =>
  query<{ type: string; data: Json }>(
    'SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_revision',
    [`post-like-${postId}-${userId}`],
  );

const maxPosition = (responses: ApiResponse[]) =>
  responses
    .map((r) => BigInt(r.body.position as string))
    .reduce((a, b) => (a > b ? a : b))
    .toString();

/** Waits until every projection has passed `position`. */
async function settle(position: string) {
  const res = await api.get('/api/config', undefined, { [CONSISTENT_AFTER_HEADER]: position });
  expect(res.headers.get('x-consistency')).toBe('consistent');
}

async function readModel(postId: string) {
  const likes = await query<{ user_id: string }>(
    'SELECT user_id FROM post_likes WHERE post_id = $1 ORDER BY user_id',
    [postId],
  );
  const [post] = await query<{ like_count: number }>('SELECT like_count FROM posts WHERE id = $1', [postId]);
  return { likes: likes.map((l) => l.user_id), likeCount: post?.like_count };
}

describe('concurrent like toggles', () => {
  it(`${CONCURRENT} toggles by one user at once: every one applies in turn, the likes alternate, never doubled`, async () => {
    const post = await createPost();
    const user = likers[0]!;
    const results = await Promise.all(Array.from({ length: CONCURRENT }, () => like(user, post._id)));
    // handleCommand retries a stale revision; only a stream so contended that every attempt lost may answer 409.
    for (const r of results) expect([200, 409], r.text).toContain(r.status);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(CONCURRENT / 2);

    const events = await likeEvents(post._id, user.user._id);
    expect(events).toHaveLength(ok.length);
    events.forEach((e, i) => expect(e.type).toBe(i % 2 === 0 ? 'PostLiked' : 'PostUnliked'));
    const finallyLiked = ok.length % 2 === 1;
    // Each accepted toggle saw its own revision: the answers are the alternating states, each once.
    const likedAnswers = ok.filter((r) => r.body.liked === true).length;
    expect(likedAnswers).toBe(Math.ceil(ok.length / 2));
    for (const r of ok) {
      expect(r.body.likes).toEqual(r.body.liked ? [user.user._id] : []);
      expect(r.body.likeCount).toBe(r.body.liked ? 1 : 0);
    }

    await settle(maxPosition(ok));
    expect(await readModel(post._id)).toEqual({
      likes: finallyLiked ? [user.user._id] : [],
      likeCount: finallyLiked ? 1 : 0,
    });

    // One more toggle answers the state the stream folds to, and the read model follows.
    const next = await like(user, post._id);
    expect(next.body.liked).toBe(!finallyLiked);
    await settle(next.body.position);
    expect((await readModel(post._id)).likeCount).toBe(finallyLiked ? 0 : 1);
  });

  it(`${CONCURRENT} users liking one post at once: ${CONCURRENT} likes, a set of ${CONCURRENT}, like_count ${CONCURRENT}`, async () => {
    const post = await createPost();
    const results = await Promise.all(likers.map((u) => like(u, post._id)));
    for (const [i, r] of results.entries()) {
      expect(r.status, r.text).toBe(200);
      expect(r.body.liked).toBe(true);
      // The answer holds at least the caller's own like, never twice.
      expect(r.body.likes).toContain(likers[i]!.user._id);
      expect(new Set(r.body.likes).size).toBe(r.body.likes.length);
      expect(r.body.likeCount).toBe(r.body.likes.length);
    }
    for (const u of likers) {
      const events = await likeEvents(post._id, u.user._id);
      expect(events.map((e) => e.type)).toEqual(['PostLiked']);
      expect(events[0]!.data).toMatchObject({
        postId: post._id,
        postAuthorId: author.user._id,
        userId: u.user._id,
      });
    }
    const ids = likers.map((u) => u.user._id).sort();
    await settle(maxPosition(results));
    expect(await readModel(post._id)).toEqual({ likes: ids, likeCount: CONCURRENT });

    // Every later like sees the others: the last answer is the whole set.
    const again = await like(likers[0]!, post._id);
    expect(again.body).toMatchObject({ liked: false, likeCount: CONCURRENT - 1 });
    expect([...again.body.likes].sort()).toEqual(ids.slice().filter((id) => id !== likers[0]!.user._id));

    // And all of them unliking at once (the first is liked again) leaves one like, never a negative count.
    const undo = await Promise.all(likers.map((u) => like(u, post._id)));
    for (const r of undo) expect(r.status, r.text).toBe(200);
    await settle(maxPosition(undo));
    expect(await readModel(post._id)).toEqual({ likes: [likers[0]!.user._id], likeCount: 1 });
  });
});
