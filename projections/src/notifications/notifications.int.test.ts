import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adoptionStream,
  CONSISTENT_AFTER_HEADER,
  NOTIFICATION_TEXTS as T,
  notificationsStream,
  type AdoptionEvent,
  type NotificationEvent,
  type PetDetails,
  type UserEvent,
} from '@pawhaven/contracts';
import { rebuildProjection, type EventStore } from '@pawhaven/platform';
import { testEventStore } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import {
  startTestApp,
  testImage,
  uniqueName,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';
import { communityLog, type CommunityLog } from '../community/community-log.testing';
import { notificationId } from './notifications.rows';

/**
 * The notifications read model is a pure function of the log. Users, adoption and the notification commands go
 * through the real HTTP API; community events are appended straight to the log (as the command side records
 * them, plus histories it would never write: a repeated like, stragglers after a post was deleted), with
 * notification events it would never record either (another user's id, an id that is not one), and user and
 * adoption histories it would never record (a deleted account registered again, requests on an ad not published
 * yet). Rebuilding then reproduces the same rows, read flags included.
 */

const TABLES: Record<string, string> = {
  notifications: 'id',
  notification_users: 'id',
  notification_posts: 'id',
  notification_ads: 'id',
  notification_adoption_requests: 'id',
  notification_broadcasts: 'id',
  notification_vet_terms: 'user_id, since',
  notification_receipts: 'user_id, broadcast_id',
  notification_marks: 'user_id',
};

let t: TestApp;
let api: TestApi;
let store: EventStore;
let log: CommunityLog;
let alice: RegisteredUser; // veterinarian
let bob: RegisteredUser; // veterinarian
let carol: RegisteredUser;
let dave: RegisteredUser;
/** A veterinarian whose account the admin deletes. */
let gina: RegisteredUser;
let adminToken: string;
/** A veterinarian who signed up (first as no veterinarian) but verified their address only later. */
const eve = { id: '', email: '', username: '' };
/** Accounts only the log knows (see `recordHistories`). */
const frank = { id: randomUUID(), username: '' };
const ghost = randomUUID();
const ghost2 = randomUUID();
/** Ids of the scenario. */
const s = {
  p1: '',
  p2: '',
  p3: '',
  p4: '',
  pg: '',
  pGhost: '',
  c: {} as Record<string, string>,
  ad: '',
  ad2: '',
  moti: '',
  late: randomUUID(),
  req: {} as Record<string, string>,
};

const rows = async (sql: string, params: unknown[] = []) =>
  (await t.db.pool.query(sql, params)).rows as Json[];

const head = async () =>
  (await t.db.pool.query<{ p: string }>('SELECT coalesce(max(position), 0)::text AS p FROM events')).rows[0]!
    .p;

/** Waits until every projection has passed the last appended event. */
const settle = async () => {
  const res = await api.get('/api/config', undefined, { [CONSISTENT_AFTER_HEADER]: await head() });
  expect(res.headers.get('x-consistency')).toBe('consistent');
};

async function dump(): Promise<Record<string, Json[]>> {
  const out: Record<string, Json[]> = {};
  for (const [table, key] of Object.entries(TABLES))
    out[table] = await rows(`SELECT * FROM ${table} ORDER BY ${key}`);
  return out;
}

const ok = (res: { status: number; text: string; body: Json }, status = 200) => {
  expect(res.status, res.text).toBe(status);
  return res.body;
};

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  // As the app stores events (usernames sealed): a rebuild must read them opened.
  store = testEventStore(t.db);
  log = communityLog(store, { start: new Date('2025-03-01T00:00:00.000Z') });
  alice = await api.registerVerifiedUser({ isVeterinarian: true });
  bob = await api.registerVerifiedUser({ isVeterinarian: true });
  carol = await api.registerVerifiedUser();
  dave = await api.registerVerifiedUser();
  adminToken = ok(await api.post('/api/auth/signin', t.adminCredentials!)).token;
  await runScenario();
  await runLaterScenario();
  await recordHistories();
  await settle();
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

async function registerEve() {
  eve.username = uniqueName('eve');
  eve.email = `${eve.username}@gmail.com`;
  const signUp = async (username: string, isVeterinarian: boolean) =>
    ok(
      await api.post('/api/auth/register', {
        username,
        email: eve.email,
        password: 'Str0ng!Passw0rd',
        isVeterinarian,
      }),
      201,
    ).registrationToken as string;
  await signUp(uniqueName('evie'), false);
  // Signing up again before verifying renews the registration (RegistrationRenewed): a veterinarian after all.
  return signUp(eve.username, true);
}

async function createAd(owner: RegisteredUser, name: string) {
  return ok(
    await api.upload(
      '/api/adoptions',
      { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' },
      owner.token,
      { name, age: '2', location: 'Lahore', petType: 'Dog', description: 'Friendly and house-trained.' },
    ),
    201,
  )._id as string;
}

const requestAdoption = async (user: RegisteredUser, adId: string) =>
  ok(
    await api.post(
      `/api/adoptions/${adId}/request`,
      { name: user.username, email: user.email, phone: '+92 300 1234567', message: 'We have a garden.' },
      user.token,
    ),
    201,
  ).request._id as string;

/** A's notification of this type whose data matches, as the read model shows it to them. */
const find = async (user: string, type: string, data: Record<string, string>) =>
  (
    await rows(`SELECT * FROM user_notifications($1) WHERE type = $2 AND data @> $3::jsonb`, [
      user,
      type,
      JSON.stringify(data),
    ])
  )[0];

const append = (userId: string, event: NotificationEvent) =>
  store.append(notificationsStream(userId), [{ ...event, metadata: { actorId: userId } }], 'any');

/**
 * Alice and Bob are veterinarians; Eve signs up as one but verifies only after Alice's post.
 * P1 (Alice, vet): liked by Carol twice in a row, by Dave then unliked, by Alice herself; c1 (Bob) ← c2 (Carol)
 * ← c3 (Dave), c3 then deleted. P2 (Carol): liked by Bob, commented by Alice, deleted; then a like and a comment by
 * Dave arrive late. P3 (Bob, vet) after Eve verified. Ad "Sheru" (Carol): requested by Alice, Bob and Dave; Bob
 * accepted. Then Alice reads her like, Bob reads all, Dave deletes his rejection, Carol deletes all, and a request
 * on Carol's ad "Rani" arrives afterwards; Dave's stream also records a read of Alice's notification and a delete
 * of an id that is none.
 */
async function runScenario() {
  const eveToken = await registerEve();
  s.p1 = (await log.publish(alice.user._id, { vet: true, caption: 'Vaccination day' })).postId;
  await log.like(s.p1, carol.user._id);
  await log.like(s.p1, carol.user._id);
  await log.like(s.p1, dave.user._id);
  await log.unlike(s.p1, dave.user._id);
  await log.like(s.p1, alice.user._id);
  const comment = async (key: string, post: string, user: RegisteredUser, parent?: string) => {
    s.c[key] = (
      await log.comment(post, user.user._id, `${key} text`, parent ? s.c[parent]! : null)
    ).commentId;
  };
  await comment('c1', s.p1, bob);
  await comment('c2', s.p1, carol, 'c1');
  await comment('c3', s.p1, dave, 'c2');
  await log.deleteComment(s.p1, s.c.c3!);

  s.p2 = (await log.publish(carol.user._id)).postId;
  await log.like(s.p2, bob.user._id);
  await comment('p2a', s.p2, alice);
  await log.deletePost(s.p2);
  await log.like(s.p2, dave.user._id);
  await comment('late', s.p2, dave);

  eve.id = ok(
    await api.post('/api/auth/verify-registration', {
      email: eve.email,
      otp: await api.readCode(eve.email),
      registrationToken: eveToken,
    }),
  ).user._id;
  s.p3 = (await log.publish(bob.user._id, { vet: true })).postId;

  s.ad = await createAd(carol, 'Sheru');
  for (const u of [alice, bob, dave]) s.req[u.username] = await requestAdoption(u, s.ad);
  ok(await api.put(`/api/adoptions/requests/${s.req[bob.username]}`, { status: 'accepted' }, carol.token));
  await settle();

  const like = await find(alice.user._id, 'post_like', { postId: s.p1, actorId: carol.user._id });
  ok(await api.put(`/api/notifications/${like.id}/read`, {}, alice.token));
  ok(await api.put('/api/notifications/mark-all-read', {}, bob.token));
  const rejection = await find(dave.user._id, 'adoption_request_rejected', { adId: s.ad });
  ok(await api.del(`/api/notifications/${rejection.id}`, dave.token));
  ok(await api.del('/api/notifications/delete-all', carol.token));
  s.ad2 = await createAd(carol, 'Rani');
  s.req.rani = await requestAdoption(dave, s.ad2);
  const alicesComment = await find(alice.user._id, 'post_comment', { commentId: s.c.c1! });
  await append(dave.user._id, {
    type: 'NotificationRead',
    data: { userId: dave.user._id, notificationId: alicesComment.id, at: log.tick() },
  });
  await append(dave.user._id, {
    type: 'NotificationDeleted',
    data: { userId: dave.user._id, notificationId: 'not-an-id', at: log.tick() },
  });
  await settle();
}

/**
 * Later: Dave likes P1 again, Alice deletes that notification, and Dave's next like notifies her anew. Carol
 * answers Alice's own comment a1 on P1 (one notification, though Alice wrote both the post and the comment). Carol
 * renames "Rani" to "Rani Bibi" and declines Dave; Alice's request on it is removed by the admin. Gina (a vet) joins:
 * her post PG notifies the veterinarians, Carol likes it and Alice comments on it; she comments on P1 (g1), Bob
 * answers her (g2); she owns "Moti", requested by Dave and accepted, and requests "Rani Bibi". The admin then deletes
 * her account: all of that goes but Bob's answer, and a reply to her comment and a like of her post afterwards notify
 * nobody but Alice, as P1's author.
 */
async function runLaterScenario() {
  await log.like(s.p1, dave.user._id);
  await settle();
  const first = await find(alice.user._id, 'post_like', { postId: s.p1, actorId: dave.user._id });
  ok(await api.del(`/api/notifications/${first.id}`, alice.token));
  await log.like(s.p1, dave.user._id);
  s.c.a1 = (await log.comment(s.p1, alice.user._id, 'a1 text')).commentId;
  await log.comment(s.p1, carol.user._id, 'reply to a1', s.c.a1);

  ok(await api.put(`/api/adoptions/${s.ad2}`, { name: 'Rani Bibi' }, carol.token));
  s.req.aliceRani = await requestAdoption(alice, s.ad2);
  await settle();
  ok(await api.put(`/api/adoptions/requests/${s.req.rani}`, { status: 'rejected' }, carol.token));
  ok(await api.del(`/api/admin/adoption-requests/${s.req.aliceRani}`, adminToken));

  gina = await api.registerVerifiedUser({ isVeterinarian: true });
  s.pg = (await log.publish(gina.user._id, { vet: true, caption: 'Deworming' })).postId;
  await log.like(s.pg, carol.user._id);
  s.c.pg = (await log.comment(s.pg, alice.user._id, 'Thanks')).commentId;
  s.c.g1 = (await log.comment(s.p1, gina.user._id, 'g1 text')).commentId;
  s.c.g2 = (await log.comment(s.p1, bob.user._id, 'g2 text', s.c.g1)).commentId;
  s.moti = await createAd(gina, 'Moti');
  s.req.moti = await requestAdoption(dave, s.moti);
  s.req.ginaRani = await requestAdoption(gina, s.ad2);
  await settle();
  ok(await api.put(`/api/adoptions/requests/${s.req.moti}`, { status: 'accepted' }, gina.token));
  await settle();
  expect(await find(carol.user._id, 'adoption_request', { requestId: s.req.ginaRani })).toBeDefined();
  expect(await find(alice.user._id, 'new_post_vet_notification', { postId: s.pg })).toBeDefined();

  ok(await api.del(`/api/admin/user/${gina.user._id}`, adminToken));
  await log.comment(s.p1, carol.user._id, 'g3 text', s.c.g1);
  await log.like(s.pg, dave.user._id);
  await settle();
}

const details = (name: string): PetDetails => ({
  name,
  age: '2',
  ageUnit: 'yrs',
  petType: 'Dog',
  breed: '',
  gender: null,
  size: null,
  vaccinated: null,
  spayedNeutered: null,
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
  description: 'Friendly.',
  location: 'Lahore',
  imageUrl: '/api/images/000000000000000000000000',
});

const recordUser = (userId: string, events: UserEvent[]) =>
  store.append(
    `user-${userId}`,
    events.map((e) => ({ ...e, metadata: { actorId: userId } })),
    'any',
  );

const registered = (
  userId: string,
  username: string,
  via: 'password' | 'google',
  isVeterinarian: boolean,
): UserEvent => ({
  type: 'UserRegistered',
  data: {
    userId,
    username,
    email: `${username}@gmail.com`,
    passwordHash: null,
    isVeterinarian,
    isAdmin: false,
    via,
    registeredAt: log.tick(),
  },
});

const recordAd = (adId: string, actorId: string, events: AdoptionEvent[]) =>
  store.append(
    adoptionStream(adId),
    events.map((e) => ({ ...e, metadata: { actorId } })),
    'any',
  );

/**
 * What the command side never records. Frank signs up by password as a veterinarian (unverified), registers again
 * through Google (verified: a veterinarian to notify), is deleted, and is registered once more: he stays deleted.
 * A user nobody knows is renewed and verified (nothing to update); one nobody knows is deleted (a tombstone), then
 * posts P-ghost, which Alice's comment notifies nobody of. A stranger likes P3 ("Someone"). Bob's vet post P4
 * notifies Alice and Eve, not Frank; Eve reads it and deletes P3's, one by one. Ad "Late" is renamed and requested by Dave (accepted) before it is published
 * (nothing to rename, nobody to tell); published by Carol, then again by Alice (ignored); declining Dave tells him.
 */
async function recordHistories() {
  frank.username = uniqueName('frank');
  await recordUser(frank.id, [
    registered(frank.id, uniqueName('frankie'), 'password', true),
    registered(frank.id, uniqueName('frankg'), 'google', true),
  ]);
  await recordUser(frank.id, [
    { type: 'UserDeleted', data: { userId: frank.id, deletedBy: alice.user._id, deletedAt: log.tick() } },
  ]);
  await recordUser(frank.id, [registered(frank.id, frank.username, 'google', true)]);
  const nobody = randomUUID();
  await recordUser(nobody, [
    {
      type: 'RegistrationRenewed',
      data: { username: 'nobody', passwordHash: 'x', isVeterinarian: true },
    },
    { type: 'EmailVerified', data: { verifiedAt: log.tick() } },
  ]);
  await recordUser(ghost2, [
    { type: 'UserDeleted', data: { userId: ghost2, deletedBy: alice.user._id, deletedAt: log.tick() } },
  ]);
  s.pGhost = (await log.publish(ghost2)).postId;
  await log.comment(s.pGhost, alice.user._id, 'Hello?');
  await log.like(s.p3, ghost);
  s.p4 = (await log.publish(bob.user._id, { vet: true })).postId;
  await settle();
  // Eve reads P4's notification (twice) and deletes P3's, one by one.
  const p4 = (await find(eve.id, 'new_post_vet_notification', { postId: s.p4 })).id as string;
  const p3 = (await find(eve.id, 'new_post_vet_notification', { postId: s.p3 })).id as string;
  for (const [type, notificationId] of [
    ['NotificationRead', p4],
    ['NotificationDeleted', p3],
    ['NotificationRead', p4],
    ['NotificationRead', p3],
  ] as const)
    await append(eve.id, { type, data: { userId: eve.id, notificationId, at: log.tick() } });

  s.req.late = randomUUID();
  await recordAd(s.late, dave.user._id, [
    { type: 'AdoptionAdUpdated', data: { changes: { name: 'Early' }, updatedAt: log.tick() } },
    {
      type: 'AdoptionRequested',
      data: {
        requestId: s.req.late,
        requesterId: dave.user._id,
        name: dave.username,
        email: dave.email,
        phone: '+92 300 1234567',
        message: 'Early bird.',
        petHistoryImage: null,
        requestedAt: log.tick(),
      },
    },
    { type: 'AdoptionRequestAccepted', data: { requestId: s.req.late, acceptedAt: log.tick() } },
  ]);
  await recordAd(s.late, carol.user._id, [
    {
      type: 'AdoptionAdPublished',
      data: { adId: s.late, ownerId: carol.user._id, details: details('Late'), publishedAt: log.tick() },
    },
  ]);
  await recordAd(s.late, alice.user._id, [
    {
      type: 'AdoptionAdPublished',
      data: { adId: s.late, ownerId: alice.user._id, details: details('Twice'), publishedAt: log.tick() },
    },
  ]);
  await recordAd(s.late, carol.user._id, [
    {
      type: 'AdoptionRequestRejected',
      data: { requestId: s.req.late, reason: 'Declined by the owner', rejectedAt: log.tick() },
    },
  ]);
}

describe('the notifications read model after the scenario', () => {
  /** Each user's notifications as [type, message, read], newest first. */
  const listOf = async (userId: string) =>
    (
      await rows(`SELECT type, message, read FROM user_notifications($1) ORDER BY created_at DESC, id DESC`, [
        userId,
      ])
    ).map((r) => [r.type, r.message, r.read]);

  it('holds what happened to each user, with what they did to it', async () => {
    expect(await listOf(alice.user._id)).toEqual([
      ['adoption_request_rejected', T.adoption_request_rejected_other.message('Sheru'), false],
      ['new_post_vet_notification', `Veterinarian ${bob.username} shared a new post`, false], // P4
      ['post_comment', `${carol.username} commented on your post`, false], // g3
      ['post_comment', `${bob.username} commented on your post`, false], // g2
      ['post_comment', `${carol.username} replied to your comment`, false], // on a1
      ['post_like', `${dave.username} liked your post`, false], // his like after the one she deleted
      ['new_post_vet_notification', `Veterinarian ${bob.username} shared a new post`, false], // P3
      ['post_comment', `${carol.username} commented on your post`, false],
      ['post_comment', `${bob.username} commented on your post`, false],
      ['post_like', `${carol.username} liked your post`, true],
    ]);
    expect(await listOf(bob.user._id)).toEqual([
      ['adoption_request_accepted', 'Your request to adopt Sheru was accepted', true],
      ['post_like', `${T.someone} liked your post`, false],
      ['post_comment', `${carol.username} replied to your comment`, true],
      ['new_post_vet_notification', `Veterinarian ${alice.username} shared a new post`, true],
    ]);
    // Named as it was called then; Alice's request (removed) and Gina's (deleted with her) are gone.
    expect(await listOf(carol.user._id)).toEqual([
      ['adoption_request', `${dave.username} wants to adopt Rani`, false],
    ]);
    // Gina's acceptance went with her account.
    expect(await listOf(dave.user._id)).toEqual([
      ['adoption_request_rejected', T.adoption_request_rejected.message('Rani Bibi'), false],
      ['adoption_request_rejected', T.adoption_request_rejected.message('Late'), false],
    ]);
    // She read P4's and deleted P3's.
    expect(await listOf(eve.id)).toEqual([
      ['new_post_vet_notification', `Veterinarian ${bob.username} shared a new post`, true], // P4
    ]);
  });

  it('keeps nothing of a deleted account but its tombstone, and nothing about what it had', async () => {
    const gone = [gina.user._id, frank.id, ghost2];
    expect(
      await rows(`SELECT id FROM notifications WHERE user_id = ANY($1) OR actor_id = ANY($1)`, [gone]),
    ).toEqual([]);
    expect(await rows(`SELECT id FROM notification_broadcasts WHERE actor_id = ANY($1)`, [gone])).toEqual([]);
    for (const table of ['notification_vet_terms', 'notification_receipts', 'notification_marks'])
      expect(await rows(`SELECT * FROM ${table} WHERE user_id = ANY($1)`, [gone])).toEqual([]);
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
    expect(
      (
        await rows(
          `SELECT id, username, is_veterinarian, verified, deleted FROM notification_users WHERE id = ANY($1)`,
          [[...gone, ghost]],
        )
      ).sort(byId),
    ).toEqual(
      [
        { id: gina.user._id, username: '', is_veterinarian: false, verified: false, deleted: true },
        // Registered again after the deletion: still deleted, so not notified of P4; the name, sealed with the
        // destroyed key, reads as its placeholder.
        { id: frank.id, username: '', is_veterinarian: true, verified: true, deleted: true },
        { id: ghost2, username: '', is_veterinarian: false, verified: false, deleted: true },
      ].sort(byId),
    );
    expect(await rows(`SELECT id FROM notification_posts WHERE id = ANY($1)`, [[s.pg, s.pGhost]])).toEqual([
      { id: s.pGhost },
    ]);
    expect(await rows(`SELECT id FROM notification_ads WHERE id = $1`, [s.moti])).toEqual([]);
    expect(
      await rows(`SELECT id FROM notification_adoption_requests WHERE id = ANY($1)`, [
        [s.req.moti, s.req.ginaRani, s.req.aliceRani],
      ]),
    ).toEqual([]);
  });

  it('gives each notification the id of its cause and recipient, and the ids to open it', async () => {
    const liked = (
      await rows(`SELECT event_id FROM events WHERE stream_id = $1 ORDER BY stream_revision LIMIT 1`, [
        `post-like-${s.p1}-${carol.user._id}`,
      ])
    )[0]!;
    const like = await find(alice.user._id, 'post_like', { postId: s.p1, actorId: carol.user._id });
    expect(like.id).toBe(notificationId(liked.event_id, alice.user._id));
    expect((await rows(`SELECT * FROM notifications WHERE id = $1`, [like.id]))[0]).toMatchObject({
      data: { postId: s.p1, actorId: carol.user._id },
      post_id: s.p1,
      actor_id: carol.user._id,
      comment_id: null,
    });
    const reply = await find(bob.user._id, 'post_comment', { commentId: s.c.c2! });
    expect(reply.data).toEqual({ postId: s.p1, commentId: s.c.c2, actorId: carol.user._id });
    const accepted = await find(bob.user._id, 'adoption_request_accepted', { adId: s.ad });
    expect(accepted.data).toEqual({ adId: s.ad, requestId: s.req[bob.username], actorId: carol.user._id });
    // A veterinarian's post: one broadcast, each recipient's notification still with the id of cause and recipient.
    const published = (
      await rows(`SELECT event_id FROM events WHERE type = 'PostPublished' AND data->>'postId' = $1`, [s.p4])
    )[0]!;
    for (const vet of [alice.user._id, eve.id])
      expect((await find(vet, 'new_post_vet_notification', { postId: s.p4 })).id).toBe(
        notificationId(published.event_id, vet),
      );
    expect(await rows(`SELECT id, post_id FROM notification_broadcasts WHERE post_id = $1`, [s.p4])).toEqual([
      { id: published.event_id, post_id: s.p4 },
    ]);
  });

  it('knows who is who, which posts are live, and which request is whose', async () => {
    expect(
      await rows(
        `SELECT id, is_veterinarian, verified FROM notification_users WHERE id = ANY($1) ORDER BY id`,
        [[alice.user._id, carol.user._id, eve.id]],
      ),
    ).toEqual(
      [
        { id: alice.user._id, is_veterinarian: true, verified: true },
        { id: carol.user._id, is_veterinarian: false, verified: true },
        { id: eve.id, is_veterinarian: true, verified: true },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect((await rows(`SELECT id FROM notification_posts`)).map((r) => r.id).sort()).toEqual(
      [s.p1, s.p3, s.p4, s.pGhost].sort(),
    );
    expect(
      await rows(`SELECT id, owner_id, name FROM notification_ads WHERE id = ANY($1) ORDER BY name`, [
        [s.ad, s.ad2, s.late],
      ]),
    ).toEqual([
      // Published after a request on it (which told nobody), and published again in vain.
      { id: s.late, owner_id: carol.user._id, name: 'Late' },
      { id: s.ad2, owner_id: carol.user._id, name: 'Rani Bibi' },
      { id: s.ad, owner_id: carol.user._id, name: 'Sheru' },
    ]);
    expect(
      await rows(
        `SELECT id, ad_id, requester_id FROM notification_adoption_requests WHERE id = ANY($1) ORDER BY ad_id`,
        [[s.req.rani, s.req.late]],
      ),
    ).toEqual(
      [
        { id: s.req.rani, ad_id: s.ad2, requester_id: dave.user._id },
        { id: s.req.late, ad_id: s.late, requester_id: dave.user._id },
      ].sort((a, b) => (a.ad_id < b.ad_id ? -1 : 1)),
    );
  });
});

const notificationProjections = () => allProjections.filter((p) => p.tables.some((table) => table in TABLES));

describe('rebuilding the notifications projection from the log', () => {
  it('reproduces identical rows in every table, read flags included, even from tampered tables', async () => {
    const before = await dump();
    expect(before.notifications!.length).toBeGreaterThan(5);
    const projections = notificationProjections();
    expect(projections.map((p) => p.name)).toEqual(['notifications']);

    await t.db.pool.query(`UPDATE notifications SET read = NOT read, message = 'x'`);
    await t.db.pool.query(
      `INSERT INTO notifications (id, user_id, type, title, message, data, created_at)
       VALUES (gen_random_uuid(), $1, 'post_like', 'x', 'x', '{}', now())`,
      [dave.user._id],
    );
    await t.db.pool.query(`DELETE FROM notification_users WHERE id = $1`, [alice.user._id]);
    await t.db.pool.query(`UPDATE notification_ads SET name = 'x'`);
    await t.db.pool.query(`DELETE FROM notification_posts`);
    await t.db.pool.query(`UPDATE notification_broadcasts SET message = 'x'`);
    await t.db.pool.query(`UPDATE notification_vet_terms SET until = since + 1`);
    await t.db.pool.query(`UPDATE notification_receipts SET deleted = NOT deleted`);
    await t.db.pool.query(`DELETE FROM notification_marks`);
    expect(await dump()).not.toEqual(before);

    for (const p of projections) {
      const result = await rebuildProjection(t.db.knex, store, p);
      expect(result.processed).toBeGreaterThan(0);
    }
    expect(await dump()).toEqual(before);
  });

  it('leaves the live projector working: later events still notify', async () => {
    await log.like(s.p3, carol.user._id);
    await settle();
    expect(await find(bob.user._id, 'post_like', { postId: s.p3, actorId: carol.user._id })).toMatchObject({
      message: `${carol.username} liked your post`,
      read: false,
    });
  });
});
