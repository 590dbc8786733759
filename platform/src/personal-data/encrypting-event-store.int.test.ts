import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { describeEventStoreContract } from '../event-store/event-store.contract';
import { START, type NewEvent, type RecordedEvent } from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { connectDatabase } from '../db/database';
import { runProjector } from '../projections/projector';
import { createHash } from 'node:crypto';
import { EncryptingEventStore } from './encrypting-event-store';
import { sealValue } from './envelope';
import { PersonalDataKeys } from './key-store';
import { encryptLegacyPersonalData, LEGACY_ENCRYPTION } from './legacy-events';
import { resolvePseudonyms } from './pseudonyms';
import { personalDataShredderProjection } from './shredder.projection';
import { withPersonalDataEncryption } from './wrap';
import { beginSlowAppend } from '../event-store/slow-append.testing';

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

// The decorator only transforms data: the whole port contract holds through it, unchanged.
let contractDb: TestDb;
describeEventStoreContract('PostgreSQL through EncryptingEventStore', {
  async setup() {
    contractDb = await createTestDatabase({ max: 24 });
  },
  async teardown() {
    await contractDb.drop();
  },
  async create() {
    return withPersonalDataEncryption(new PostgresEventStore(contractDb.pool), contractDb.pool);
  },
  beginSlowAppend: (streamId, events) => beginSlowAppend(contractDb.connectionString, streamId, events),
});

const requested = (requesterId: string, n = 1): NewEvent => ({
  type: 'AdoptionRequested',
  data: {
    requestId: randomUUID(),
    requesterId,
    name: `Aisha Khan ${n}`,
    email: `aisha${n}@gmail.com`,
    phone: `+92 300 000000${n}`,
    message: `I have a garden and time ${n}`,
    petHistoryImage: null,
    requestedAt: new Date().toISOString(),
  },
  metadata: { actorId: requesterId },
});

const sent = (senderId: string, recipientId: string, text: string): NewEvent => ({
  type: 'MessageSent',
  data: {
    conversationId: randomUUID(),
    messageId: randomUUID(),
    senderId,
    recipientId,
    text,
    clientMessageId: randomUUID(),
    sentAt: new Date().toISOString(),
  },
  metadata: { actorId: senderId },
});

type RequestData = { name: string; email: string; phone: string; message: string; requesterId: string };

describe('EncryptingEventStore', () => {
  let db: TestDb;
  let raw: PostgresEventStore;
  let store: EncryptingEventStore;
  const stores: EncryptingEventStore[] = [];
  /** Another app process: its own pool, keys, cache and LISTEN connection on the same database. */
  const otherProcess = () => {
    const other = connectDatabase(db.connectionString, { max: 4 });
    const s = withPersonalDataEncryption(new PostgresEventStore(other.pool), other.pool);
    stores.push(s);
    return { store: s, close: async () => (await s.close(), await other.close()) };
  };

  beforeAll(async () => {
    db = await createTestDatabase({ max: 12 });
    raw = new PostgresEventStore(db.pool);
    store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
  });
  afterAll(async () => {
    await store.close();
    await raw.close();
    await db.drop();
  });

  const rowsOf = async (streamId: string) =>
    (
      await db.knex.raw<{ rows: { stream_id: string; data: Record<string, unknown>; text: string }[] }>(
        `SELECT stream_id, data, data::text AS text FROM events WHERE stream_id = ? ORDER BY stream_revision`,
        [streamId],
      )
    ).rows;
  const all = async (s: EncryptingEventStore, streamId: string) => {
    const out: RecordedEvent[] = [];
    for await (const e of s.readStream(streamId)) out.push(e);
    return out;
  };
  /**
   * The stream's events in the global log. readAll shows a transaction only once every older one in the cluster has
   * ended (the log's visibility rule), and other test files run transactions meanwhile: wait until they show.
   */
  const readAllOf = async (s: EncryptingEventStore, streamId: string, expected = 1) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const out: RecordedEvent[] = [];
      for await (const e of s.readAll(START, { batchSize: 7 })) if (e.streamId === streamId) out.push(e);
      if (out.length >= expected || Date.now() > deadline) return out;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('stores personal fields sealed and gives them back in clear to readStream, readAll and subscribeAll', async () => {
    const userId = randomUUID();
    const stream = `adoption-${randomUUID()}`;
    await store.append(stream, [requested(userId, 1), requested(userId, 2)], 'no_stream');

    const [row] = await rowsOf(stream);
    expect(row!.text).not.toContain('aisha');
    expect(row!.text).not.toContain('+92');
    expect(row!.text).not.toContain('garden');
    // The four fields sealed together, in the first of them (one open per request instead of four).
    expect(row!.data.name).toMatch(/^pii:v2:[0-9a-f-]{36}:/);
    expect([row!.data.email, row!.data.phone, row!.data.message]).toEqual(Array(3).fill('pii:v2:with:name'));
    expect(row!.data.requesterId).toBe(userId); // ids stay in clear: projections join on them

    const viaStream = (await all(store, stream)).map((e) => e.data as RequestData);
    expect(viaStream.map((d) => d.email)).toEqual(['aisha1@gmail.com', 'aisha2@gmail.com']);
    expect(viaStream[0]).toMatchObject({ name: 'Aisha Khan 1', phone: '+92 300 0000001' });
    expect((await readAllOf(store, stream, 2)).map((e) => (e.data as RequestData).message)).toEqual([
      'I have a garden and time 1',
      'I have a garden and time 2',
    ]);

    const seen: RecordedEvent[] = [];
    const abort = new AbortController();
    const done = store.subscribeAll(
      START,
      async (batch) => {
        seen.push(...batch.filter((e) => e.streamId === stream));
        if (seen.length === 2) abort.abort();
      },
      abort.signal,
      { batchSize: 3 },
    );
    await done;
    expect(seen.map((e) => (e.data as RequestData).phone)).toEqual(['+92 300 0000001', '+92 300 0000002']);
  });

  it('reads legacy plaintext as written, until its owner is forgotten', async () => {
    const userId = randomUUID();
    const stream = `adoption-${randomUUID()}`;
    await raw.append(stream, [requested(userId, 3)], 'no_stream');
    expect((await all(store, stream))[0]!.data).toMatchObject({ email: 'aisha3@gmail.com' });
    await store.forgetPerson(userId);
    expect((await all(store, stream))[0]!.data).toMatchObject({
      email: '',
      name: '',
      phone: '',
      message: '',
      requesterId: userId,
    });
  });

  it('opens fields sealed together once; one field alone and fields sealed one by one (before) open too', async () => {
    const userId = randomUUID();
    const key = (await store.keys.keyForWrite(userId))!;
    const oneByOne = requested(userId, 8);
    const d = oneByOne.data as Record<string, unknown>;
    for (const f of ['name', 'email', 'phone', 'message']) d[f] = sealValue(key.key, key.keyId, d[f]);
    const comment: NewEvent = {
      type: 'CommentAdded',
      data: { commentId: randomUUID(), postId: randomUUID(), authorId: userId, content: 'Lovely' },
    };
    const stream = `adoption-${randomUUID()}`;
    await raw.append(stream, [oneByOne], 'no_stream');
    await store.append(stream, [requested(userId, 9), comment], 0n);
    const rows = await rowsOf(stream);
    expect(rows[2]!.data.content).toMatch(/^pii:v1:/);
    const read = (await all(store, stream)).map((e) => e.data as RequestData & { content?: string });
    expect(read[0]).toMatchObject({
      name: 'Aisha Khan 8',
      email: 'aisha8@gmail.com',
      message: 'I have a garden and time 8',
    });
    expect(read[1]).toMatchObject({
      name: 'Aisha Khan 9',
      phone: '+92 300 0000009',
      message: 'I have a garden and time 9',
    });
    expect(read[2]!.content).toBe('Lovely');
  });

  it('fields sealed together read as gone, all of them, when their envelope is tampered with, relabelled or missing', async () => {
    const userId = randomUUID();
    const stream = `adoption-${randomUUID()}`;
    await store.append(stream, [requested(userId, 1)], 'no_stream');
    const sealed = (await rowsOf(stream))[0]!.data;
    const holder = sealed.name as string;
    const flipped = holder.slice(0, -2) + (holder.endsWith('A') ? 'B' : 'A') + holder.slice(-1);
    const variants: Record<string, unknown>[] = [
      { ...sealed, name: flipped }, // a changed ciphertext
      { ...sealed, name: holder.replace('pii:v2:', 'pii:v1:') }, // passed off as one field's envelope
      { ...sealed, name: 'Aisha in clear' }, // the envelope replaced
      { ...sealed, email: 'pii:v2:with:petHistoryImage' }, // a reference to a field that holds none
    ];
    const other = `adoption-${randomUUID()}`;
    await raw.append(
      other,
      variants.map((data) => ({ type: 'AdoptionRequested', data, metadata: { actorId: userId } })),
      'no_stream',
    );
    const read = (await all(store, other)).map((e) => e.data as RequestData);
    for (const r of read.slice(0, 2)) {
      expect(r).toMatchObject({ name: '', email: '', phone: '', message: '', requesterId: userId });
    }
    expect(read[2]).toMatchObject({ name: 'Aisha in clear', email: '', phone: '', message: '' });
    expect(read[3]).toMatchObject({ name: 'Aisha Khan 1', email: '', phone: '+92 300 0000001' });
  });

  it('after forgetPerson every field of that person reads as the placeholder, in this and in a fresh process', async () => {
    const aisha = randomUUID();
    const bilal = randomUUID();
    const stream = `adoption-${randomUUID()}`;
    await store.append(stream, [requested(aisha, 4), requested(bilal, 5)], 'no_stream');
    const warm = otherProcess();
    // The other process has both keys cached before the forget.
    expect((await all(warm.store, stream)).map((e) => (e.data as RequestData).email)).toEqual([
      'aisha4@gmail.com',
      'aisha5@gmail.com',
    ]);

    await store.forgetPerson(aisha);
    const emails = async (s: EncryptingEventStore) =>
      (await all(s, stream)).map((e) => (e.data as RequestData).email);
    expect(await emails(store)).toEqual(['', 'aisha5@gmail.com']);
    const fresh = otherProcess();
    expect(await emails(fresh.store)).toEqual(['', 'aisha5@gmail.com']);
    // The warm process hears the destruction (NOTIFY) and drops the key from its cache.
    const deadline = Date.now() + 5000;
    while ((await emails(warm.store))[0] !== '' && Date.now() < deadline)
      await new Promise((r) => setImmediate(r));
    expect(await emails(warm.store)).toEqual(['', 'aisha5@gmail.com']);
    await Promise.all([warm.close(), fresh.close()]);

    // The key is a tombstone: it is never made again, and new personal data of Aisha is never stored in clear.
    await store.append(stream, [requested(aisha, 6)], 1n);
    const rows = await rowsOf(stream);
    expect(rows[2]!.data).toMatchObject({ email: '', phone: '', message: '', name: '' });
    const keys = await db.knex('personal_data_keys').where({ user_id: aisha });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ key: null });
    expect(keys[0].destroyed_at).toBeInstanceOf(Date);
  });

  it('a forget racing reads: each read is whole (all clear or all gone), and every read after it is gone', async () => {
    const userId = randomUUID();
    const stream = `adoption-${randomUUID()}`;
    await store.append(stream, [requested(userId, 7)], 'no_stream');
    const other = otherProcess();
    await all(other.store, stream); // warm its cache
    const reads: Promise<RecordedEvent[]>[] = [];
    for (let i = 0; i < 20; i++) reads.push(all(i % 2 ? store : other.store, stream));
    const forgetting = store.forgetPerson(userId);
    for (let i = 0; i < 20; i++) reads.push(all(i % 2 ? store : other.store, stream));
    await forgetting;
    for (const events of await Promise.all(reads)) {
      const d = events[0]!.data as RequestData;
      const gone = d.email === '';
      expect([d.name === '', d.phone === '', d.message === '']).toEqual([gone, gone, gone]);
      if (!gone) expect(d.email).toBe('aisha7@gmail.com');
    }
    expect((await all(store, stream))[0]!.data).toMatchObject({ email: '', message: '' });
    const fresh = otherProcess();
    expect((await all(fresh.store, stream))[0]!.data).toMatchObject({ email: '', message: '' });
    await Promise.all([other.close(), fresh.close()]);
  });

  it("seals a private message under both members' keys: both read it, and deleting either one shreds it", async () => {
    const conversation = () => `conversation-${randomUUID()}`;
    const readText = async (s: EncryptingEventStore, stream: string) =>
      ((await all(s, stream))[0]!.data as { text: string }).text;
    for (const forgotten of ['sender', 'recipient'] as const) {
      const [sender, recipient] = [randomUUID(), randomUUID()];
      const stream = conversation();
      await store.append(stream, [sent(sender, recipient, `Come at six (${forgotten})`)], 'no_stream');
      const [row] = await rowsOf(stream);
      expect(row!.text).not.toContain('Come at six');
      const keyIds = await Promise.all(
        [sender, recipient].map(async (u) => (await store.keys.keyForWrite(u))!.keyId),
      );
      const ids = keyIds.sort();
      expect(row!.data.text).toMatch(new RegExp(`^pii:v1:${ids[0]}\\+${ids[1]}:`));
      expect(await readText(store, stream)).toBe(`Come at six (${forgotten})`);
      const other = otherProcess();
      expect(await readText(other.store, stream)).toBe(`Come at six (${forgotten})`);
      await store.forgetPerson(forgotten === 'sender' ? sender : recipient);
      expect(await readText(store, stream)).toBe('');
      expect(await readText(other.store, stream)).toBe('');
      // A message to a deleted person is recorded as its placeholder, never in clear.
      const later = conversation();
      await store.append(later, [sent(sender, recipient, 'Still there?')], 'no_stream');
      expect((await rowsOf(later))[0]!.data.text).toBe('');
      await other.close();
    }
  });

  it('keeps e-mail claim streams under a keyed hash of the address, found again by the address', async () => {
    const email = `claim-${randomUUID()}@gmail.com`;
    const userId = randomUUID();
    const stream = `user-email-${email}`;
    await store.append(stream, [{ type: 'EmailClaimed', data: { userId } }], 'no_stream');
    expect(await rowsOf(stream)).toEqual([]);
    const storedId = await store.storedStreamId(stream);
    const stored = await rowsOf(storedId);
    expect(stored).toHaveLength(1);
    expect(storedId).toMatch(/^user-email-hmac:[0-9a-f]{64}$/);
    // Not a digest anyone could take of a guessed address.
    const unsalted = createHash('sha256').update(email).digest('hex');
    const { rows: guessed } = await db.pool.query(`SELECT 1 FROM events WHERE stream_id LIKE $1`, [
      `%${unsalted}%`,
    ]);
    expect(guessed).toEqual([]);
    const [claim] = await all(store, stream);
    expect(claim).toMatchObject({ streamId: stream, data: { userId } });
    // Optimistic concurrency is the inner store's: a second claim of the same address conflicts.
    await expect(
      store.append(stream, [{ type: 'EmailClaimed', data: { userId: randomUUID() } }], 'no_stream'),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('the shredder forgets a person when UserDeleted is in the log (and replaying it again is harmless)', async () => {
    const userId = randomUUID();
    const stream = `post-${randomUUID()}`;
    await store.append(
      stream,
      [
        {
          type: 'CommentAdded',
          data: {
            commentId: randomUUID(),
            postId: stream.slice(5),
            postAuthorId: randomUUID(),
            authorId: userId,
            content: 'Such a sweet dog',
            parentCommentId: null,
            parentAuthorId: null,
            addedAt: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
    );
    expect((await all(store, stream))[0]!.data).toMatchObject({ content: 'Such a sweet dog' });
    const { position } = await store.append(
      `user-${userId}`,
      [{ type: 'UserDeleted', data: { userId, deletedBy: 'admin', deletedAt: new Date().toISOString() } }],
      'any',
    );
    // Live, as the app runs it: the key goes in the transaction that moves the shredder's checkpoint past the event.
    const abort = new AbortController();
    const running = runProjector(db.knex, store, [personalDataShredderProjection], abort.signal);
    const checkpoint = async () =>
      BigInt(
        (await db.knex('projection_checkpoints').where({ name: 'personal-data-shredder' }).first())
          ?.position ?? 0,
      );
    const deadline = Date.now() + 10_000;
    while ((await checkpoint()) < position && Date.now() < deadline)
      await new Promise((r) => setImmediate(r));
    abort.abort();
    await running;
    expect(await checkpoint()).toBeGreaterThanOrEqual(position);
    expect((await all(store, stream))[0]!.data).toMatchObject({ content: '', authorId: userId });
    // Replaying it (a restart from an older checkpoint, another process) keeps the tombstone.
    await db.knex('projection_checkpoints').where({ name: 'personal-data-shredder' }).delete();
    const again = new AbortController();
    const replay = runProjector(db.knex, store, [personalDataShredderProjection], again.signal);
    while ((await checkpoint()) < position) await new Promise((r) => setImmediate(r));
    again.abort();
    await replay;
    expect(await db.knex('personal_data_keys').where({ user_id: userId })).toMatchObject([{ key: null }]);
  });
});

describe('encryptLegacyPersonalData', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDatabase({ max: 8 });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('seals the personal fields of old events in place, resumably, once; forgotten people get the placeholder', async () => {
    const raw = new PostgresEventStore(db.pool);
    const keys = new PersonalDataKeys(db.pool);
    const store = new EncryptingEventStore(new PostgresEventStore(db.pool), keys, () =>
      resolvePseudonyms(db.pool),
    );
    const kept = randomUUID();
    const forgotten = randomUUID();
    const email = `legacy-${randomUUID()}@gmail.com`;
    const streams: string[] = [];
    for (let i = 0; i < 5; i++) {
      const stream = `adoption-${randomUUID()}`;
      streams.push(stream);
      await raw.append(stream, [requested(i === 4 ? forgotten : kept, i)], 'no_stream');
    }
    await raw.append(`user-email-${email}`, [{ type: 'EmailClaimed', data: { userId: kept } }], 'no_stream');
    await raw.append(
      `user-${kept}`,
      [{ type: 'ProfileUpdated', data: { phone: '0301', city: 'Lahore', about: 'Cats' } }],
      'any',
    );
    await raw.append(
      `session-${randomUUID()}`,
      [{ type: 'SessionRevoked', data: { sessionId: 'x' } }],
      'any',
    );
    await keys.forget(forgotten);

    const first = await encryptLegacyPersonalData(db.pool, keys, { batchSize: 2 });
    expect(first).toEqual({ alreadyDone: false, eventsChanged: 7 });
    const { rows } = await db.knex.raw<{ rows: { text: string }[] }>(
      `SELECT stream_id || ' ' || data::text AS text FROM events`,
    );
    const everything = rows.map((r) => r.text).join('\n');
    for (const plain of ['aisha', '+92', 'garden', email, '0301', 'Lahore', 'Cats'])
      expect(everything).not.toContain(plain);

    expect(
      (
        await (async () => {
          const out: RecordedEvent[] = [];
          for await (const e of store.readStream(streams[0]!)) out.push(e);
          return out;
        })()
      )[0]!.data,
    ).toMatchObject({ email: 'aisha0@gmail.com', message: 'I have a garden and time 0' });
    const read = async (stream: string) => {
      for await (const e of store.readStream(stream)) return e.data;
      return undefined;
    };
    expect(await read(streams[4]!)).toMatchObject({ email: '', requesterId: forgotten });
    expect(await read(`user-${kept}`)).toEqual({ phone: '0301', city: 'Lahore', about: 'Cats' });
    expect(await read(`user-email-${email}`)).toEqual({ userId: kept });

    const again = await encryptLegacyPersonalData(db.pool, keys, { batchSize: 2 });
    expect(again).toEqual({ alreadyDone: true, eventsChanged: 0 });
    const progress = await db.knex('personal_data_migrations').first();
    expect(progress).toMatchObject({ name: LEGACY_ENCRYPTION, events: '7' });
    expect(progress.finished_at).toBeInstanceOf(Date);
    await store.close();
    await raw.close();
  });

  it("seals private messages sealed with their sender's key alone again, for both members", async () => {
    const other = await createTestDatabase({ max: 4 });
    try {
      const raw = new PostgresEventStore(other.pool);
      const keys = new PersonalDataKeys(other.pool);
      const store = new EncryptingEventStore(raw, keys, () => resolvePseudonyms(other.pool));
      const [sender, recipient, gone] = [randomUUID(), randomUUID(), randomUUID()];
      const asBefore = async (from: string, text: string) => {
        const event = sent(from, recipient, text);
        const key = (await keys.keyForWrite(from))!;
        (event.data as { text: string }).text = sealValue(key.key, key.keyId, text);
        const stream = `conversation-${randomUUID()}`;
        await raw.append(stream, [event], 'no_stream');
        return stream;
      };
      const kept = await asBefore(sender, 'See you at the clinic');
      const shredded = await asBefore(gone, 'Bring her blanket');
      await keys.forget(gone);

      expect(await encryptLegacyPersonalData(other.pool, keys)).toEqual({
        alreadyDone: false,
        eventsChanged: 2,
      });
      const text = async (stream: string) => {
        for await (const e of store.readStream(stream)) return (e.data as { text: string }).text;
      };
      const { rows } = await other.pool.query<{ text: string }>(`SELECT data->>'text' AS text FROM events`);
      expect(rows.map((r) => r.text).sort()).toEqual([
        '', // the forgotten sender's: its placeholder
        expect.stringMatching(/^pii:v1:[0-9a-f-]{36}\+[0-9a-f-]{36}:/),
      ]);
      expect(await text(kept)).toBe('See you at the clinic');
      expect(await text(shredded)).toBe('');
      // Deleting the recipient now shreds it too, as it would a message sent today.
      await keys.forget(recipient);
      expect(await text(kept)).toBe('');
      await store.close();
    } finally {
      await other.drop();
    }
  });

  it('resumes from its recorded position after a crash between batches', async () => {
    const other = await createTestDatabase({ max: 4 });
    try {
      const raw = new PostgresEventStore(other.pool);
      const keys = new PersonalDataKeys(other.pool);
      const user = randomUUID();
      for (let i = 0; i < 4; i++)
        await raw.append(`adoption-${randomUUID()}`, [requested(user, i)], 'no_stream');
      // A first run that stopped after one batch of two: its progress row says so.
      const { rows } = await other.pool.query<{ position: string }>(
        `SELECT position FROM events ORDER BY position LIMIT 2`,
      );
      await other.pool.query(
        `INSERT INTO personal_data_migrations (name, position, events) VALUES ($2, $1, 2)`,
        [rows[1]!.position, LEGACY_ENCRYPTION],
      );
      const result = await encryptLegacyPersonalData(other.pool, keys, { batchSize: 2 });
      expect(result).toEqual({ alreadyDone: false, eventsChanged: 2 });
      const { rows: after } = await other.pool.query<{ sealed: boolean }>(
        `SELECT data->>'email' = 'pii:v2:with:name' AS sealed FROM events ORDER BY position`,
      );
      expect(after.map((r) => r.sealed)).toEqual([false, false, true, true]);
      await keys.close();
      await raw.close();
    } finally {
      await other.drop();
    }
  });
});
