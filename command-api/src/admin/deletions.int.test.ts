import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * The administrators' five DELETEs (user, ad, request, post, comment) over real HTTP: each removes its target from the
 * lists that showed it, is recorded with the admin as actor, is refused to everyone else with nothing appended,
 * answers 404 for an unknown id and 200 again (nothing recorded) on a retry.
 */

let t: TestApp;
let api: TestApi;
let image: Buffer;
let owner: RegisteredUser;
let other: RegisteredUser;
let admin: { token: string; id: string };

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  [owner, other] = await api.registerVerifiedUsers(2);
  admin = await t.signInAdmin();
});
afterAll(async () => {
  await t?.stop();
});

const after = (position: string | undefined) => (position ? { 'X-Consistent-After': position } : undefined);
const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
const lastEvent = async () =>
  (
    await t.db.pool.query<{ type: string; metadata: Json; data: Json }>(
      'SELECT type, metadata, data FROM events ORDER BY position DESC LIMIT 1',
    )
  ).rows[0]!;

const ok = (res: ApiResponse, status = 200) => {
  expect(res.status, res.text).toBe(status);
  return res.body;
};

async function newAd() {
  const ad = ok(
    await api.upload(
      '/api/adoptions',
      { field: 'image', bytes: image, filename: 'cat.png', type: 'image/png' },
      owner.token,
      { name: 'Biscuit', age: '2', location: 'Lahore', petType: 'Cat', description: 'Purrs a lot.' },
    ),
    201,
  );
  return ad._id as string;
}
async function newRequest(adId: string) {
  const r = ok(
    await api.post(
      `/api/adoptions/${adId}/request`,
      { name: 'Other', email: 'other@gmail.com', phone: '03001234567', message: 'I have a garden.' },
      other.token,
    ),
    201,
  );
  return { requestId: r.request._id as string, position: r.position as string };
}
async function newPost() {
  const p = ok(
    await api.upload(
      '/api/posts',
      { field: 'image', bytes: image, filename: 'pet.png', type: 'image/png' },
      owner.token,
      { caption: 'Sunny afternoon' },
    ),
    201,
  );
  return p._id as string;
}
async function newComment(postId: string) {
  const c = ok(await api.post(`/api/comments/${postId}`, { content: 'Lovely!' }, other.token), 201);
  return { commentId: c._id as string, position: c.position as string };
}

type Target = { path: string; check: (position: string) => Promise<void> };

/** Each resource: a fresh target, and how to see that it is gone from what listed it. */
const resources: Record<string, () => Promise<Target>> = {
  adoptions: async () => {
    const adId = await newAd();
    return {
      path: `/api/admin/adoptions/${adId}`,
      check: async (position) => {
        const list = ok(await api.get('/api/adoptions?limit=50', undefined, after(position)));
        expect(list.map((a: Json) => a._id)).not.toContain(adId);
        expect((await api.get(`/api/adoptions/${adId}`, undefined, after(position))).status).toBe(404);
        const history = ok(
          await api.get(`/api/admin/adoptions/${adId}/history`, admin.token, after(position)),
        );
        expect(history.timeline.at(-1)).toMatchObject({
          eventType: 'AdoptionAdDeleted',
          toStatus: 'deleted',
          actor: { _id: admin.id },
          details: { byAdmin: true },
        });
      },
    };
  },
  'adoption-requests': async () => {
    const adId = await newAd();
    const { requestId } = await newRequest(adId);
    return {
      path: `/api/admin/adoption-requests/${requestId}`,
      check: async (position) => {
        const mine = ok(await api.get(`/api/adoptions/${adId}/requests`, owner.token, after(position)));
        expect(mine).toEqual([]);
        const ad = ok(await api.get(`/api/adoptions/${adId}`, undefined, after(position)));
        expect(ad.status).toBe('available');
        const notes = ok(await api.get('/api/notifications?limit=50', owner.token, after(position)));
        expect(notes.notifications.map((n: Json) => n.data.requestId)).not.toContain(requestId);
        const history = ok(
          await api.get(`/api/admin/adoptions/${adId}/history`, admin.token, after(position)),
        );
        expect(history.timeline.at(-1)).toMatchObject({
          eventType: 'AdoptionRequestDeleted',
          requestId,
          fromStatus: 'pending',
          toStatus: 'deleted',
          actor: { _id: admin.id },
        });
        // Its requester may ask again: the removed request no longer counts as pending.
        await newRequest(adId);
      },
    };
  },
  posts: async () => {
    const postId = await newPost();
    await newComment(postId);
    return {
      path: `/api/admin/posts/${postId}`,
      check: async (position) => {
        expect((await api.get(`/api/posts/${postId}`, undefined, after(position))).status).toBe(404);
        const feed = ok(await api.get('/api/posts?limit=50', undefined, after(position)));
        expect(feed.map((p: Json) => p._id)).not.toContain(postId);
      },
    };
  },
  comments: async () => {
    const postId = await newPost();
    const { commentId } = await newComment(postId);
    return {
      path: `/api/admin/comments/${commentId}`,
      check: async (position) => {
        const post = ok(await api.get(`/api/posts/${postId}`, undefined, after(position)));
        expect(post.commentCount).toBe(0);
        expect(post.comments.map((c: Json) => c._id)).not.toContain(commentId);
      },
    };
  },
  user: async () => {
    const victim = await api.registerVerifiedUser();
    return {
      path: `/api/admin/user/${victim.user._id}`,
      check: async (position) => {
        expect((await api.get('/api/auth/profile', victim.token, after(position))).status).toBe(401);
        const signin = await api.post('/api/auth/signin', { email: victim.email, password: victim.password });
        expect(signin.status).toBe(401);
      },
    };
  },
};

const expectedEvent: Record<string, string> = {
  adoptions: 'AdoptionAdDeleted',
  'adoption-requests': 'AdoptionRequestDeleted',
  posts: 'PostDeleted',
  comments: 'CommentDeleted',
  user: 'UserDeleted',
};

describe.each(Object.keys(resources))('DELETE /api/admin/%s/{id}', (resource) => {
  it('as an admin: recorded with the admin as actor, gone from the lists, and a retry changes nothing', async () => {
    const target = await resources[resource]!();
    const res = await api.del(target.path, admin.token);
    const body = ok(res);
    expect(body.message).toEqual(expect.any(String));
    const recorded = await lastEvent();
    expect(recorded.type).toBe(expectedEvent[resource]);
    expect(recorded.metadata.actorId).toBe(admin.id);
    await target.check(body.position);

    const before = await eventCount();
    const retry = ok(await api.del(target.path, admin.token));
    expect(retry.alreadyDeleted).toBe(true);
    expect(await eventCount()).toBe(before);
  });

  it('as the owner, another user or a visitor: refused, nothing appended', async () => {
    const target = await resources[resource]!();
    const before = await eventCount();
    for (const [token, status] of [
      [owner.token, 403],
      [other.token, 403],
      [undefined, 401],
    ] as const) {
      const res = await api.del(target.path, token);
      expect(res.status, res.text).toBe(status);
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect(await eventCount()).toBe(before);
  });

  it('an unknown or malformed id is 404, nothing appended', async () => {
    const before = await eventCount();
    const base = `/api/admin/${resource}`;
    for (const id of ['6f1c2a0e-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await api.del(`${base}/${id}`, admin.token);
      expect(res.status, res.text).toBe(404);
    }
    expect(await eventCount()).toBe(before);
  });
});

describe('deleting administrators', () => {
  it('an admin cannot delete themself (nor so any other admin account): 403, nothing appended', async () => {
    const before = await eventCount();
    const res = await api.del(`/api/admin/user/${admin.id}`, admin.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Administrator accounts cannot be deleted from the dashboard');
    expect(await eventCount()).toBe(before);
  });
});
