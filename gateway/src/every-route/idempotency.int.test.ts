import http from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type RegisteredUser, type TestApp } from '@pawhaven/testing';
import { DATABASE_UNAVAILABLE } from '@pawhaven/platform';

/**
 * Issue 6 point 6: a retried create whose first answer was lost must not create twice. Every mutating route
 * goes through one Idempotency-Key middleware; these tests use the two creates of the adoption context.
 * Issue 20 point 7: a reused key with a different multipart body is refused too; retries across a real crash are
 * in idempotency-crash.int.test.ts.
 */

let t: TestApp;
let owner: RegisteredUser;
let adopter: RegisteredUser;

const adFields = {
  name: 'Biscuit',
  age: '2',
  location: 'Lahore',
  petType: 'Dog',
  description: 'A friendly dog who loves long walks.',
};

const adForm = async (fields: Partial<typeof adFields> = {}, colour = '#c84') => {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...adFields, ...fields })) form.append(k, v);
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: colour } })
    .png()
    .toBuffer();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'biscuit.png');
  return form;
};

const publish = async (key?: string, token = owner.token, form?: FormData) => {
  const res = await fetch(`${t.url}/api/adoptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
    body: form ?? (await adForm()),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

const countEvents = async (type: string) =>
  Number(
    (await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE type = $1', [type]))
      .rows[0]!.n,
  );

beforeAll(async () => {
  t = await startTestApp();
  [owner, adopter] = await Promise.all([t.api.registerVerifiedUser(), t.api.registerVerifiedUser()]);
});
afterAll(async () => {
  await t?.stop();
});

describe('Idempotency-Key', () => {
  it('answers a retried create with the first result and creates once', async () => {
    const before = await countEvents('AdoptionAdPublished');
    const first = await publish('create-ad-1');
    const retry = await publish('create-ad-1');
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countEvents('AdoptionAdPublished')).toBe(before + 1);
  });

  it('creates once when the same key arrives twice at the same moment', async () => {
    const before = await countEvents('AdoptionAdPublished');
    const answers = await Promise.all([publish('create-ad-race'), publish('create-ad-race')]);
    const statuses = answers.map((a) => a.status).sort();
    // The loser either sees the stored answer or is told the first is still running: never a second ad.
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    expect(await countEvents('AdoptionAdPublished')).toBe(before + 1);
  });

  /** Sends a multipart create over a raw connection and drops it: after `bytes` of the body, or once appended. */
  const sendAndDrop = async (key: string, cut: 'after the append' | 'mid-body') => {
    const before = await countEvents('AdoptionAdPublished');
    const encoded = new Response(await adForm());
    const body = Buffer.from(await encoded.arrayBuffer());
    await new Promise<void>((resolve) => {
      const req = http.request(`${t.url}/api/adoptions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.token}`,
          'idempotency-key': key,
          'content-type': encoded.headers.get('content-type')!,
          'content-length': body.length,
        },
      });
      req.on('error', () => resolve());
      if (cut === 'mid-body') {
        req.write(body.subarray(0, body.length >> 1), () => {
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 50);
        });
        return;
      }
      req.end(body, async () => {
        // Drop the connection the moment the ad is stored, without reading the answer.
        for (let i = 0; i < 200 && (await countEvents('AdoptionAdPublished')) === before; i++)
          await new Promise((r) => setTimeout(r, 5));
        req.destroy();
        resolve();
      });
    });
  };

  const retryUntilDone = async (key: string) => {
    let retry = await publish(key);
    for (let i = 0; retry.status === 409 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      retry = await publish(key);
    }
    return retry;
  };

  it('replays the stored answer after the connection was cut before the answer arrived', async () => {
    const before = await countEvents('AdoptionAdPublished');
    await sendAndDrop('create-ad-cut', 'after the append');
    const retry = await retryUntilDone('create-ad-cut');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countEvents('AdoptionAdPublished')).toBe(before + 1);
  });

  it('runs the retry at once when the first attempt was cut off before its body arrived', async () => {
    const before = await countEvents('AdoptionAdPublished');
    await sendAndDrop('create-ad-half', 'mid-body');
    // The server frees the key as soon as it notices the dropped connection: well before the 60 s lease.
    const started = Date.now();
    const retry = await retryUntilDone('create-ad-half');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await countEvents('AdoptionAdPublished')).toBe(before + 1);
  });

  it('refuses a key reused for a different request with 422', async () => {
    const first = await t.api.request('POST', '/api/auth/update-profile', {
      body: { city: 'Lahore' },
      token: owner.token,
      headers: { 'idempotency-key': 'profile-1' },
    });
    expect(first.status).toBe(200);
    const other = await t.api.request('POST', '/api/auth/update-profile', {
      body: { city: 'Karachi' },
      token: owner.token,
      headers: { 'idempotency-key': 'profile-1' },
    });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/already used for a different request/);
  });

  it('refuses a key reused for a different multipart request with 422: other fields or other file bytes', async () => {
    const before = await countEvents('AdoptionAdPublished');
    const first = await publish('create-ad-multipart');
    expect(first.status).toBe(201);
    for (const form of [
      await adForm({ description: 'A calm dog who loves long naps.' }),
      await adForm({}, '#48c'),
    ]) {
      const other = await publish('create-ad-multipart', owner.token, form);
      expect(other.status).toBe(422);
      expect(other.body.message).toMatch(/already used for a different request/);
    }
    const same = await publish('create-ad-multipart');
    expect(same.status).toBe(201);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(same.body).toEqual(first.body);
    expect(await countEvents('AdoptionAdPublished')).toBe(before + 1);
  });

  it('refuses a multipart body with a key on a route that takes no upload, recording nothing', async () => {
    // The key of a multipart body is claimed once the upload has read it; a route without one never claims it.
    const ad = await publish();
    const before = await countEvents('AdoptionAdDeleted');
    const res = await fetch(`${t.url}/api/adoptions/${String(ad.body._id)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${owner.token}`, 'idempotency-key': 'delete-multipart' },
      body: await adForm(),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/send the request as JSON/);
    expect(await countEvents('AdoptionAdDeleted')).toBe(before);
  });

  it('keeps keys apart per user', async () => {
    const ad = await publish('create-ad-2');
    const mine = await t.api.request('POST', `/api/adoptions/${String(ad.body._id)}/request`, {
      body: { name: 'Ali', email: 'ali@gmail.com', phone: '+92 300 1234567', message: 'I have a garden.' },
      token: adopter.token,
      headers: { 'idempotency-key': 'create-ad-2' },
    });
    expect(mine.status).toBe(201);
    expect(mine.headers.get('idempotent-replayed')).toBeNull();
  });

  it('lets a corrected retry run after a refusal with the same key', async () => {
    const ad = await publish();
    const path = `/api/adoptions/${String(ad.body._id)}/request`;
    const headers = { 'idempotency-key': 'request-fix-1' };
    const bad = await t.api.request('POST', path, {
      body: { name: 'Ali', email: 'not-an-email', phone: '+92 300 1234567', message: 'Hello' },
      token: adopter.token,
      headers,
    });
    expect(bad.status).toBe(400);
    const fixed = await t.api.request('POST', path, {
      body: { name: 'Ali', email: 'ali@gmail.com', phone: '+92 300 1234567', message: 'Hello' },
      token: adopter.token,
      headers,
    });
    // A different body is a different request: the refusal released the key instead of keeping it.
    expect(fixed.status).toBe(201);
    const again = await t.api.request('POST', path, {
      body: { name: 'Ali', email: 'ali@gmail.com', phone: '+92 300 1234567', message: 'Hello' },
      token: adopter.token,
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(fixed.body);
  });

  it("never duplicates a create whose kept answer is gone (expired, or deleted with someone's data)", async () => {
    const before = await countEvents('AdoptionAdPublished');
    const first = await publish('create-ad-gone');
    expect(first.status).toBe(201);
    // An answer is recorded with its events, so a crash cannot lose it (crash.int.test.ts); it can still be gone.
    await t.db.pool.query(`DELETE FROM idempotency_keys WHERE key = 'create-ad-gone'`);
    const retry = await publish('create-ad-gone');
    // The ad id is derived from the key: the second attempt addresses the same ad and is refused.
    expect(retry.status).toBe(409);
    expect(await countEvents('AdoptionAdPublished')).toBe(before + 1);
  });

  it('answers 503 and records nothing when the answer cannot be recorded with its events; a retry runs afresh', async () => {
    const profileUpdates = async () =>
      Number(
        (
          await t.db.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM events WHERE stream_id = $1 AND type = 'ProfileUpdated'`,
            [`user-${owner.user.id}`],
          )
        ).rows[0]!.n,
      );
    const update = () =>
      t.api.request('POST', '/api/auth/update-profile', {
        body: { about: 'Fosters two senior cats' },
        token: owner.token,
        headers: { 'idempotency-key': 'profile-unsaved' },
      });
    const before = await profileUpdates();
    // The answer's row is refused (as by a database failing at that moment): its events must not stay either.
    await t.db.pool.query(
      `ALTER TABLE idempotency_keys ADD CONSTRAINT refuse_for_test CHECK (key <> 'profile-unsaved')`,
    );
    let refused;
    try {
      refused = await update();
    } finally {
      await t.db.pool.query(`ALTER TABLE idempotency_keys DROP CONSTRAINT refuse_for_test`);
    }
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/could not be saved/);
    expect(await profileUpdates()).toBe(before);
    const retry = await update();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await profileUpdates()).toBe(before + 1);
  });

  it('answers 503 with the database-unavailable message when the database goes away as the answer is recorded', async () => {
    const update = () =>
      t.api.request('POST', '/api/auth/update-profile', {
        body: { about: 'Walks the shelter dogs on Sundays' },
        token: owner.token,
        headers: { 'idempotency-key': 'profile-database-gone' },
      });
    // The request's own connection ends while it records the answer, as in a restart of the database.
    await t.db.pool.query(`
      CREATE FUNCTION gone_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.key = 'profile-database-gone' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER gone_for_test BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION gone_for_test();`);
    let refused;
    try {
      refused = await update();
    } finally {
      await t.db.pool.query(`DROP TRIGGER gone_for_test ON idempotency_keys; DROP FUNCTION gone_for_test()`);
    }
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe(DATABASE_UNAVAILABLE);
    expect(refused.headers.get('retry-after')).toBe('2');
    const retry = await update();
    expect(retry.status).toBe(200);
  });

  it('refuses a malformed key with 400', async () => {
    const res = await t.api.request('POST', '/api/auth/update-profile', {
      body: { city: 'Lahore' },
      token: owner.token,
      headers: { 'idempotency-key': 'x'.repeat(201) },
    });
    expect(res.status).toBe(400);
  });
});
