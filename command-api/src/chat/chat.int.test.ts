import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES as M } from '@pawhaven/contracts';
import { rebuildProjection } from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { testEventStore } from '@pawhaven/platform/testing';
import {
  connectSocket,
  startTestApp,
  type Json,
  type RegisteredUser,
  type TestApi,
  type TestApp,
  type TestSocket,
} from '@pawhaven/testing';

/**
 * The chat over real HTTP and real sockets: find-or-create under a race, who may read and send, idempotent
 * retried sends, receipts and unread counts, live delivery to the right sockets only, and two gateways on one
 * database delivering to each other.
 */

let t: TestApp;
let api: TestApi;
let alice: RegisteredUser;
let bob: RegisteredUser;
let mallory: RegisteredUser;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  api = t.api;
  [alice, bob, mallory] = await Promise.all([
    api.registerVerifiedUser(),
    api.registerVerifiedUser(),
    api.registerVerifiedUser(),
  ]);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
const streamEvents = async (conversationId: string) =>
  (
    await t.db.pool.query<{ type: string }>(
      'SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_revision',
      [`conversation-${conversationId}`],
    )
  ).rows.map((r) => r.type);
const consistent = (position: string) => ({ 'X-Consistent-After': position });

const start = async (from: RegisteredUser, to: RegisteredUser) => {
  const res = await api.post(
    '/api/conversations',
    { senderId: from.user._id, receiverId: to.user._id },
    from.token,
  );
  expect(res.status, res.text).toBe(200);
  return res.body as { data: { _id: string }; position?: string };
};
const send = (from: RegisteredUser, conversationId: string, text: string, clientMessageId = randomUUID()) =>
  api.post('/api/messages', { conversationId, senderId: from.user._id, text, clientMessageId }, from.token);

/** A connected socket of `user` on `url`, collecting every event it gets. */
async function connect(user: RegisteredUser, url = t.url) {
  const connected = await connectSocket(url, user.token);
  sockets.push(connected.socket);
  return connected;
}

describe('starting a conversation', () => {
  it('gives two users opening a chat with each other at the same moment one conversation', async () => {
    const [carol, dave] = await Promise.all([api.registerVerifiedUser(), api.registerVerifiedUser()]);
    const [a, b] = await Promise.all([start(carol, dave), start(dave, carol)]);
    expect(a.data._id).toBe(b.data._id);
    expect(await streamEvents(a.data._id)).toEqual(['ConversationStarted']);
    // And again later: still the same, nothing new.
    const again = await start(dave, carol);
    expect(again.data._id).toBe(a.data._id);
    expect(await streamEvents(a.data._id)).toEqual(['ConversationStarted']);
  });

  it('refuses oneself (400), an unknown user (404), someone else as sender (403) and visitors (401); appends nothing', async () => {
    const before = await eventCount();
    const self = await api.post(
      '/api/conversations',
      { senderId: alice.user._id, receiverId: alice.user._id },
      alice.token,
    );
    expect([self.status, self.body.message]).toEqual([400, M.notYourself]);
    const nobody = await api.post(
      '/api/conversations',
      { senderId: alice.user._id, receiverId: randomUUID() },
      alice.token,
    );
    expect([nobody.status, nobody.body.message]).toEqual([404, M.userNotFound]);
    const spoof = await api.post(
      '/api/conversations',
      { senderId: bob.user._id, receiverId: mallory.user._id },
      alice.token,
    );
    expect(spoof.status).toBe(403);
    const visitor = await api.post('/api/conversations', {
      senderId: alice.user._id,
      receiverId: bob.user._id,
    });
    expect(visitor.status).toBe(401);
    expect(await eventCount()).toBe(before);
  });

  it('finds an existing conversation for either member, 404 when there is none, 403 for others', async () => {
    const c = await start(alice, bob);
    const found = await api.get(
      `/api/conversations/find/${bob.user._id}/${alice.user._id}`,
      bob.token,
      consistent(c.position ?? '0'),
    );
    expect(found.status, found.text).toBe(200);
    expect(found.body.data._id).toBe(c.data._id);
    expect(found.body.data.members.sort()).toEqual([alice.user._id, bob.user._id].sort());
    const none = await api.get(`/api/conversations/find/${alice.user._id}/${mallory.user._id}`, alice.token);
    expect([none.status, none.body.message]).toEqual([404, M.conversationNotFound]);
    const nosy = await api.get(`/api/conversations/find/${alice.user._id}/${bob.user._id}`, mallory.token);
    expect(nosy.status).toBe(403);
  });
});

describe('messages', () => {
  it('lets members send and read; others are refused and nothing is appended', async () => {
    const c = await start(alice, bob);
    const sent = await send(alice, c.data._id, '  Is Luna still looking for a home?  ');
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.data).toMatchObject({
      text: 'Is Luna still looking for a home?',
      senderId: alice.user._id,
      status: 'sent',
    });

    const before = await eventCount();
    const intruder = await send(mallory, c.data._id, 'hi');
    expect([intruder.status, intruder.body.message]).toEqual([403, M.notMember]);
    const empty = await send(bob, c.data._id, '   ');
    expect(empty.status).toBe(400);
    const long = await send(bob, c.data._id, 'x'.repeat(2001));
    expect([long.status, long.body.message]).toEqual([400, M.textTooLong]);
    const visitor = await api.post('/api/messages', { conversationId: c.data._id, text: 'hi' });
    expect(visitor.status).toBe(401);
    const spoof = await api.post(
      '/api/messages',
      { conversationId: c.data._id, senderId: bob.user._id, text: 'hi' },
      alice.token,
    );
    expect(spoof.status).toBe(403);
    expect(await eventCount()).toBe(before);

    const page = await api.get(`/api/messages/${c.data._id}`, bob.token, consistent(sent.body.position));
    expect(page.status).toBe(200);
    expect(page.body.data.map((m: { text: string }) => m.text)).toContain(
      'Is Luna still looking for a home?',
    );
    const nosy = await api.get(`/api/messages/${c.data._id}`, mallory.token);
    expect(nosy.status).toBe(403);
    const others = await api.get(`/api/conversations/${alice.user._id}`, mallory.token);
    expect(others.status).toBe(403);
  });

  it('answers a retried send with the message already sent: one event, one message', async () => {
    const c = await start(alice, bob);
    const clientMessageId = randomUUID();
    const results = await Promise.all(
      [1, 2, 3].map(() => send(bob, c.data._id, 'Yes she is!', clientMessageId)),
    );
    for (const r of results) expect(r.status, r.text).toBe(201);
    expect(new Set(results.map((r) => r.body.data._id)).size).toBe(1);
    const sentEvents = (await streamEvents(c.data._id)).filter((type) => type === 'MessageSent');
    const page = await api.get(
      `/api/messages/${c.data._id}`,
      bob.token,
      // Only the send that recorded the message has a position (the retries recorded nothing): wait for that one.
      consistent(results.map((r) => r.body.position as string | undefined).find(Boolean)!),
    );
    expect(
      page.body.data.filter((m: { clientMessageId: string }) => m.clientMessageId === clientMessageId),
    ).toHaveLength(1);
    expect(sentEvents.length).toBe(page.body.pagination.total);
  });

  it('pages the newest messages first, each page oldest first', async () => {
    const [carol, dave] = await Promise.all([api.registerVerifiedUser(), api.registerVerifiedUser()]);
    const c = await start(carol, dave);
    let position = '0';
    for (let i = 1; i <= 5; i++) position = (await send(carol, c.data._id, `message ${i}`)).body.position;
    const first = await api.get(`/api/messages/${c.data._id}?limit=2`, dave.token, consistent(position));
    expect(first.body.data.map((m: { text: string }) => m.text)).toEqual(['message 4', 'message 5']);
    expect(first.body.pagination).toMatchObject({ page: 1, total: 5, hasMore: true });
    const last = await api.get(`/api/messages/${c.data._id}?limit=2&page=3`, dave.token);
    expect(last.body.data.map((m: { text: string }) => m.text)).toEqual(['message 1']);
    expect(last.body.pagination.hasMore).toBe(false);
  });

  it('counts unread messages and turns the ticks delivered, then read', async () => {
    const [carol, dave] = await Promise.all([api.registerVerifiedUser(), api.registerVerifiedUser()]);
    const c = await start(carol, dave);
    await send(carol, c.data._id, 'one');
    const two = await send(carol, c.data._id, 'two');
    const list = await api.get(
      `/api/conversations/${dave.user._id}`,
      dave.token,
      consistent(two.body.position),
    );
    expect(list.body.data[0]).toMatchObject({
      _id: c.data._id,
      unreadCount: 2,
      lastMessage: { text: 'two' },
    });

    const delivered = await api.post(
      `/api/conversations/${c.data._id}/delivered`,
      { upToMessageId: two.body.data._id },
      dave.token,
    );
    expect(delivered.status, delivered.text).toBe(200);
    let page = await api.get(`/api/messages/${c.data._id}`, carol.token, consistent(delivered.body.position));
    expect(page.body.data.map((m: { status: string }) => m.status)).toEqual(['delivered', 'delivered']);

    const read = await api.post(
      `/api/conversations/${c.data._id}/read`,
      { upToMessageId: two.body.data._id },
      dave.token,
    );
    page = await api.get(`/api/messages/${c.data._id}`, carol.token, consistent(read.body.position));
    expect(page.body.data.map((m: { status: string }) => m.status)).toEqual(['read', 'read']);
    const after = await api.get(
      `/api/conversations/${dave.user._id}`,
      dave.token,
      consistent(read.body.position),
    );
    expect(after.body.data[0].unreadCount).toBe(0);

    const before = await eventCount();
    const nosy = await api.post(
      `/api/conversations/${c.data._id}/read`,
      { upToMessageId: two.body.data._id },
      mallory.token,
    );
    expect(nosy.status).toBe(403);
    expect(await eventCount()).toBe(before);
  });
});

describe('sockets', () => {
  it('deliver a message live to both members and to nobody else; typing reaches the other member only', async () => {
    const c = await start(alice, bob);
    const [a, b, m] = await Promise.all([connect(alice), connect(bob), connect(mallory)]);
    const clientMessageId = randomUUID();
    const ack = await a.socket.timeout(5000).emitWithAck('sendMessage', {
      conversationId: c.data._id,
      senderId: alice.user._id,
      text: 'Sent over the socket',
      clientMessageId,
      timestamp: Date.now(),
    });
    expect(ack).toMatchObject({ ok: true, message: { text: 'Sent over the socket', clientMessageId } });
    const got = await b.waitFor('getMessage', (p) => p.clientMessageId === clientMessageId);
    expect(got).toMatchObject({ conversationId: c.data._id, senderId: alice.user._id });
    await a.waitFor('getMessage', (p) => p.clientMessageId === clientMessageId);

    a.socket.emit('userTyping', { conversationId: c.data._id });
    expect(await b.waitFor('userTyping')).toEqual({ userId: alice.user._id, conversationId: c.data._id });
    // Mallory typing "into" their conversation reaches nobody.
    m.socket.emit('userTyping', { conversationId: c.data._id });
    await new Promise((r) => setTimeout(r, 300));
    expect(a.got.filter((g) => g.event === 'userTyping')).toHaveLength(0);
    expect(m.got.filter((g) => g.event === 'getMessage' || g.event === 'userTyping')).toHaveLength(0);
  });

  it('refuse joining another user’s room, and a send by a non-member or with bad text', async () => {
    const c = await start(alice, bob);
    const m = await connect(mallory);
    expect(await m.socket.timeout(5000).emitWithAck('join', alice.user._id)).toEqual({
      ok: false,
      status: 403,
      message: M.joinRefused,
    });
    expect(await m.socket.timeout(5000).emitWithAck('join', mallory.user._id)).toEqual({ ok: true });
    const before = await eventCount();
    expect(
      await m.socket
        .timeout(5000)
        .emitWithAck('sendMessage', { conversationId: c.data._id, text: 'let me in' }),
    ).toMatchObject({ ok: false, status: 403, message: M.notMember });
    const a = await connect(alice);
    expect(
      await a.socket
        .timeout(5000)
        .emitWithAck('sendMessage', { conversationId: c.data._id, text: 'nul \u0000 byte' }),
    ).toMatchObject({ ok: false, status: 400 });
    expect(await a.socket.timeout(5000).emitWithAck('sendMessage', 'not an object')).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await eventCount()).toBe(before);
  });

  it('tell a sender live when the message was read', async () => {
    const c = await start(alice, bob);
    const a = await connect(alice);
    const sent = await send(alice, c.data._id, 'Read me');
    await api.post(`/api/conversations/${c.data._id}/read`, { upToMessageId: sent.body.data._id }, bob.token);
    expect(await a.waitFor('messagesStatus', (p) => p.upToMessageId === sent.body.data._id)).toEqual({
      conversationId: c.data._id,
      userId: bob.user._id,
      upToMessageId: sent.body.data._id,
      status: 'read',
    });
  });

  it('close when their session ends, and never record a message sent with it; another session stays', async () => {
    const carol = await api.registerVerifiedUser();
    const second = await api.post('/api/auth/signin', { email: carol.email, password: carol.password });
    expect(second.status).toBe(200);
    const c = await start(carol, bob);
    const [one, two] = await Promise.all([connect(carol), connect({ ...carol, token: second.body.token })]);
    const closed = new Promise<string>((resolve) => one.socket.on('disconnect', resolve));
    expect((await api.post('/api/auth/signout', {}, carol.token)).status).toBe(200);
    // Refused by the session check, or the socket is closed first: either way nothing is sent.
    const late = await one.socket
      .timeout(3000)
      .emitWithAck('sendMessage', { conversationId: c.data._id, text: 'after sign-out' })
      .catch(() => ({ ok: false, status: 'closed' }));
    expect(late).toMatchObject({ ok: false });
    if (late.status !== 'closed')
      expect(late).toEqual({
        ok: false,
        status: 401,
        message: 'Your session has ended. Please sign in again.',
      });
    expect(await closed).toBe('io server disconnect');
    expect(await streamEvents(c.data._id)).toEqual(['ConversationStarted']);
    await new Promise((r) => setTimeout(r, 300));
    expect(two.socket.connected).toBe(true);
  });

  it("close a deleted account's sockets, and take its conversations off the other member's list live", async () => {
    const [dora, admin] = await Promise.all([
      api.registerVerifiedUser(),
      api.post('/api/auth/signin', t.adminCredentials!),
    ]);
    const c = await start(dora, bob);
    expect((await send(dora, c.data._id, 'Bye soon')).status).toBe(201);
    const [d, b] = await Promise.all([connect(dora), connect(bob)]);
    const closed = new Promise<string>((resolve) => d.socket.on('disconnect', resolve));
    expect((await api.del(`/api/admin/user/${dora.user._id}`, admin.body.token)).status).toBe(200);
    expect(await b.waitFor('conversationRemoved')).toEqual({ conversationId: c.data._id });
    expect(await closed).toBe('io server disconnect');
  });
});

describe('two gateways on one database', () => {
  it('deliver messages and typing from a socket on one to a socket on the other', async () => {
    const second = await startTestApp({ db: t.db });
    try {
      const c = await start(alice, bob);
      const [a, b] = await Promise.all([connect(alice, t.url), connect(bob, second.url)]);
      const clientMessageId = randomUUID();
      const ack = await a.socket.timeout(5000).emitWithAck('sendMessage', {
        conversationId: c.data._id,
        text: 'Across processes',
        clientMessageId,
      });
      expect(ack.ok).toBe(true);
      await b.waitFor('getMessage', (p) => p.clientMessageId === clientMessageId);
      // Exactly once, although both gateways heard the change notice.
      await new Promise((r) => setTimeout(r, 300));
      expect(
        b.got.filter(
          (g) => g.event === 'getMessage' && (g.payload as Json).clientMessageId === clientMessageId,
        ),
      ).toHaveLength(1);
      b.socket.emit('userTyping', { conversationId: c.data._id });
      expect(await a.waitFor('userTyping')).toEqual({ userId: bob.user._id, conversationId: c.data._id });
      expect(await a.socket.timeout(5000).emitWithAck('presence', bob.user._id)).toEqual({
        ok: true,
        userId: bob.user._id,
        online: true,
      });
    } finally {
      await second.app.stop();
    }
  });
});

describe('rebuilding the chat projection', () => {
  it('reproduces identical conversations, receipts, unread counts and messages, even from tampered tables', async () => {
    const c = await start(alice, bob);
    await send(alice, c.data._id, 'before the rebuild');
    const last = await send(bob, c.data._id, 'me too');
    const read = await api.post(
      `/api/conversations/${c.data._id}/read`,
      { upToMessageId: last.body.data._id },
      alice.token,
    );
    const settled = await api.get('/api/config', undefined, consistent(read.body.position));
    expect(settled.headers.get('x-consistency')).toBe('consistent');
    const dump = async () => ({
      conversations: (await t.db.pool.query('SELECT * FROM conversations ORDER BY id')).rows,
      members: (await t.db.pool.query('SELECT * FROM conversation_members ORDER BY user_id, conversation_id'))
        .rows,
      messages: (await t.db.pool.query('SELECT * FROM chat_messages ORDER BY id')).rows,
    });
    const before = await dump();
    await t.db.pool.query(`UPDATE conversation_members SET unread_count = 42, read_seq = 0`);
    await t.db.pool.query(`DELETE FROM chat_messages WHERE seq = 1`);
    await t.db.pool.query(`UPDATE conversations SET last_text = 'tampered'`);
    expect(await dump()).not.toEqual(before);

    const store = testEventStore(t.db);
    const chat = allProjections.find((p) => p.name === 'chat')!;
    const result = await rebuildProjection(t.db.knex, store, chat);
    expect(result.processed).toBeGreaterThan(0);
    expect(await dump()).toEqual(before);
  });

  it("rebuilds a deleted member's conversations and histories the command side would never write, changing no row", async () => {
    const [carol, dave, erin] = await Promise.all([
      api.registerVerifiedUser(),
      api.registerVerifiedUser(),
      api.registerVerifiedUser(),
    ]);
    const store = testEventStore(t.db);
    let last = 0n;
    const raw = async (
      conversationId: string,
      type: string,
      data: Record<string, unknown>,
      actorId: string,
    ) => {
      const r = await store.append(
        `conversation-${conversationId}`,
        [{ type, data, metadata: { actorId } }],
        'any',
      );
      if (r.position > last) last = r.position;
    };
    const sent = async (from: RegisteredUser, conversationId: string, text: string) => {
      const res = await send(from, conversationId, text);
      expect(res.status, res.text).toBe(201);
      return res.body.data._id as string;
    };
    const receipt = async (
      user: RegisteredUser,
      conversationId: string,
      kind: 'delivered' | 'read',
      upTo: string,
    ) =>
      expect(
        (await api.post(`/api/conversations/${conversationId}/${kind}`, { upToMessageId: upTo }, user.token))
          .status,
      ).toBe(200);

    const cd = (await start(carol, dave)).data._id;
    const ce = (await start(carol, erin)).data._id;
    const de = (await start(dave, erin)).data._id;
    const cd1 = await sent(carol, cd, 'one');
    const cd2 = await sent(dave, cd, 'two');
    const cd3 = await sent(carol, cd, 'three');
    await sent(carol, cd, 'four');
    const ce1 = await sent(erin, ce, 'from erin');
    const ce2 = await sent(carol, ce, 'to erin');
    const de1 = await sent(dave, de, 'dave to erin');
    await receipt(dave, cd, 'delivered', cd3);
    await receipt(dave, cd, 'read', cd1);
    await receipt(carol, cd, 'read', cd2);
    await receipt(erin, de, 'read', de1);
    await receipt(carol, ce, 'delivered', ce1);

    const now = () => new Date().toISOString();
    const unknown = randomUUID();
    // Started again (members present already), about an ad, and about an ad without being started.
    await raw(
      cd,
      'ConversationStarted',
      {
        conversationId: cd,
        memberIds: [dave.user._id, carol.user._id],
        startedBy: dave.user._id,
        adId: null,
        startedAt: now(),
      },
      dave.user._id,
    );
    await raw(
      cd,
      'ConversationAboutAd',
      { conversationId: cd, adId: 'ad-1', by: carol.user._id, at: now() },
      carol.user._id,
    );
    await raw(
      unknown,
      'ConversationAboutAd',
      { conversationId: unknown, adId: 'ad-2', by: carol.user._id, at: now() },
      carol.user._id,
    );
    // A message to a conversation never started; receipts naming no message, a message of another conversation
    // (its number counts), one going backwards, and one by someone who is not a member.
    await raw(
      unknown,
      'MessageSent',
      {
        conversationId: unknown,
        messageId: randomUUID(),
        senderId: carol.user._id,
        recipientId: dave.user._id,
        text: 'lost',
        clientMessageId: randomUUID(),
        sentAt: now(),
      },
      carol.user._id,
    );
    await raw(
      cd,
      'MessagesRead',
      { conversationId: cd, userId: dave.user._id, upToMessageId: randomUUID(), at: now() },
      dave.user._id,
    );
    await raw(
      cd,
      'MessagesDelivered',
      { conversationId: cd, userId: carol.user._id, upToMessageId: ce1, at: now() },
      carol.user._id,
    );
    await raw(
      cd,
      'MessagesRead',
      { conversationId: cd, userId: dave.user._id, upToMessageId: ce2, at: now() },
      dave.user._id,
    );
    await raw(
      cd,
      'MessagesDelivered',
      { conversationId: cd, userId: dave.user._id, upToMessageId: cd1, at: now() },
      dave.user._id,
    );
    await raw(
      cd,
      'MessagesRead',
      { conversationId: cd, userId: mallory.user._id, upToMessageId: cd3, at: now() },
      mallory.user._id,
    );

    const adminToken = (await api.post('/api/auth/signin', t.adminCredentials!)).body.token as string;
    const deletion = await api.del(`/api/admin/user/${erin.user._id}`, adminToken);
    expect(deletion.status, deletion.text).toBe(200);
    // After the deletion: a message into one of Erin's conversations, a receipt naming one of its messages, and the
    // conversation started again, whose first message is number 1 again.
    await raw(
      ce,
      'MessageSent',
      {
        conversationId: ce,
        messageId: randomUUID(),
        senderId: carol.user._id,
        recipientId: erin.user._id,
        text: 'still there?',
        clientMessageId: randomUUID(),
        sentAt: now(),
      },
      carol.user._id,
    );
    await raw(
      cd,
      'MessagesRead',
      { conversationId: cd, userId: dave.user._id, upToMessageId: ce1, at: now() },
      dave.user._id,
    );
    await raw(
      ce,
      'ConversationStarted',
      {
        conversationId: ce,
        memberIds: [carol.user._id, erin.user._id],
        startedBy: carol.user._id,
        adId: null,
        startedAt: now(),
      },
      carol.user._id,
    );
    await raw(
      ce,
      'MessageSent',
      {
        conversationId: ce,
        messageId: randomUUID(),
        senderId: carol.user._id,
        recipientId: erin.user._id,
        text: 'hello again',
        clientMessageId: randomUUID(),
        sentAt: now(),
      },
      carol.user._id,
    );
    const settled = await api.get('/api/config', undefined, consistent(last.toString()));
    expect(settled.headers.get('x-consistency')).toBe('consistent');

    const rows = async (sql: string, params: unknown[]) => (await t.db.pool.query(sql, params)).rows;
    expect(await rows('SELECT id FROM conversations WHERE id = $1', [de])).toEqual([]);
    expect(
      await rows('SELECT message_count, ad_id FROM conversations WHERE id = ANY($1) ORDER BY message_count', [
        [ce, cd],
      ]),
    ).toEqual([
      { message_count: 1, ad_id: null },
      { message_count: 4, ad_id: 'ad-1' },
    ]);
    expect(
      await rows(
        'SELECT user_id, delivered_seq, read_seq, unread_count FROM conversation_members WHERE conversation_id = $1',
        [cd],
      ),
    ).toEqual(
      expect.arrayContaining([
        { user_id: dave.user._id, delivered_seq: 3, read_seq: 2, unread_count: 2 },
        { user_id: carol.user._id, delivered_seq: 2, read_seq: 2, unread_count: 0 },
      ]),
    );

    const dump = async () => ({
      conversations: (await t.db.pool.query('SELECT * FROM conversations ORDER BY id')).rows,
      members: (await t.db.pool.query('SELECT * FROM conversation_members ORDER BY user_id, conversation_id'))
        .rows,
      messages: (await t.db.pool.query('SELECT * FROM chat_messages ORDER BY id')).rows,
    });
    const before = await dump();
    const chat = allProjections.find((p) => p.name === 'chat')!;
    const result = await rebuildProjection(t.db.knex, store, chat);
    expect(result.changedRows).toBe(0);
    expect(await dump()).toEqual(before);
  });
});

/** An app whose message budget is `limit`, with carol and dave in a conversation, and `more` other users. */
async function limitedChat(limit: number, more = 0) {
  const limited = await startTestApp({ config: { RATE_LIMIT_MESSAGES: limit } });
  try {
    const [carol, dave, ...others] = await Promise.all(
      Array.from({ length: 2 + more }, () => limited.api.registerVerifiedUser()),
    );
    const c = await limited.api.post(
      '/api/conversations',
      { senderId: carol!.user._id, receiverId: dave!.user._id },
      carol!.token,
    );
    expect(c.status).toBe(200);
    return { limited, carol: carol!, dave: dave!, others, c };
  } catch (error) {
    await limited.stop();
    throw error;
  }
}

describe('the message rate limit', () => {
  it('answers 429 with its fixed text past RATE_LIMIT_MESSAGES, over HTTP and the socket alike', async () => {
    const { limited, carol, dave, c } = await limitedChat(3);
    try {
      const say = (text: string) =>
        limited.api.post('/api/messages', { conversationId: c.body.data._id, text }, carol.token);
      expect((await say('one')).status).toBe(201);
      expect((await say('two')).status).toBe(201);
      const socket = await connect(carol, limited.url);
      expect(
        await socket.socket
          .timeout(5000)
          .emitWithAck('sendMessage', { conversationId: c.body.data._id, text: 'three' }),
      ).toMatchObject({ ok: true });
      expect(
        await socket.socket
          .timeout(5000)
          .emitWithAck('sendMessage', { conversationId: c.body.data._id, text: 'four' }),
      ).toEqual({ ok: false, status: 429, message: M.rateLimited });
      const over = await say('five');
      expect([over.status, over.body.message]).toEqual([429, M.rateLimited]);
      // Dave's own budget is untouched.
      const answer = await limited.api.post(
        '/api/messages',
        { conversationId: c.body.data._id, text: 'hi' },
        dave.token,
      );
      expect(answer.status).toBe(201);
      socket.socket.close();
    } finally {
      await limited.stop();
    }
  });

  it('a send that loses a race answers 409 over the socket as over HTTP; refused and lost sends use up no budget', async () => {
    const { limited, carol, dave, others, c } = await limitedChat(2, 1);
    const mallory = others[0]!;
    try {
      const conversationId = c.body.data._id as string;
      const viaHttp = (user: RegisteredUser, text: string) =>
        limited.api.post('/api/messages', { conversationId, text }, user.token);
      const carolSocket = await connect(carol, limited.url);
      const mallorySocket = await connect(mallory, limited.url);
      const viaSocket = (s: TestSocket, text: string) =>
        s.socket.timeout(10_000).emitWithAck('sendMessage', { conversationId, text });

      // A stream so contended that every attempt loses (each append of this conversation hits a unique violation,
      // as when other writers keep taking its next revision): the command's retries all fail.
      await limited.db.pool.query(`
        CREATE FUNCTION contended() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.stream_id = 'conversation-${conversationId}' THEN
            RAISE EXCEPTION 'another writer took this revision' USING ERRCODE = 'unique_violation';
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER contended BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION contended();`);
      const lost = await viaHttp(carol, 'lost over HTTP');
      expect(lost.status).toBe(409);
      expect(await viaSocket(carolSocket, 'lost over the socket')).toEqual({
        ok: false,
        status: 409,
        message: lost.body.message,
      });
      await limited.db.pool.query('DROP TRIGGER contended ON events; DROP FUNCTION contended()');

      // Refused: not a member (403), twice over each way.
      for (let i = 0; i < 2; i++) {
        expect((await viaHttp(mallory, 'let me in')).status).toBe(403);
        expect(await viaSocket(mallorySocket, 'let me in')).toMatchObject({ ok: false, status: 403 });
      }

      // Carol's whole budget is still there, and then it is used up, over either way.
      expect((await viaHttp(carol, 'one')).status).toBe(201);
      expect(await viaSocket(carolSocket, 'two')).toMatchObject({ ok: true });
      expect(await viaSocket(carolSocket, 'three')).toEqual({
        ok: false,
        status: 429,
        message: M.rateLimited,
      });
      const over = await viaHttp(carol, 'four');
      expect([over.status, over.body.message]).toEqual([429, M.rateLimited]);
      // Mallory's refusals took none of hers either: a conversation of her own takes two messages.
      const own = await limited.api.post(
        '/api/conversations',
        { senderId: mallory.user._id, receiverId: dave.user._id },
        mallory.token,
      );
      for (const text of ['hi', 'again'])
        expect(
          (
            await limited.api.post(
              '/api/messages',
              { conversationId: own.body.data._id, text },
              mallory.token,
            )
          ).status,
        ).toBe(201);
      const texts = (
        await limited.db.pool.query<{ type: string }>(
          `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'MessageSent'`,
          [`conversation-${conversationId}`],
        )
      ).rows[0];
      expect(texts).toEqual({ n: 2 });
    } finally {
      await limited.stop();
    }
  });
});
