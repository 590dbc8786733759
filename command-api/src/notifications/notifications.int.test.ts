import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSISTENT_AFTER_HEADER,
  NOTIFICATION_MESSAGES as M,
  NOTIFICATION_TEXTS as T,
  type NotificationDto,
  type NotificationPage,
} from '@pawhaven/contracts';
import { listenForChanges, type ChangeNotice } from '@pawhaven/platform';
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
 * Notifications over real HTTP: every kind is caused by the real commands (posts, likes, comments, adoption
 * requests and answers), built by the real projector, read through query-api, then read and deleted through the
 * notification commands. Every refusal is checked to append no event.
 */

let t: TestApp;
let api: TestApi;

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
});
afterAll(async () => {
  await t?.stop();
});

// ---------------------------------------------------------------------------------------------- helpers

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNKNOWN_ID = '0b6f6d0c-6a43-4e3b-9d2e-6a3b9f2c1d00';

/** The newest position in the log: reads wait until the projections have passed it. */
const head = async () =>
  (await t.db.pool.query<{ p: string }>('SELECT coalesce(max(position), 0)::text AS p FROM events')).rows[0]!
    .p;

/** Runs `fn` and checks it appended no event. */
async function appendsNothing<T>(fn: () => Promise<T>): Promise<T> {
  const before = await head();
  const result = await fn();
  expect(await head()).toBe(before);
  return result;
}

/** Expects a refusal with exactly this status and message, which appended nothing. */
async function refused(call: () => Promise<ApiResponse>, status: number, message: string) {
  const res = await appendsNothing(call);
  expect({ status: res.status, message: res.body?.message }, res.text).toEqual({ status, message });
  return res;
}

/** A GET that first waits until the projections have passed everything recorded so far. */
async function read<B = Json>(path: string, token?: string): Promise<ApiResponse<B>> {
  const res = await api.get<B>(path, token, { [CONSISTENT_AFTER_HEADER]: await head() });
  expect(res.headers.get('x-consistency')).toBe('consistent');
  return res;
}

/** All of a user's notifications, newest first. */
async function notificationsOf(user: RegisteredUser): Promise<NotificationDto[]> {
  const res = await read<NotificationPage>('/api/notifications?limit=50', user.token);
  expect(res.status, res.text).toBe(200);
  return res.body.notifications;
}

const summary = (n: NotificationDto) => ({ type: n.type, title: n.title, message: n.message, data: n.data });

type Users<N extends number, R extends RegisteredUser[] = []> = R['length'] extends N
  ? R
  : Users<N, [RegisteredUser, ...R]>;

/** `n` new verified users (veterinarians with `isVeterinarian`). */
const users = <N extends number>(n: N, opts: { isVeterinarian?: boolean } = {}) =>
  Promise.all(Array.from({ length: n }, () => api.registerVerifiedUser(opts))) as Promise<Users<N>>;

async function createPost(user: RegisteredUser, caption = 'Moti found a home') {
  const res = await api.upload(
    '/api/posts',
    { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' },
    user.token,
    { caption },
  );
  expect(res.status, res.text).toBe(201);
  return res.body._id as string;
}

async function like(user: RegisteredUser, postId: string) {
  const res = await api.post(`/api/posts/${postId}/like`, {}, user.token);
  expect(res.status, res.text).toBe(200);
  return res.body as Json;
}

async function comment(user: RegisteredUser, postId: string, parentCommentId?: string) {
  const res = parentCommentId
    ? await api.post(`/api/comments/${postId}/comments`, { content: 'Thanks!', parentCommentId }, user.token)
    : await api.post(`/api/comments/${postId}`, { content: 'So cute!' }, user.token);
  expect(res.status, res.text).toBe(201);
  return res.body._id as string;
}

async function createAd(user: RegisteredUser, name: string) {
  const res = await api.upload(
    '/api/adoptions',
    { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' },
    user.token,
    { name, age: '2', location: 'Lahore', petType: 'Dog', description: 'Friendly and house-trained.' },
  );
  expect(res.status, res.text).toBe(201);
  return res.body._id as string;
}

async function requestAdoption(user: RegisteredUser, adId: string) {
  const res = await api.post(
    `/api/adoptions/${adId}/request`,
    { name: user.username, email: user.email, phone: '+92 300 1234567', message: 'We have a garden.' },
    user.token,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.request._id as string;
}

async function answer(owner: RegisteredUser, requestId: string, status: 'accepted' | 'rejected') {
  const res = await api.put(`/api/adoptions/requests/${requestId}`, { status }, owner.token);
  expect(res.status, res.text).toBe(200);
}

// ---------------------------------------------------------------------------------------------- post likes

describe('post_like', () => {
  it("notifies the post's author of a like, with the post and the liker to open it", async () => {
    const [alice, bob] = await users(2);
    const postId = await createPost(alice);
    await like(bob, postId);
    const [n, ...rest] = await notificationsOf(alice);
    expect(rest).toEqual([]);
    expect(summary(n!)).toEqual({
      type: 'post_like',
      title: 'New like',
      message: `${bob.username} liked your post`,
      data: { postId, actorId: bob.user._id },
    });
    expect(n).toMatchObject({ _id: n!.id, read: false });
    expect(n!.id).toMatch(UUID);
    expect(Date.parse(n!.createdAt)).not.toBeNaN();
    expect(await notificationsOf(bob)).toEqual([]);
  });

  it('gives nothing for liking one’s own post', async () => {
    const [alice] = await users(1);
    const postId = await createPost(alice);
    expect((await like(alice, postId)).liked).toBe(true);
    expect(await notificationsOf(alice)).toEqual([]);
  });

  it('a like then an unlike leaves no notification; liking again notifies afresh', async () => {
    const [alice, carol] = await users(2);
    const postId = await createPost(alice);
    await like(carol, postId);
    expect(await notificationsOf(alice)).toHaveLength(1);
    expect((await like(carol, postId)).liked).toBe(false);
    expect(await notificationsOf(alice)).toEqual([]);
    await like(carol, postId);
    expect((await notificationsOf(alice)).map((n) => n.type)).toEqual(['post_like']);
  });
});

// ---------------------------------------------------------------------------------------------- comments

describe('post_comment', () => {
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let carol: RegisteredUser;
  let postId: string;
  let bobsComment: string;

  beforeAll(async () => {
    [alice, bob, carol] = await users(3);
    postId = await createPost(alice);
  });

  it("notifies the post's author of a comment, with the post and the comment", async () => {
    bobsComment = await comment(bob, postId);
    expect((await notificationsOf(alice)).map(summary)).toEqual([
      {
        type: 'post_comment',
        title: 'New comment',
        message: `${bob.username} commented on your post`,
        data: { postId, commentId: bobsComment, actorId: bob.user._id },
      },
    ]);
  });

  it('gives nothing for commenting on one’s own post', async () => {
    await comment(alice, postId);
    expect(await notificationsOf(alice)).toHaveLength(1);
  });

  it("a reply notifies the post's author and the author of the comment answered", async () => {
    const reply = await comment(carol, postId, bobsComment);
    expect((await notificationsOf(alice)).map(summary)[0]).toEqual({
      type: 'post_comment',
      title: 'New comment',
      message: `${carol.username} commented on your post`,
      data: { postId, commentId: reply, actorId: carol.user._id },
    });
    expect((await notificationsOf(bob)).map(summary)).toEqual([
      {
        type: 'post_comment',
        title: 'New reply',
        message: `${carol.username} replied to your comment`,
        data: { postId, commentId: reply, actorId: carol.user._id },
      },
    ]);
    expect(await notificationsOf(carol)).toEqual([]);
  });

  it("the post's author answering a comment notifies only the comment's author", async () => {
    const before = (await notificationsOf(alice)).length;
    const reply = await comment(alice, postId, bobsComment);
    expect(await notificationsOf(alice)).toHaveLength(before);
    expect((await notificationsOf(bob))[0]).toMatchObject({
      type: 'post_comment',
      message: `${alice.username} replied to your comment`,
      data: { commentId: reply },
    });
  });

  it("answering the post's author's own comment notifies them once", async () => {
    const alicesComment = await comment(alice, postId);
    const before = (await notificationsOf(alice)).length;
    const reply = await comment(bob, postId, alicesComment);
    const all = await notificationsOf(alice);
    expect(all).toHaveLength(before + 1);
    expect(summary(all[0]!)).toEqual({
      type: 'post_comment',
      title: 'New reply',
      message: `${bob.username} replied to your comment`,
      data: { postId, commentId: reply, actorId: bob.user._id },
    });
  });

  it('answering one’s own comment notifies only the post’s author', async () => {
    const bobsBefore = (await notificationsOf(bob)).length;
    const reply = await comment(bob, postId, bobsComment);
    expect(await notificationsOf(bob)).toHaveLength(bobsBefore);
    expect((await notificationsOf(alice))[0]!.data).toEqual({
      postId,
      commentId: reply,
      actorId: bob.user._id,
    });
  });

  it("deleting a comment removes that comment's notifications, and only those", async () => {
    const [dave] = await users(1);
    const doomed = await comment(dave, postId, bobsComment);
    const ofComment = (list: NotificationDto[]) => list.filter((n) => n.data.commentId === doomed);
    expect(ofComment(await notificationsOf(alice))).toHaveLength(1);
    expect(ofComment(await notificationsOf(bob))).toHaveLength(1);
    const [aliceBefore, bobBefore] = [await notificationsOf(alice), await notificationsOf(bob)];

    const res = await api.del(`/api/comments/${doomed}`, dave.token);
    expect(res.status, res.text).toBe(200);
    expect(await notificationsOf(alice)).toEqual(aliceBefore.filter((n) => n.data.commentId !== doomed));
    expect(await notificationsOf(bob)).toEqual(bobBefore.filter((n) => n.data.commentId !== doomed));
  });

  it('deleting a post removes every notification about it', async () => {
    const [erin, frank] = await users(2);
    const other = await createPost(erin, 'Stays');
    await like(frank, other);
    const c = await comment(frank, postId);
    await comment(erin, postId, c);
    await like(frank, postId);
    expect((await notificationsOf(alice)).length).toBeGreaterThan(0);
    expect((await notificationsOf(frank)).some((n) => n.data.postId === postId)).toBe(true);

    const res = await api.del(`/api/posts/${postId}`, alice.token);
    expect(res.status, res.text).toBe(200);
    for (const user of [alice, bob, frank])
      expect((await notificationsOf(user)).filter((n) => n.data.postId === postId)).toEqual([]);
    expect((await notificationsOf(erin)).map((n) => n.data.postId)).toEqual([other]);
  });
});

// ---------------------------------------------------------------------------------------------- vets

describe('new_post_vet_notification', () => {
  it('a veterinarian’s post reaches every other veterinarian, and nobody else', async () => {
    const [vet1, vet2, vet3] = await users(3, { isVeterinarian: true });
    const [pat] = await users(1);
    const postId = await createPost(vet1, 'Vaccination day');
    for (const vet of [vet2, vet3]) {
      const mine = (await notificationsOf(vet)).filter((n) => n.type === 'new_post_vet_notification');
      expect(mine.filter((n) => n.data.postId === postId).map(summary)).toEqual([
        {
          type: 'new_post_vet_notification',
          title: 'New post from a veterinarian',
          message: `Veterinarian ${vet1.username} shared a new post`,
          data: { postId, actorId: vet1.user._id },
        },
      ]);
    }
    expect((await notificationsOf(vet1)).filter((n) => n.data.postId === postId)).toEqual([]);
    expect(await notificationsOf(pat)).toEqual([]);
  });

  it('a post by someone who is not a veterinarian alerts no veterinarian', async () => {
    const [vet] = await users(1, { isVeterinarian: true });
    const [pat] = await users(1);
    const before = await notificationsOf(vet);
    await createPost(pat);
    expect(await notificationsOf(vet)).toEqual(before);
  });

  it('reaches only the veterinarians known when it was posted', async () => {
    const [vet1] = await users(1, { isVeterinarian: true });
    const postId = await createPost(vet1);
    const [late] = await users(1, { isVeterinarian: true });
    expect((await notificationsOf(late)).filter((n) => n.data.postId === postId)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------- adoption

describe('adoption notifications', () => {
  it("a request notifies the ad's owner; accepting notifies the accepted and every auto-rejected requester", async () => {
    const [owner, bob, carol, dave] = await users(4);
    const adId = await createAd(owner, 'Sheru');
    const bobs = await requestAdoption(bob, adId);
    const carols = await requestAdoption(carol, adId);
    const daves = await requestAdoption(dave, adId);

    expect((await notificationsOf(owner)).map(summary)).toEqual(
      [
        [dave, daves],
        [carol, carols],
        [bob, bobs],
      ].map(([u, requestId]) => ({
        type: 'adoption_request',
        title: 'New adoption request',
        message: `${(u as RegisteredUser).username} wants to adopt Sheru`,
        data: { adId, requestId, actorId: (u as RegisteredUser).user._id },
      })),
    );
    for (const u of [bob, carol, dave]) expect(await notificationsOf(u)).toEqual([]);

    await answer(owner, carols, 'accepted');
    expect((await notificationsOf(carol)).map(summary)).toEqual([
      {
        type: 'adoption_request_accepted',
        title: 'Adoption request accepted',
        message: 'Your request to adopt Sheru was accepted',
        data: { adId, requestId: carols, actorId: owner.user._id },
      },
    ]);
    for (const [u, requestId] of [
      [bob, bobs],
      [dave, daves],
    ] as const)
      expect((await notificationsOf(u)).map(summary)).toEqual([
        {
          type: 'adoption_request_rejected',
          title: 'Adoption request declined',
          message: T.adoption_request_rejected_other.message('Sheru'),
          data: { adId, requestId, actorId: owner.user._id },
        },
      ]);
    // The owner's own answers notify the owner of nothing.
    expect(await notificationsOf(owner)).toHaveLength(3);
  });

  it('a rejection by the owner notifies the requester, with the pet’s current name', async () => {
    const [owner, bob] = await users(2);
    const adId = await createAd(owner, 'Rani');
    const form = new FormData();
    form.append('name', 'Rani Queen');
    expect((await api.request('PUT', `/api/adoptions/${adId}`, { form, token: owner.token })).status).toBe(
      200,
    );
    const requestId = await requestAdoption(bob, adId);
    expect((await notificationsOf(owner))[0]!.message).toBe(`${bob.username} wants to adopt Rani Queen`);
    await answer(owner, requestId, 'rejected');
    expect((await notificationsOf(bob)).map(summary)).toEqual([
      {
        type: 'adoption_request_rejected',
        title: 'Adoption request declined',
        message: 'Your request to adopt Rani Queen was declined',
        data: { adId, requestId, actorId: owner.user._id },
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------- read & delete

describe('reading and deleting notifications', () => {
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let likers: RegisteredUser[];
  let postId: string;

  beforeAll(async () => {
    [alice, bob, ...likers] = await users(7);
    postId = await createPost(alice);
    for (const u of likers) await like(u, postId);
  });

  const one = async () => (await notificationsOf(alice))[0]!;
  const unread = async (user = alice) => {
    const res = await read('/api/notifications/unread-count', user.token);
    expect(res.status).toBe(200);
    return res.body.count as number;
  };

  it('lists newest first with pagination (hasMore) and the unread count', async () => {
    const first = await read<NotificationPage>('/api/notifications?page=1&limit=2', alice.token);
    expect(first.body).toMatchObject({
      success: true,
      pagination: { page: 1, limit: 2, total: 5, hasMore: true },
      unreadCount: 5,
    });
    expect(first.body.notifications.map((n) => n.data.actorId)).toEqual([
      likers[4]!.user._id,
      likers[3]!.user._id,
    ]);
    const last = await read<NotificationPage>('/api/notifications?page=3&limit=2', alice.token);
    expect(last.body.pagination).toEqual({ page: 3, limit: 2, total: 5, hasMore: false });
    expect(last.body.notifications.map((n) => n.data.actorId)).toEqual([likers[0]!.user._id]);
    const beyond = await read<NotificationPage>('/api/notifications?page=9&limit=2', alice.token);
    expect(beyond.body).toMatchObject({ notifications: [], pagination: { hasMore: false, total: 5 } });
    const byDefault = await read<NotificationPage>('/api/notifications', alice.token);
    expect(byDefault.body.pagination).toEqual({ page: 1, limit: 20, total: 5, hasMore: false });
    expect(await unread()).toBe(5);
  });

  it('refuses bad paging with a 400 and a message', async () => {
    for (const q of ['page=0', 'limit=0', 'limit=51', 'page=abc', 'limit=1.5']) {
      const res = await api.get(`/api/notifications?${q}`, alice.token);
      expect(res.status, q).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('every call needs a token: none is "No token provided", a bad one 401 too, recording nothing', async () => {
    const n = await one();
    const calls: [string, string][] = [
      ['GET', '/api/notifications'],
      ['GET', '/api/notifications/unread-count'],
      ['PUT', '/api/notifications/mark-all-read'],
      ['PUT', `/api/notifications/${n.id}/read`],
      ['DELETE', '/api/notifications/delete-all'],
      ['DELETE', `/api/notifications/${n.id}`],
    ];
    const as = (authorization: string) => ({ headers: { authorization } });
    for (const [method, path] of calls) {
      await refused(() => api.request(method, path), 401, M.noToken);
      // Not a bearer token at all: 'Authentication required'.
      await refused(() => api.request(method, path, as(`Basic ${btoa('a:b')}`)), 401, M.authRequired);
      // A bearer token that does not verify is refused before any route, the same everywhere.
      await refused(
        () => api.request(method, path, as('Bearer not-a-token')),
        401,
        'Invalid or expired token',
      );
    }
    expect((await one()).id).toBe(n.id);
  });

  it("someone else's, unknown or malformed ids are 404 'Notification not found' and record nothing", async () => {
    const n = await one();
    for (const id of [n.id, UNKNOWN_ID])
      for (const [method, path] of [
        ['PUT', `/api/notifications/${id}/read`],
        ['DELETE', `/api/notifications/${id}`],
      ] as const)
        await refused(() => api.request(method, path, { token: bob.token }), 404, M.notFound);
    for (const id of ['abc', '1', `${n.id}x`])
      await refused(
        () => api.request('PUT', `/api/notifications/${id}/read`, { token: alice.token }),
        404,
        M.notFound,
      );
    expect((await one()).read).toBe(false);
  });

  it('the owner marks one read: recorded once, the list and the count follow', async () => {
    const n = await one();
    const res = await api.put(`/api/notifications/${n.id}/read`, {}, alice.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: M.markedRead,
      position: expect.stringMatching(/^\d+$/),
    });
    const after = await api.get<NotificationPage>('/api/notifications', alice.token, {
      [CONSISTENT_AFTER_HEADER]: res.body.position,
    });
    expect(after.body.notifications.find((x) => x.id === n.id)!.read).toBe(true);
    expect(after.body.unreadCount).toBe(4);
    expect(await unread()).toBe(4);

    // Again: nothing more to record.
    const again = await appendsNothing(() => api.put(`/api/notifications/${n.id}/read`, {}, alice.token));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, message: M.markedRead });
    const events = await t.db.pool.query(`SELECT type, data FROM events WHERE stream_id = $1`, [
      `notifications-${alice.user._id}`,
    ]);
    expect(events.rows).toEqual([
      {
        type: 'NotificationRead',
        data: { userId: alice.user._id, notificationId: n.id, at: expect.any(String) },
      },
    ]);
  });

  it('mark-all-read reads every one; again it records nothing', async () => {
    const res = await api.put('/api/notifications/mark-all-read', {}, alice.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: M.allMarkedRead });
    expect(res.body.position).toMatch(/^\d+$/);
    expect(await unread()).toBe(0);
    expect((await notificationsOf(alice)).every((n) => n.read)).toBe(true);
    const again = await appendsNothing(() => api.put('/api/notifications/mark-all-read', {}, alice.token));
    expect(again.body).toEqual({ success: true, message: M.allMarkedRead });
  });

  it('the owner deletes one; a second delete is 404', async () => {
    const n = await one();
    const res = await api.del(`/api/notifications/${n.id}`, alice.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: M.deleted });
    expect((await notificationsOf(alice)).map((x) => x.id)).not.toContain(n.id);
    await refused(() => api.del(`/api/notifications/${n.id}`, alice.token), 404, M.notFound);
    await refused(() => api.put(`/api/notifications/${n.id}/read`, {}, alice.token), 404, M.notFound);
  });

  it("delete-all empties one's own list only; again it records nothing", async () => {
    const postOfBob = await createPost(bob);
    await like(alice, postOfBob);
    expect(await notificationsOf(bob)).toHaveLength(1);
    const res = await api.del('/api/notifications/delete-all', alice.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: M.allDeleted });
    expect(await notificationsOf(alice)).toEqual([]);
    expect(await unread()).toBe(0);
    expect(await notificationsOf(bob)).toHaveLength(1);
    const again = await appendsNothing(() => api.del('/api/notifications/delete-all', alice.token));
    expect(again.body).toEqual({ success: true, message: M.allDeleted });
  });

  it('new notifications arrive after a delete-all, unread', async () => {
    const [late] = await users(1);
    await like(late, postId);
    expect((await notificationsOf(alice)).map((n) => [n.data.actorId, n.read])).toEqual([
      [late.user._id, false],
    ]);
    expect(await unread()).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------- change notices

describe('change notices for the realtime gateway', () => {
  it('announce a new notification to its recipient, and each change of their list', async () => {
    const received: ChangeNotice[] = [];
    const listener = await listenForChanges(t.db.connectionString, (batch) => received.push(...batch));
    try {
      const [alice, bob] = await users(2);
      const postId = await createPost(alice);
      await like(bob, postId);
      const [n] = await notificationsOf(alice);
      await expect
        .poll(() => received)
        .toContainEqual({ kind: 'notification', userId: alice.user._id, id: n!.id });

      expect((await api.put(`/api/notifications/${n!.id}/read`, {}, alice.token)).status).toBe(200);
      await read('/api/notifications', alice.token);
      await expect
        .poll(() => received.filter((x) => x.kind === 'notifications-changed' && x.userId === alice.user._id))
        .toHaveLength(1);

      await like(bob, postId); // unlike: the notification is taken back
      await read('/api/notifications', alice.token);
      await expect
        .poll(() => received.filter((x) => x.kind === 'notifications-changed' && x.userId === alice.user._id))
        .toHaveLength(2);
      expect(received.filter((x) => x.userId === bob.user._id)).toEqual([]);
    } finally {
      await listener.stop();
    }
  });
});
