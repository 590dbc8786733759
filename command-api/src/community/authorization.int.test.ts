import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testImage, type ApiResponse, type TestApi, type TestApp } from '@pawhaven/testing';

/**
 * Who may do what with community posts and comments: every write endpoint × every kind of caller, over real
 * HTTP. Each cell gets a fresh post by `author` with one comment by the author and one by `other`, so no cell
 * depends on another. A refused write must append nothing; an accepted one appends.
 */

type Role = 'visitor' | 'author' | 'other' | 'admin';
type Fixture = { postId: string; authorCommentId: string; otherCommentId: string };
type Call = (f: Fixture, token: string | undefined) => Promise<ApiResponse>;

let t: TestApp;
let api: TestApi;
let image: Buffer;
const tokens: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  const [author, other] = await api.registerVerifiedUsers(2);
  const admin = await t.signInAdmin();
  Object.assign(tokens, { author: author.token, other: other.token, admin: admin.token });
});
afterAll(async () => {
  await t?.stop();
});

const createPost = (token: string | undefined) =>
  api.upload('/api/posts', { field: 'image', bytes: image, filename: 'pet.png', type: 'image/png' }, token, {
    caption: 'Our rescue, one year on',
  });

async function fixture(): Promise<Fixture> {
  const post = await createPost(tokens.author);
  expect(post.status, post.text).toBe(201);
  const postId = post.body._id as string;
  const mine = await api.post(`/api/comments/${postId}`, { content: 'Thanks all' }, tokens.author);
  expect(mine.status, mine.text).toBe(201);
  const theirs = await api.post(`/api/comments/${postId}`, { content: 'Beautiful' }, tokens.other);
  expect(theirs.status, theirs.text).toBe(201);
  return { postId, authorCommentId: mine.body._id, otherCommentId: theirs.body._id };
}

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

const endpoints: Record<string, Call> = {
  'POST /api/posts': (_f, token) => createPost(token),
  'PUT /api/posts/{id}': (f, token) => api.put(`/api/posts/${f.postId}`, { caption: 'Edited' }, token),
  'DELETE /api/posts/{id}': (f, token) => api.del(`/api/posts/${f.postId}`, token),
  'POST /api/posts/{id}/like': (f, token) => api.post(`/api/posts/${f.postId}/like`, undefined, token),
  'POST /api/comments/{postId}': (f, token) =>
    api.post(`/api/comments/${f.postId}`, { content: 'Hello' }, token),
  "POST /api/comments/{postId}/comments (reply to other's comment)": (f, token) =>
    api.post(
      `/api/comments/${f.postId}/comments`,
      { content: 'Agreed', parentCommentId: f.otherCommentId },
      token,
    ),
  "DELETE /api/comments/{id} (post author's comment)": (f, token) =>
    api.del(`/api/comments/${f.authorCommentId}`, token),
  "DELETE /api/comments/{id} (other's comment on author's post)": (f, token) =>
    api.del(`/api/comments/${f.otherCommentId}`, token),
};

type MatrixRow = [
  endpoint: keyof typeof endpoints,
  visitor: number,
  author: number,
  other: number,
  admin: number,
];
// prettier-ignore
const matrix: MatrixRow[] = [
  // endpoint                                                          visitor author other admin
  ['POST /api/posts',                                                    401,   201,   201,  403],
  ['PUT /api/posts/{id}',                                                401,   200,   403,  403],
  ['DELETE /api/posts/{id}',                                             401,   200,   403,  200],
  ['POST /api/posts/{id}/like',                                          401,   200,   200,  403],
  ['POST /api/comments/{postId}',                                        401,   201,   201,  403],
  ["POST /api/comments/{postId}/comments (reply to other's comment)",    401,   201,   201,  403],
  ["DELETE /api/comments/{id} (post author's comment)",                  401,   200,   403,  200],
  ["DELETE /api/comments/{id} (other's comment on author's post)",       401,   403,   200,  200],
];

const ROLES: Role[] = ['visitor', 'author', 'other', 'admin'];
const cells = matrix.flatMap(([endpoint, ...statuses]) =>
  ROLES.map((role, i) => ({ endpoint, role, status: statuses[i]! })),
);

describe('community authorization matrix', () => {
  it('covers every endpoint × every role', () => {
    expect(cells).toHaveLength(Object.keys(endpoints).length * ROLES.length);
    expect(new Set(matrix.map(([e]) => e))).toEqual(new Set(Object.keys(endpoints)));
  });

  it.each(cells)('$endpoint as $role → $status', async ({ endpoint, role, status }) => {
    const f = await fixture();
    const before = await eventCount();
    const res = await endpoints[endpoint]!(f, role === 'visitor' ? undefined : tokens[role]);
    expect(res.status, res.text).toBe(status);
    const appended = (await eventCount()) - before;
    if (status >= 400) {
      expect(res.body.message).toEqual(expect.any(String));
      expect(res.body.message.length).toBeGreaterThan(0);
      expect(appended).toBe(0);
    } else expect(appended).toBeGreaterThan(0);
  });
});
