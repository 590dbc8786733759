import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresEventStore, withPersonalDataEncryption } from '@pawhaven/platform';
import { startTestApp, testImage, uniqueName, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * Erasure, end to end: one person does everything the product lets a person do — profile, pictures, an adoption ad,
 * an adoption request, a post, comments, a like, chat messages (over HTTP and the socket), a contact message,
 * password changes — each write sent as the frontend sends it (with an Idempotency-Key). An administrator deletes
 * them. Then every table of the database, the event log included, is read as text: none of the strings that person
 * typed (nor their e-mail's plain digest, nor their password hash) may be left anywhere, and none of their pictures
 * may be served.
 */

let t: TestApp;
let person: RegisteredUser;
let other: RegisteredUser;
let adminToken: string;
const sockets: Socket[] = [];

/** Every string the person typed, each unique to this run, so finding it anywhere means it was kept. */
const mark = uniqueName('qz').slice(-8);
const typed = {
  username: `Zarmina Qureshi${mark}`,
  email: `zarmina.qureshi${mark}@gmail.com`,
  phone: `+92 300 ${mark.replace(/\D/g, '').padEnd(7, '7').slice(0, 7)}`,
  city: `Cityof${mark}`,
  about: `About me ${mark} and my cats`,
  petName: `Petname${mark}`,
  petAge: `3 years ${mark}`,
  petBreed: `Breed${mark}`,
  petLocation: `Street ${mark}, Lahore`,
  petDescription: `A calm cat that loves ${mark}`,
  requestName: `Requester ${mark}`,
  requestEmail: `request.${mark}@example.org`,
  requestMessage: `I would love to adopt, ${mark}`,
  caption: `Caption about ${mark}`,
  captionEdited: `Edited caption ${mark}`,
  comment: `Comment saying ${mark}`,
  reply: `Reply saying ${mark}`,
  httpMessage: `Private over HTTP ${mark}`,
  socketMessage: `Private over the socket ${mark}`,
  contactName: `Contact ${mark}`,
  contactMessage: `Please call me about ${mark}`,
};

const key = () => ({ 'Idempotency-Key': randomUUID() });

/** A write as the frontend makes it: JSON with a fresh Idempotency-Key. */
async function write(method: string, path: string, token: string, body: unknown = {}) {
  const res = await t.api.request(method, path, { body, token, headers: key() });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res.body;
}

/** A multipart write with one image, as the frontend makes it. */
async function upload(
  method: string,
  path: string,
  token: string,
  field: string,
  fields: Record<string, string>,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(field, new Blob([new Uint8Array(await testImage(64, 48))], { type: 'image/png' }), 'pet.png');
  const res = await t.api.request(method, path, { form, token, headers: key() });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res.body;
}

async function connect(user: RegisteredUser): Promise<Socket> {
  const socket = io(t.url, { path: '/socket.io', auth: { token: user.token }, transports: ['websocket'] });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  return socket;
}

/** Every row of every table of the app's database, as text, with the table it came from. */
async function everyRow(): Promise<{ table: string; text: string }[]> {
  const { rows: tables } = await t.db.knex.raw<{ rows: { name: string }[] }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const out: { table: string; text: string }[] = [];
  for (const { name } of tables) {
    const { rows } = await t.db.knex.raw<{ rows: { text: string }[] }>(
      `SELECT t::text AS text FROM ${name} t`,
    );
    for (const r of rows) out.push({ table: name, text: r.text });
  }
  return out;
}

/** Where any of `needles` (case-insensitive) is found, as 'table: needle'. */
async function leftovers(needles: Record<string, string>): Promise<string[]> {
  const rows = await everyRow();
  const found = new Set<string>();
  for (const { table, text } of rows) {
    const lower = text.toLowerCase();
    for (const [what, needle] of Object.entries(needles))
      if (lower.includes(needle.toLowerCase())) found.add(`${table}: ${what} (${needle})`);
  }
  return [...found].sort();
}

describe('deleting a person erases every string they typed', () => {
  const images: string[] = [];
  const passwordHashes: string[] = [];
  let digest: string;

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await t.api.post('/api/auth/signin', {
      email: t.adminCredentials!.email,
      password: t.adminCredentials!.password,
    });
    adminToken = admin.body.token;
    other = await t.api.registerVerifiedUser();
    person = await t.api.registerVerifiedUser({ username: typed.username, email: typed.email });
    digest = (await t.db.knex.raw(`SELECT encode(sha256(convert_to(?, 'UTF8')), 'hex') AS d`, [typed.email]))
      .rows[0].d;

    // Profile and pictures.
    await write('POST', '/api/auth/update-profile', person.token, {
      phone: typed.phone,
      city: typed.city,
      about: typed.about,
    });
    const first = await upload('POST', '/api/auth/upload-profile-image', person.token, 'image', {});
    images.push(first.data.profileImage);
    const second = await upload('POST', '/api/auth/upload-profile-image', person.token, 'image', {});
    images.push(second.data.profileImage);
    await write('POST', '/api/auth/change-password', person.token, {
      currentPassword: person.password,
      newPassword: 'An0ther!Passw0rd',
    });

    // Their own ad, edited, with a picture; and a request on someone else's ad.
    const ad = await upload('POST', '/api/adoptions', person.token, 'image', {
      name: typed.petName,
      age: typed.petAge,
      breed: typed.petBreed,
      location: typed.petLocation,
      petType: 'Cat',
      description: typed.petDescription,
    });
    images.push(ad.imageUrl);
    await write('PUT', `/api/adoptions/${ad._id}`, person.token, { description: `${typed.petDescription}!` });
    // Someone asks for their pet and hears back: the other person's notifications and history name the pet.
    const asked = await upload('POST', `/api/adoptions/${ad._id}/request`, other.token, 'petHistoryImage', {
      name: 'Other Person',
      email: other.email,
      phone: '+92 300 1234567',
      message: 'May I adopt your cat?',
    });
    const askedId = asked.request?._id ?? asked.requestId ?? asked._id;
    await write('PUT', `/api/adoptions/requests/${askedId}`, person.token, { status: 'rejected' });
    const othersAd = await upload('POST', '/api/adoptions', other.token, 'image', {
      name: 'Moti',
      age: '2',
      location: 'Lahore',
      petType: 'Dog',
      description: 'A friendly dog',
    });
    const request = await upload(
      'POST',
      `/api/adoptions/${othersAd._id}/request`,
      person.token,
      'petHistoryImage',
      {
        name: typed.requestName,
        email: typed.requestEmail,
        phone: typed.phone,
        message: typed.requestMessage,
      },
    );
    if (request.request?.petHistoryImage) images.push(request.request.petHistoryImage);
    // The other person answers it: their answer is about this person's request.
    const requestId = request.request?._id ?? request.requestId ?? request._id;
    await write('PUT', `/api/adoptions/requests/${requestId}`, other.token, { status: 'accepted' });

    // A post (edited), comments on someone else's post, a reply, a like.
    const post = await upload('POST', '/api/posts', person.token, 'image', { caption: typed.caption });
    images.push(post.imageUrl);
    await write('PUT', `/api/posts/${post._id}`, person.token, { caption: typed.captionEdited });
    const othersPost = await upload('POST', '/api/posts', other.token, 'image', { caption: 'A sunny day' });
    const comment = await write('POST', `/api/comments/${othersPost._id}`, person.token, {
      content: typed.comment,
    });
    const commentId = comment._id ?? comment.comment?._id ?? comment.data?._id;
    await write('POST', `/api/comments/${othersPost._id}/comments`, other.token, {
      content: 'Thank you!',
      parentCommentId: commentId,
    });
    await write('POST', `/api/comments/${othersPost._id}/comments`, person.token, {
      content: typed.reply,
      parentCommentId: commentId,
    });
    await write('POST', `/api/posts/${othersPost._id}/like`, person.token);

    // Chat, over HTTP and over the socket, and the other member's receipts.
    const conversation = await write('POST', '/api/conversations', person.token, {
      senderId: person.user._id,
      receiverId: other.user._id,
    });
    const conversationId = conversation.data._id;
    await write('POST', '/api/messages', person.token, { conversationId, text: typed.httpMessage });
    const socket = await connect(person);
    const ack = await socket.timeout(10_000).emitWithAck('sendMessage', {
      conversationId,
      text: typed.socketMessage,
      clientMessageId: randomUUID(),
    });
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
    await write('POST', '/api/messages', other.token, { conversationId, text: 'Hello to you too' });

    // A contact message, signed in.
    await write('POST', '/api/contact', person.token, {
      name: typed.contactName,
      email: typed.email,
      message: typed.contactMessage,
    });

    // Before the deletion the strings are there (in the read models at least): the search below can find them.
    for (let tries = 0; (await leftovers({ about: typed.about })).length === 0; tries++) {
      if (tries > 60) throw new Error('the profile text never reached any table: the search finds nothing');
      await new Promise((r) => setTimeout(r, 250));
    }
    // Their password hashes as the app reads them (sealed in the log): none may be left readable anywhere.
    const store = withPersonalDataEncryption(new PostgresEventStore(t.db.pool), t.db.pool);
    for await (const e of store.readStream(`user-${person.user._id}`)) {
      const hash = (e.data as { passwordHash?: unknown }).passwordHash;
      if (typeof hash === 'string' && hash.startsWith('$argon2')) passwordHashes.push(hash);
    }
    await store.keys.close();
    expect(passwordHashes.length).toBeGreaterThanOrEqual(2); // registered, then changed

    for (const s of sockets) s.close();
    const deleted = await t.api.del(`/api/admin/user/${person.user._id}`, adminToken, key());
    expect(deleted.status, deleted.text).toBe(200);
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  it('leaves none of their strings in any table, the event log included', async () => {
    const needles: Record<string, string> = { ...typed, 'e-mail digest (sha256)': digest };
    passwordHashes.forEach((h, i) => (needles[`password hash ${i + 1}`] = h));
    // Nobody's hash is kept readable: they are sealed with their owner's key.
    needles['any argon2 hash'] = '$argon2';
    // Deletion clean-up follows the log: give the projectors and reactors a moment.
    let found: string[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      found = await leftovers(needles);
      if (found.length === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(found).toEqual([]);
  });

  it('serves none of their pictures any more', async () => {
    expect(images.length).toBeGreaterThanOrEqual(4);
    for (const path of images) expect((await t.api.get(path)).status, path).toBe(404);
  });

  it('still serves the other person, who kept their own content', async () => {
    const profile = await t.api.get('/api/auth/profile', other.token);
    expect(profile.status).toBe(200);
  });
});
