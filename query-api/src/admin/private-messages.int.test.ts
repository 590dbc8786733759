import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENT_AFTER_HEADER, PRIVATE_MESSAGE } from '@pawhaven/contracts';
import { startTestApp, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * Admins never read private chats (issue 20, point 5): the two members read their messages, while every admin route
 * that answers event data or stream contents (walked from the running app's route table, with every id the
 * conversation gives as its parameters) shows '[private message]' instead of the text, and never the text.
 */

let t: TestApp;
let admin: string;
let ayesha: RegisteredUser;
let bilal: RegisteredUser;
let conversationId: string;
let last = '0';
const texts = {
  first: `My flat is at ${randomUUID()}, come at six`,
  reply: `Reply ${randomUUID()}: my number is 0300 1234567`,
};

beforeAll(async () => {
  t = await startTestApp();
  ayesha = await t.api.registerVerifiedUser();
  bilal = await t.api.registerVerifiedUser();
  const conversation = await t.api.post(
    '/api/conversations',
    { senderId: ayesha.user._id, receiverId: bilal.user._id },
    ayesha.token,
  );
  expect(conversation.status, conversation.text).toBe(200);
  conversationId = conversation.body.data._id;
  for (const [from, text] of [
    [ayesha, texts.first],
    [bilal, texts.reply],
  ] as const) {
    const sent = await t.api.post(
      '/api/messages',
      { conversationId, senderId: from.user._id, text, clientMessageId: randomUUID() },
      from.token,
    );
    expect(sent.status, sent.text).toBeLessThan(300);
    last = sent.body.position ?? last;
  }
  admin = (await t.signInAdmin()).token;
});
afterAll(async () => {
  await t?.stop();
});

const get = (path: string, token: string) => t.api.get(path, token, { [CONSISTENT_AFTER_HEADER]: last });
const q = (params: Record<string, unknown>) =>
  '?' +
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`)
    .join('&');

describe('private messages', () => {
  it('are read by the two members', async () => {
    for (const member of [ayesha, bilal]) {
      const page = await get(`/api/messages/${conversationId}`, member.token);
      expect(page.status, page.text).toBe(200);
      expect(page.text).toContain(texts.first);
      expect(page.text).toContain(texts.reply);
    }
    const stranger = await get(`/api/messages/${conversationId}`, admin);
    expect(stranger.status).toBe(403);
    expect(stranger.text).not.toContain(texts.first);
  });

  it("show '[private message]' on every admin route that answers events or stream contents, never their text", async () => {
    const stream = `conversation-${conversationId}`;
    const { rows } = await t.db.pool.query<{ position: string }>(
      `SELECT position::text FROM events WHERE stream_id = $1 ORDER BY position`,
      [stream],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3); // started, and two messages
    // Every id the conversation gives, for every parameter of every admin route.
    const ids = [stream, conversationId, ayesha.user._id, bilal.user._id, ...rows.map((r) => r.position)];
    const lists = [
      '',
      q({ range: [0, 99] }),
      q({ filter: { streamId: stream } }),
      q({ filter: { type: 'MessageSent' } }),
      q({ filter: { id: rows.map((r) => r.position) } }),
      q({ filter: { q: 'conversation' } }),
      q({ filter: { id: [stream] } }),
    ];
    const routes = t.app.routes.filter((r) => r.method === 'GET' && r.path.startsWith('/api/admin/'));
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/admin/events', '/api/admin/events/:id', '/api/admin/streams/:id']),
    );
    const paths = routes.flatMap((r) => {
      const params = r.path.match(/:\w+/g) ?? [];
      if (params.length === 0) return lists.map((l) => r.path + l);
      let out = [r.path];
      for (const p of params)
        out = out.flatMap((path) => ids.map((id) => path.replace(p, encodeURIComponent(id))));
      return out;
    });
    const leaks: string[] = [];
    let shown = 0;
    for (const path of paths) {
      const res = await get(path, admin);
      expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
      if (res.text.includes(texts.first) || res.text.includes(texts.reply)) leaks.push(path);
      if (res.text.includes(PRIVATE_MESSAGE)) shown++;
    }
    expect(leaks).toEqual([]);
    expect(shown).toBeGreaterThanOrEqual(4);

    // The Events browser's page of the conversation: each message's text is the placeholder, the rest as it was.
    const page = await get(`/api/admin/events${q({ filter: { streamId: stream }, range: [0, 24] })}`, admin);
    expect(page.status, page.text).toBe(200);
    const sent = (page.body as { type: string; data: Record<string, unknown> }[]).filter(
      (e) => e.type === 'MessageSent',
    );
    expect(sent.map((e) => e.data.text)).toEqual([PRIVATE_MESSAGE, PRIVATE_MESSAGE]);
    expect(sent.map((e) => e.data.senderId)).toEqual([ayesha.user._id, bilal.user._id]);
    const one = await get(`/api/admin/events/${rows[1]!.position}`, admin);
    expect(one.body).toMatchObject({ type: 'MessageSent', data: { text: PRIVATE_MESSAGE } });
  });
});
