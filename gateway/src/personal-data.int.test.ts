import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PostgresEventStore,
  rebuildProjections,
  withPersonalDataEncryption,
  type RecordedEvent,
} from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import { startTestApp, testImage, uniqueName, type TestApp, type TestDatabase } from '@pawhaven/testing';

/**
 * Crypto-shredding, end to end (issue 10): a person uses the whole product, their key is destroyed, every read model
 * is rebuilt from the log, and nothing they typed is left anywhere in the database, events included.
 */

/**
 * Tables that are not built from the log, with why they may still hold the person's words. The dev mailbox is the
 * development mail catcher (the real mailer sends and keeps nothing): deleting the user must empty their part of it.
 */
const NOT_FROM_THE_LOG = new Set(['dev_mailbox']);

describe('crypto-shredding: a replay after forgetting a person finds no trace of them', () => {
  let db: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    db = await createTestDatabase({ max: 8 });
    t = await startTestApp({ db });
  });
  afterAll(async () => {
    await t?.stop();
    await db?.drop();
  });

  /** Every table of the database (events too), each row cast to text, searched for each needle. */
  async function traces(needles: string[]): Promise<string[]> {
    const { rows: tables } = await db.pool.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    expect(tables.map((r) => r.name)).toEqual(
      expect.arrayContaining(['events', 'users', 'personal_data_keys']),
    );
    const found: string[] = [];
    for (const { name } of tables) {
      if (NOT_FROM_THE_LOG.has(name)) continue;
      for (const needle of needles) {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${name}" AS r WHERE strpos(lower(r::text), lower($1)) > 0`,
          [needle],
        );
        if (rows[0]!.n > 0) found.push(`${name}: ${needle} (${rows[0]!.n} rows)`);
      }
    }
    return found;
  }

  /**
   * The admin deletes the user (UserDeleted in the log; the shredder destroys the key as it projects it), once that
   * route exists; until then the key is destroyed directly, as the shredder would.
   */
  async function forget(userId: string) {
    const route = t.app.routes.some((r) => r.method === 'DELETE' && /^\/api\/admin\/user\/:/.test(r.path));
    if (!route) {
      const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
      await store.forgetPerson(userId);
      await store.close();
      return;
    }
    const res = await t.api.del(`/api/admin/user/${userId}`, (await t.signInAdmin()).token);
    expect(res.status, res.text).toBe(200);
    const destroyed = async () =>
      (await db.pool.query(`SELECT 1 FROM personal_data_keys WHERE user_id = $1 AND key IS NULL`, [userId]))
        .rowCount === 1;
    const deadline = Date.now() + 10_000;
    while (!(await destroyed()) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(await destroyed()).toBe(true);
  }

  it('registers, requests, posts, comments, chats; forgotten and replayed, none of it remains', async () => {
    const { api } = t;
    const tag = uniqueName('z');
    const email = `erase.${tag}@gmail.com`;
    const phone = '+92 321 7654321';
    const texts = {
      about: `About ${tag}: I foster senior cats`,
      city: `Cityof${tag}`,
      requestName: `Requesting Name ${tag}`,
      requestMessage: `Request message ${tag}: a quiet flat with a balcony`,
      caption: `Caption ${tag}: our rescue one year on`,
      comment: `Comment ${tag}: what a lovely face`,
      chat: `Chat ${tag}: is she still looking for a home?`,
      contact: `Contact ${tag}: how can I volunteer?`,
    };
    const needles = [email, phone, '3217654321', ...Object.values(texts)];

    const person = await api.registerVerifiedUser({ username: `Erase${tag}`, email });
    const owner = await api.registerVerifiedUser();
    const ok = (res: { status: number; text: string }, status = 201) =>
      expect(res.status, res.text).toBe(status);

    ok(
      await api.post(
        '/api/auth/update-profile',
        { id: person.user.id, phone, city: texts.city, about: texts.about },
        person.token,
      ),
      200,
    );
    const image = { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' };
    const ad = await api.upload('/api/adoptions', image, owner.token, {
      name: 'Moti',
      age: '2',
      location: 'Lahore',
      petType: 'Dog',
      description: 'Friendly and house-trained.',
    });
    ok(ad);
    ok(
      await api.post(
        `/api/adoptions/${ad.body._id}/request`,
        { name: texts.requestName, email, phone, message: texts.requestMessage },
        person.token,
      ),
    );
    const post = await api.upload('/api/posts', image, person.token, { caption: texts.caption });
    ok(post);
    const ownersPost = await api.upload('/api/posts', image, owner.token, { caption: 'Adopt, do not shop' });
    ok(ownersPost);
    ok(await api.post(`/api/comments/${ownersPost.body._id}`, { content: texts.comment }, person.token));
    ok(await api.post(`/api/comments/${post.body._id}`, { content: texts.comment }, person.token));
    const conversation = await api.post(
      '/api/conversations',
      { senderId: person.user._id, receiverId: owner.user._id },
      person.token,
    );
    ok(conversation, 200);
    const sent = await api.post(
      '/api/messages',
      {
        conversationId: conversation.body.data._id,
        senderId: person.user._id,
        text: texts.chat,
        clientMessageId: randomUUID(),
      },
      person.token,
    );
    expect(sent.status, sent.text).toBeLessThan(300);
    ok(
      await api.post(
        '/api/contact',
        { name: texts.requestName, email, message: texts.contact },
        person.token,
      ),
    );

    // At rest the log holds none of it already; the read models do, for now (the search is not vacuous).
    const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
    try {
      const before = await traces(needles);
      expect(before.filter((f) => f.startsWith('events:'))).toEqual([]);
      expect(before.some((f) => f.startsWith('users:'))).toBe(true);
      const readable = await readAll(store, db);
      for (const needle of [email, phone, texts.chat, texts.comment, texts.requestMessage])
        expect(readable).toContain(needle);

      await forget(person.user.id);
      await t.app.stop(); // nothing live; the replay below is the only writer
      await rebuildProjections(db.knex, store, allProjections); // the CLI's and the dashboard's rebuild

      expect(await traces(needles)).toEqual([]);
      const replayed = await readAll(store, db);
      for (const needle of needles) expect(replayed).not.toContain(needle);
      // The facts survive, without the person's words: their request and comments are still in the log.
      expect(replayed).toContain(person.user.id);
      // The other person's data is untouched.
      expect(replayed).toContain('Adopt, do not shop');
      expect(replayed).toContain(owner.email);
    } finally {
      await store.close();
    }
  });
});

/** The whole log as its readers see it (decrypted), as text. */
/**
 * Every event of the log as the store reads it, as JSON text. The global log shows a transaction only once every
 * older one in the server has ended (other test files run some): read again until it shows every stored event.
 */
async function readAll(store: { readAll: PostgresEventStore['readAll'] }, db: TestDatabase): Promise<string> {
  const stored = Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events`)).rows[0]!.n);
  for (let tries = 0; ; tries++) {
    const out: Pick<RecordedEvent, 'streamId' | 'type' | 'data' | 'metadata'>[] = [];
    for await (const e of store.readAll({ transactionId: 0n, position: 0n }))
      out.push({ streamId: e.streamId, type: e.type, data: e.data, metadata: e.metadata });
    if (out.length >= stored || tries >= 200) return JSON.stringify(out);
    await new Promise((r) => setTimeout(r, 25));
  }
}
