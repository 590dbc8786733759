import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjection } from '@pawhaven/platform';
import { testEventStore } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';
import { releaseImagesAfter } from '../images/released-images';

/**
 * Deleting a user (issue 10), end to end through real commands: the victim has an ad with requests on it, requests
 * on someone else's ad (with a proof picture), a post with others' likes and comments, comments on others' posts
 * (one answered by somebody else), likes, conversations with messages both ways, notifications both ways, a profile
 * picture and a contact message. After the admin's DELETE every read-model table is free of them (the audit keeps
 * its facts; the notifications' and the sessions' tombstones keep the bare id), every count agrees with the rows,
 * their token is refused at once, their pictures are gone, and rebuilding every projection gives the same rows.
 */

let t: TestApp;
let api: TestApi;
let image: Buffer;
let victim: RegisteredUser;
let bob: RegisteredUser;
let cara: RegisteredUser;
let adminToken: string;
const ids = {
  victimAd: '',
  bobAd: '',
  victimPost: '',
  bobPost: '',
  answeredComment: '',
  caraReply: '',
  bobComment: '',
  conversation: '',
};
const victimImages: string[] = [];
let deletion: ApiResponse;
/** The dev mailbox's mails to the victim before the deletion (their verification code, the contact confirmation). */
let victimMailsBefore: { subject: string }[] = [];
const mailsTo = async (email: string) =>
  (
    await t.db.pool.query<{ subject: string }>(
      `SELECT subject FROM dev_mailbox WHERE lower("to") = lower($1) ORDER BY id`,
      [email],
    )
  ).rows;

const ok = (res: ApiResponse, status = 200) => {
  expect(res.status, `${status}: ${res.text}`).toBe(status);
  return res.body;
};
const png = (field: string) => ({ field, bytes: image, filename: 'pic.png', type: 'image/png' });
const adFields = { name: 'Ginger', age: '3', location: 'Lahore', petType: 'Cat', description: 'Calm.' };
const requestFields = { name: 'Req', email: 'req@gmail.com', phone: '03001234567', message: 'Please!' };

/** Every projection has passed `position`. */
async function settled(position: string) {
  const names = allProjections.map((p) => p.name);
  for (;;) {
    const { rows } = await t.db.pool.query<{ done: number }>(
      `SELECT count(*)::int AS done FROM projection_checkpoints c, events e
        WHERE e.position = $1 AND c.name = ANY($2)
          AND (c.transaction_id, c.position) >= (e.transaction_id, e.position)`,
      [position, names],
    );
    if (rows[0]!.done === names.length) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const tables = [...new Set(allProjections.flatMap((p) => p.tables))];
const dumpAll = async () => {
  const out: Record<string, unknown[]> = {};
  for (const table of tables)
    out[table] = (await t.db.pool.query(`SELECT x.* FROM ${table} x ORDER BY x::text`)).rows;
  return out;
};

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  image = await testImage(40, 30);
  [victim, bob, cara] = await Promise.all([
    api.registerVerifiedUser({ isVeterinarian: true }),
    api.registerVerifiedUser({ isVeterinarian: true }),
    api.registerVerifiedUser(),
  ]);
  adminToken = (await t.signInAdmin()).token;
  const V = victim.token;
  const B = bob.token;
  const C = cara.token;

  const avatar = ok(await api.upload('/api/auth/upload-profile-image', png('image'), V));
  victimImages.push(avatar.data.profileImage);
  // Ads, and requests both ways (the victim's with a proof picture).
  const vAd = ok(await api.upload('/api/adoptions', png('image'), V, adFields), 201);
  ids.victimAd = vAd._id;
  victimImages.push(vAd.imageUrl);
  ids.bobAd = ok(await api.upload('/api/adoptions', png('image'), B, adFields), 201)._id;
  ok(await api.post(`/api/adoptions/${ids.victimAd}/request`, requestFields, B), 201);
  ok(await api.post(`/api/adoptions/${ids.victimAd}/request`, requestFields, C), 201);
  const proof = ok(
    await api.upload(`/api/adoptions/${ids.bobAd}/request`, png('petHistoryImage'), V, requestFields),
    201,
  );
  victimImages.push(proof.request.petHistoryImage);
  ok(await api.post(`/api/adoptions/${ids.bobAd}/request`, requestFields, C), 201);
  // Posts, likes and comments both ways; a comment of the victim's that Cara answered.
  const vPost = ok(await api.upload('/api/posts', png('image'), V, { caption: 'Vet tips' }), 201);
  ids.victimPost = vPost._id;
  victimImages.push(vPost.imageUrl);
  ids.bobPost = ok(await api.upload('/api/posts', png('image'), B, { caption: 'Rescue day' }), 201)._id;
  ok(await api.post(`/api/comments/${ids.victimPost}`, { content: 'Thanks doc' }, B), 201);
  ok(await api.post(`/api/posts/${ids.victimPost}/like`, undefined, B));
  ok(await api.post(`/api/posts/${ids.victimPost}/like`, undefined, C));
  ids.answeredComment = ok(
    await api.post(`/api/comments/${ids.bobPost}`, { content: 'Well done' }, V),
    201,
  )._id;
  ids.caraReply = ok(
    await api.post(
      `/api/comments/${ids.bobPost}/comments`,
      { content: 'Agreed', parentCommentId: ids.answeredComment },
      C,
    ),
    201,
  )._id;
  ok(await api.post(`/api/comments/${ids.bobPost}`, { content: 'Second thought' }, V), 201);
  ids.bobComment = ok(await api.post(`/api/comments/${ids.bobPost}`, { content: 'Thank you' }, B), 201)._id;
  ok(
    await api.post(
      `/api/comments/${ids.bobPost}/comments`,
      { content: 'Any time', parentCommentId: ids.bobComment },
      V,
    ),
    201,
  );
  ok(await api.post(`/api/posts/${ids.bobPost}/like`, undefined, V));
  ok(await api.post(`/api/posts/${ids.bobPost}/like`, undefined, C));
  // Conversations: victim ↔ Bob (messages both ways), Bob ↔ Cara (stays).
  const vb = ok(
    await api.post('/api/conversations', { senderId: victim.user._id, receiverId: bob.user._id }, V),
  );
  const send = (from: RegisteredUser, conversationId: string, text: string) =>
    api.post('/api/messages', { conversationId, senderId: from.user._id, text }, from.token);
  ids.conversation = vb.data._id;
  ok(await send(victim, vb.data._id, 'Hi Bob'), 201);
  ok(await send(bob, vb.data._id, 'Hi doc'), 201);
  ok(await send(victim, vb.data._id, 'Unread by Bob'), 201);
  const bc = ok(
    await api.post('/api/conversations', { senderId: bob.user._id, receiverId: cara.user._id }, B),
  );
  ok(await send(cara, bc.data._id, 'Hello Bob'), 201);
  ok(await api.post('/api/contact', { name: 'Doc', email: victim.email, message: 'Hello team' }, V), 201);

  victimMailsBefore = await mailsTo(victim.email);
  deletion = await api.del(`/api/admin/user/${victim.user._id}`, adminToken);
  ok(deletion);
  await settled(deletion.body.position);
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('deleting a user with all their data', () => {
  it('their token is refused at once, on both sides, and they cannot sign in', async () => {
    const command = await api.post(`/api/comments/${ids.bobPost}`, { content: 'Still here?' }, victim.token);
    expect(command.status).toBe(401);
    expect((await api.get('/api/notifications', victim.token)).status).toBe(401);
    const signin = await api.post('/api/auth/signin', { email: victim.email, password: victim.password });
    expect(signin.status).toBe(401);
  });

  it('leaves no row of theirs in any read model (the audit keeps its facts, notifications and sessions a bare tombstone)', async () => {
    const id = victim.user._id;
    for (const table of tables) {
      const { rows } = await t.db.pool.query(`SELECT x.* FROM ${table} x WHERE strpos(x::text, $1) > 0`, [
        id,
      ]);
      if (table === 'adoption_audit') {
        expect(rows.length, table).toBeGreaterThan(0);
        continue;
      }
      if (table === 'notification_users') {
        expect(rows).toEqual([{ id, username: '', is_veterinarian: false, verified: false, deleted: true }]);
        continue;
      }
      if (table === 'session_ends') {
        // The deletion itself, so that a sign-in decided before it and recorded after it is not stored.
        expect(rows).toEqual([
          { user_id: id, user_revision: expect.any(Number), ended_at: expect.any(Date), deleted: true },
        ]);
        continue;
      }
      expect(rows, `${table} still has rows of the deleted user`).toEqual([]);
    }
    // Nor anything they wrote (post, comments, messages, contact message).
    const texts = [
      'Vet tips',
      'Well done',
      'Second thought',
      'Any time',
      'Hi Bob',
      'Unread by Bob',
      'Hello team',
    ];
    for (const table of ['posts', 'post_comments', 'chat_messages', 'conversations', 'contact_messages'])
      for (const text of texts) {
        const { rows } = await t.db.pool.query(`SELECT 1 FROM ${table} x WHERE strpos(x::text, $1) > 0`, [
          text,
        ]);
        expect(rows, `${table} still holds '${text}'`).toEqual([]);
      }
  });

  it('keeps an answered comment in its place as deleted, without author, and drops the unanswered ones', async () => {
    const post = ok(await api.get(`/api/posts/${ids.bobPost}`));
    const byId = new Map(post.comments.map((c: Json) => [c._id, c]));
    expect(byId.get(ids.answeredComment)).toMatchObject({ deleted: true, content: '' });
    expect(byId.get(ids.caraReply)).toMatchObject({ deleted: false, content: 'Agreed' });
    expect(post.commentCount).toBe(2); // Cara's reply and Bob's comment
    expect(post.likeCount).toBe(1); // Cara's like
    expect(post.likes).toEqual([cara.user._id]);
    expect((await api.get(`/api/posts/${ids.victimPost}`)).status).toBe(404);
  });

  it('keeps every count equal to the rows', async () => {
    const q = async (sql: string) => (await t.db.pool.query(sql)).rows;
    expect(
      await q(`SELECT p.id FROM posts p WHERE p.like_count <> (SELECT count(*) FROM post_likes l WHERE l.post_id = p.id)
                  OR p.comment_count <> (SELECT count(*) FROM post_comments c WHERE c.post_id = p.id AND NOT c.deleted)`),
    ).toEqual([]);
    expect(await q(`SELECT 1 FROM community_totals WHERE posts <> (SELECT count(*) FROM posts)`)).toEqual([]);
    expect(
      await q(`SELECT s.* FROM user_community_stats s WHERE
                 s.posts <> (SELECT count(*) FROM posts p WHERE p.author_id = s.user_id)
              OR s.comments <> (SELECT count(*) FROM post_comments c WHERE c.author_id = s.user_id AND NOT c.deleted)
              OR s.likes_given <> (SELECT count(*) FROM post_likes l WHERE l.user_id = s.user_id)
              OR s.likes_received <> (SELECT count(*) FROM post_likes l JOIN posts p ON p.id = l.post_id
                                       WHERE p.author_id = s.user_id)`),
    ).toEqual([]);
    expect(
      await q(`SELECT a.id FROM adoption_ads a
                WHERE a.request_count <> (SELECT count(*) FROM adoption_requests r WHERE r.ad_id = a.id)`),
    ).toEqual([]);
    expect(
      await q(`SELECT s.* FROM user_adoption_stats s WHERE
                 s.requests <> (SELECT count(*) FROM adoption_requests r WHERE r.requester_id = s.user_id)
              OR s.ads <> (SELECT count(*) FROM adoption_ads a WHERE a.owner_id = s.user_id AND a.deleted_at IS NULL)`),
    ).toEqual([]);
    expect(
      await q(`SELECT m.* FROM conversation_members m WHERE m.unread_count <> (
                 SELECT count(*) FROM chat_messages c WHERE c.conversation_id = m.conversation_id
                    AND c.sender_id <> m.user_id AND c.seq > m.read_seq)`),
    ).toEqual([]);
    // Cara's request on the victim's ad went with the ad; hers on Bob's ad stays.
    const [caraStats] = await q(
      `SELECT requests FROM user_adoption_stats WHERE user_id = '${cara.user._id}'`,
    );
    expect(caraStats).toEqual({ requests: 1 });
  });

  it("the other side: Bob's conversation with them is gone, his other one and his notifications stay right", async () => {
    const conversations = ok(await api.get(`/api/conversations/${bob.user._id}`, bob.token));
    const list = conversations.data ?? conversations;
    expect(list.map((c: Json) => c.members ?? c.participants?.map((p: Json) => p._id)).flat()).not.toContain(
      victim.user._id,
    );
    expect(list).toHaveLength(1);
    const notes = ok(await api.get('/api/notifications?limit=50', bob.token));
    expect(notes.notifications.map((n: Json) => n.data.actorId)).not.toContain(victim.user._id);
    const unread = ok(await api.get('/api/notifications/unread-count', bob.token));
    expect(unread.count).toBe(notes.notifications.filter((n: Json) => !n.read).length);
  });

  it('clears the dev mailbox of every mail to their address; the others keep theirs', async () => {
    expect(victimMailsBefore.length).toBeGreaterThanOrEqual(2);
    expect(victimMailsBefore.some((m) => /verif/i.test(m.subject))).toBe(true);
    expect(await mailsTo(victim.email)).toEqual([]);
    expect(await mailsTo(victim.email.toUpperCase())).toEqual([]);
    expect((await mailsTo(bob.email)).length).toBeGreaterThan(0);
  });

  it('removes their pictures from storage', async () => {
    expect(victimImages.every((p) => typeof p === 'string' && p.startsWith('/api/images/'))).toBe(true);
    const imageIds = victimImages.map((p) => p.slice('/api/images/'.length));
    const { rows } = await t.db.pool.query(`SELECT id FROM images WHERE id = ANY($1)`, [imageIds]);
    expect(rows).toEqual([]);
    expect((await api.get(victimImages[0]!)).status).toBe(404);
  });

  it('replaying their deletion (the released-images reactor after a crash) removes any picture of theirs left behind', async () => {
    const leftOver = victimImages.map((p) => p.slice('/api/images/'.length));
    const other = `${'0'.repeat(23)}1`;
    for (const id of [...leftOver, other])
      await t.db
        .knex('images')
        .insert({ id, content_type: 'image/webp', bytes: image, width: 40, height: 30 });
    const userId = victim.user._id;
    const deleted = await releaseImagesAfter(t.db.knex, {
      streamId: `user-${userId}`,
      type: 'UserDeleted',
      data: { userId },
    });
    expect(deleted).toBe(leftOver.length);
    const { rows } = await t.db.pool.query(`SELECT id FROM images WHERE id = ANY($1) ORDER BY id`, [
      [...leftOver, other],
    ]);
    // Only the deleted user's pictures go; one nobody's deletion names stays.
    expect(rows).toEqual([{ id: other }]);
  });

  it('nobody may act on their content any more: request, like, comment, reply, message → 404, nothing appended', async () => {
    const count = async () => Number((await t.db.pool.query('SELECT count(*) AS n FROM events')).rows[0].n);
    const before = await count();
    const calls = [
      api.post(`/api/adoptions/${ids.victimAd}/request`, requestFields, bob.token),
      api.post(`/api/posts/${ids.victimPost}/like`, undefined, bob.token),
      api.post(`/api/comments/${ids.victimPost}`, { content: 'Hello?' }, bob.token),
      api.post(
        '/api/messages',
        { conversationId: ids.conversation, senderId: bob.user._id, text: 'Are you there?' },
        bob.token,
      ),
    ];
    for (const res of await Promise.all(calls)) expect(res.status, res.text).toBe(404);
    expect(await count()).toBe(before);
  });

  it('nobody is notified about them afterwards (a reply to their answered comment)', async () => {
    const reply = ok(
      await api.post(
        `/api/comments/${ids.bobPost}/comments`,
        { content: 'Late reply', parentCommentId: ids.answeredComment },
        bob.token,
      ),
      201,
    );
    await settled(reply.position);
    const { rows } = await t.db.pool.query(`SELECT 1 FROM notifications WHERE user_id = $1`, [
      victim.user._id,
    ]);
    expect(rows).toEqual([]);
  });

  it('rebuilding every projection gives the same rows', async () => {
    const head = await t.db.pool.query<{ p: string }>(`SELECT max(position)::text AS p FROM events`);
    await settled(head.rows[0]!.p);
    const before = await dumpAll();
    const store = testEventStore(t.db);
    try {
      for (const projection of allProjections) {
        const result = await rebuildProjection(t.db.knex, store, projection, () => {});
        expect(result.changedRows, projection.name).toBe(0);
      }
    } finally {
      await store.close();
    }
    expect(await dumpAll()).toEqual(before);
  });
});
