import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * Admins do not use the community (issue 10): every command by which one takes part — adoption requests, posts,
 * likes, comments, conversations, messages (HTTP and the socket's sendMessage) — answers an admin 403 'Admins
 * cannot …' and appends nothing. The walk starts from the live route table: every write route of the community,
 * adoption and chat paths must be listed below as participation or not, so a new one cannot slip past the guard.
 */

let t: TestApp;
let api: TestApi;
let member: RegisteredUser;
let adminToken: string;
let adminId: string;
let image: Buffer;
const fixture = { adId: '', postId: '', commentId: '' };
let socket: Socket | undefined;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  member = await api.registerVerifiedUser();
  ({ token: adminToken, id: adminId } = await t.signInAdmin());
  const ad = await api.upload(
    '/api/adoptions',
    { field: 'image', bytes: image, filename: 'cat.png', type: 'image/png' },
    member.token,
    { name: 'Pebble', age: '1', location: 'Karachi', petType: 'Cat', description: 'Shy at first.' },
  );
  expect(ad.status, ad.text).toBe(201);
  fixture.adId = ad.body._id;
  const post = await api.upload(
    '/api/posts',
    { field: 'image', bytes: image, filename: 'pet.png', type: 'image/png' },
    member.token,
    { caption: 'Found this one' },
  );
  expect(post.status, post.text).toBe(201);
  fixture.postId = post.body._id;
  const comment = await api.post(
    `/api/comments/${fixture.postId}`,
    { content: 'Who can help?' },
    member.token,
  );
  expect(comment.status, comment.text).toBe(201);
  fixture.commentId = comment.body._id;
});
afterAll(async () => {
  socket?.close();
  await t?.stop();
});

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

/** The routes by which a user takes part in the community, each called as the admin would. */
const participation: Record<string, (token: string) => Promise<ApiResponse>> = {
  'POST /api/adoptions/:postId/request': (token) =>
    api.post(
      `/api/adoptions/${fixture.adId}/request`,
      { name: 'Admin', email: 'admin@gmail.com', phone: '03001234567', message: 'Me please' },
      token,
    ),
  'POST /api/posts': (token) =>
    api.upload(
      '/api/posts',
      { field: 'image', bytes: image, filename: 'pet.png', type: 'image/png' },
      token,
      { caption: 'An admin post' },
    ),
  'POST /api/posts/:id/like': (token) => api.post(`/api/posts/${fixture.postId}/like`, undefined, token),
  'POST /api/comments/:postId': (token) =>
    api.post(`/api/comments/${fixture.postId}`, { content: 'An admin comment' }, token),
  'POST /api/comments/:postId/comments': (token) =>
    api.post(
      `/api/comments/${fixture.postId}/comments`,
      { content: 'An admin reply', parentCommentId: fixture.commentId },
      token,
    ),
  'POST /api/conversations': (token) =>
    api.post('/api/conversations', { senderId: adminId, receiverId: member.user._id }, token),
  'POST /api/messages': (token) =>
    api.post(
      '/api/messages',
      { conversationId: randomUUID(), senderId: adminId, text: 'Hello from the admin' },
      token,
    ),
};

/**
 * Write routes on the same paths that are not taking part: moderation (admins delete any post, comment or ad),
 * editing one's own ad or post, answering requests on one's own ad, and receipts (an admin is in no conversation).
 * Creating an ad is not in the list.
 */
const notParticipation = new Set([
  'POST /api/adoptions',
  'PUT /api/adoptions/:id',
  'DELETE /api/adoptions/:id',
  'PUT /api/adoptions/requests/:requestId',
  'POST /api/adoptions/requests/:requestId/withdraw',
  'PUT /api/posts/:id',
  'DELETE /api/posts/:id',
  'DELETE /api/comments/:commentId',
  'POST /api/conversations/:id/read',
  'POST /api/conversations/:id/delivered',
]);

describe('admins do not use the community', () => {
  it('classifies every community, adoption and chat write route', () => {
    const community = t.app.routes
      .filter((r) => r.method !== 'GET' && r.method !== 'HEAD')
      .filter((r) => /^\/api\/(adoptions|posts|comments|conversations|messages)(\/|$)/.test(r.path))
      .map((r) => `${r.method} ${r.path}`);
    expect(community.length).toBeGreaterThan(0);
    for (const route of community)
      expect(
        route in participation || notParticipation.has(route),
        `${route} is neither participation nor moderation`,
      ).toBe(true);
    for (const route of Object.keys(participation)) expect(community).toContain(route);
  });

  it.each(Object.keys(participation))('%s as an admin → 403, nothing appended', async (route) => {
    const before = await eventCount();
    const res = await participation[route]!(adminToken);
    expect(res.status, res.text).toBe(403);
    expect(res.body.message).toMatch(/^Admins cannot /);
    expect(await eventCount()).toBe(before);
  });

  it('the same routes still serve members', async () => {
    for (const route of ['POST /api/posts/:id/like', 'POST /api/comments/:postId']) {
      const res = await participation[route]!(member.token);
      expect(res.status, `${route}: ${res.text}`).toBeLessThan(300);
    }
  });

  it("the socket's sendMessage as an admin → { ok: false, status: 403 }, nothing appended", async () => {
    socket = io(t.url, {
      path: '/socket.io',
      auth: { token: adminToken },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket!.on('connect', () => resolve());
      socket!.on('connect_error', reject);
    });
    const before = await eventCount();
    const ack = await socket.timeout(5000).emitWithAck('sendMessage', {
      conversationId: randomUUID(),
      text: 'Hello over the socket',
    });
    expect(ack).toMatchObject({ ok: false, status: 403, message: 'Admins cannot send messages' });
    expect(await eventCount()).toBe(before);
  });
});
