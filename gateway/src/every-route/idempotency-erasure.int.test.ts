import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestApp,
  testImage,
  TEST_PASSWORD,
  uniqueName,
  type ApiResponse,
  type Json,
  type TestApp,
} from '@pawhaven/testing';

/**
 * Issue 20 point 4 (first bullet): kept Idempotency-Key answers hold what users wrote (the frontend sends a key with
 * every write). They are sealed with the keys of the people whose data they hold and go with them: after an admin
 * deletes a user, no kept answer holds or opens to any of their strings, while other users' keys still replay.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});

let keys = 0;
/** A request with a fresh Idempotency-Key; `again` sends it once more with the same key and body. */
async function keyed(
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; form?: () => Promise<FormData> } = {},
) {
  const key = `erase-${keys++}`;
  const send = async (): Promise<ApiResponse> =>
    t.api.request(method, path, {
      body: opts.form ? undefined : (opts.body ?? {}),
      form: opts.form ? await opts.form() : undefined,
      token: opts.token,
      headers: { 'idempotency-key': key },
    });
  const first = await send();
  expect(first.status, `${method} ${path}: ${first.text}`).toBeLessThan(300);
  return { key, first, again: send };
}

const form = (fields: Record<string, string>, image?: Buffer) => async () => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (image) f.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'pet.png');
  return f;
};

/** The whole table, each row as text, searched for each needle. */
async function inKeptAnswers(needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const needle of needles) {
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM idempotency_keys AS r WHERE strpos(lower(r::text), lower($1)) > 0`,
      [needle],
    );
    if (rows[0]!.n > 0) found.push(`${needle} (${rows[0]!.n} rows)`);
  }
  return found;
}

describe('kept Idempotency-Key answers and erasure', () => {
  it('seals every kept answer, and deleting a user leaves none of their strings, readable or not', async () => {
    const tag = uniqueName('k');
    const email = `keyed.${tag}@gmail.com`;
    const texts = {
      username: `Keyed${tag}`,
      phone: '+92 333 1122334',
      city: `Cityof${tag}`,
      about: `About ${tag}: I walk shelter dogs on Sundays`,
      description: `Description ${tag}: a gentle cat who purrs`,
      location: `Street ${tag}, Lahore`,
      petName: `Misty${tag}`,
      newDescription: `Updated ${tag}: now vaccinated`,
      requestName: `Request Name ${tag}`,
      requestEmail: `req.${tag}@gmail.com`,
      requestPhone: '+92 300 9988776',
      requestMessage: `Request ${tag}: we have a big garden`,
      caption: `Caption ${tag}: first day home`,
      newCaption: `Edited ${tag}: first week home`,
      comment: `Comment ${tag}: so sweet`,
      reply: `Reply ${tag}: thank you`,
      message: `Message ${tag}: is the kitten still there?`,
      contactName: `Contact Name ${tag}`,
      contactMessage: `Contact ${tag}: I want to volunteer`,
    };

    // The person signs up, verifies and signs in, all with keys (anonymous requests: the person acted on).
    const register = await keyed('POST', '/api/auth/register', {
      body: { username: texts.username, email, password: TEST_PASSWORD, isVeterinarian: false },
    });
    const registrationToken = String(register.first.body.registrationToken);
    await keyed('POST', '/api/auth/verify-registration', {
      body: { email, otp: await t.api.readCode(email), registrationToken },
    });
    const signin = await keyed('POST', '/api/auth/signin', { body: { email, password: TEST_PASSWORD } });
    const person = { token: String(signin.first.body.token), id: String(signin.first.body.user.id) };
    const [owner, friend] = [await t.api.registerVerifiedUser(), await t.api.registerVerifiedUser()];
    const image = await testImage();

    // One write of every kind, each with a key.
    const as = { token: person.token };
    await keyed('POST', '/api/auth/update-profile', {
      ...as,
      body: { phone: texts.phone, city: texts.city, about: texts.about },
    });
    await keyed('POST', '/api/auth/upload-profile-image', { ...as, form: form({}, image) });
    const ad = await keyed('POST', '/api/adoptions', {
      ...as,
      form: form(
        {
          name: texts.petName,
          age: '1',
          location: texts.location,
          petType: 'Cat',
          description: texts.description,
        },
        image,
      ),
    });
    await keyed('PUT', `/api/adoptions/${String(ad.first.body._id)}`, {
      ...as,
      form: form({ description: texts.newDescription }),
    });
    const ownersAd = await t.api.upload(
      '/api/adoptions',
      { field: 'image', bytes: image, filename: 'a.png', type: 'image/png' },
      owner.token,
      { name: 'Moti', age: '2', location: 'Karachi', petType: 'Dog', description: 'Calm and friendly.' },
    );
    expect(ownersAd.status).toBe(201);
    await keyed('POST', `/api/adoptions/${String(ownersAd.body._id)}/request`, {
      ...as,
      body: {
        name: texts.requestName,
        email: texts.requestEmail,
        phone: texts.requestPhone,
        message: texts.requestMessage,
      },
    });
    const post = await keyed('POST', '/api/posts', { ...as, form: form({ caption: texts.caption }, image) });
    const postId = String(post.first.body._id);
    await keyed('PUT', `/api/posts/${postId}`, { ...as, body: { caption: texts.newCaption } });
    const comment = await keyed('POST', `/api/comments/${postId}`, {
      ...as,
      body: { content: texts.comment },
    });
    await keyed('POST', `/api/comments/${postId}/comments`, {
      ...as,
      body: { content: texts.reply, parentCommentId: String(comment.first.body._id) },
    });
    await keyed('POST', `/api/posts/${postId}/like`, as);
    const conversation = await keyed('POST', '/api/conversations', {
      ...as,
      body: { senderId: person.id, receiverId: friend.user.id },
    });
    const conversationId = String(conversation.first.body.data._id);
    const sent = await keyed('POST', '/api/messages', {
      ...as,
      body: { conversationId, text: texts.message },
    });
    await keyed('POST', `/api/conversations/${conversationId}/read`, {
      token: friend.token,
      body: { upToMessageId: String(sent.first.body.data._id) },
    });
    await keyed('POST', '/api/contact', {
      ...as,
      body: { name: texts.contactName, email, message: texts.contactMessage },
    });
    await keyed('POST', '/api/auth/forgot-password', { body: { email } });

    // Another user's answer that quotes the person's words holds their data too: sealed with both keys.
    const quoted = `You asked: "${texts.message}" Yes, she is!`;
    const quoting = await keyed('POST', '/api/messages', {
      token: friend.token,
      body: { conversationId, text: quoted },
    });
    // Someone asks about the person's ad: the answer names them and their pet, so it is sealed with their key too.
    await keyed('POST', '/api/conversations', {
      token: owner.token,
      body: { senderId: owner.user.id, receiverId: person.id, adId: String(ad.first.body._id) },
    });
    const friends = await keyed('POST', '/api/auth/update-profile', {
      token: friend.token,
      body: { city: `Plain answer ${tag}` },
    });

    const needles = [...Object.values(texts), email, registrationToken];
    // Kept, but sealed: no string of theirs is in the table, and a retry still replays (here: the register).
    expect(await inKeptAnswers(needles)).toEqual([]);
    const replayed = await register.again();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(register.first.body);
    const { rows: kept } = await t.db.pool.query<Record<string, unknown>>(
      `SELECT * FROM idempotency_keys WHERE $1 = ANY(persons)`,
      [person.id],
    );
    // Sign-up, verification and fourteen writes of theirs, the friend's answer that quotes them, and the answer
    // about their ad.
    expect(kept).toHaveLength(17);

    // The admin deletes the person; the shredders destroy their key and their kept answers.
    const deleted = await t.api.del(`/api/admin/user/${person.id}`, (await t.signInAdmin()).token);
    expect(deleted.status, deleted.text).toBe(200);
    const theirs = async () =>
      (
        await t.db.pool.query(
          `SELECT 1 FROM idempotency_keys WHERE scope = $1 OR $2 = ANY(persons)
           UNION ALL SELECT 1 FROM personal_data_keys WHERE user_id = $2 AND key IS NOT NULL`,
          [`user:${person.id}`, person.id],
        )
      ).rowCount;
    const deadline = Date.now() + 10_000;
    while ((await theirs()) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await theirs()).toBe(0);
    expect(await inKeptAnswers(needles)).toEqual([]);

    // Another user's answers: the one that held the person's words is gone; their own still replays.
    const again = await friends.again();
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(friends.first.body);

    // A copy of the rows from before (a backup) opens to nothing either: the key they were sealed with is gone.
    await t.db.pool.query(
      `INSERT INTO idempotency_keys SELECT * FROM json_populate_recordset(null::idempotency_keys, $1)`,
      [JSON.stringify(kept)],
    );
    const fromBackup: Json[] = [];
    for (const retry of [register, quoting]) {
      const res = await retry.again();
      fromBackup.push({
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        text: res.text,
      });
      expect(needles.some((n) => res.text.includes(n))).toBe(false);
    }
    expect(fromBackup).toMatchObject([
      { status: 409, replayed: null },
      { status: 409, replayed: null },
    ]);
    expect(String(fromBackup[0].text)).toMatch(/can no longer be shown/);
  });
});
