import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonalDataKeys, PostgresEventStore, sealValue } from '@pawhaven/platform';
import { createTestDatabase, recordedEvents } from '@pawhaven/platform/testing';
import {
  createGoogleTestKeys,
  GOOGLE_TEST_CLIENT_ID,
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type GoogleTestKeys,
  type TestApp,
  type TestDatabase,
} from '@pawhaven/testing';
import { hashPassword } from './secrets';
import { usernameKeys } from './username-keys';

/**
 * Who someone was is not left readable in the log (issue 20, point 4): usernames and password hashes are sealed
 * with the person's key, and claim streams are kept under keyed hashes. Every account flow that writes a username,
 * a password hash or a claim is walked over real HTTP, the admin deletes the people, and a plain SELECT over the
 * events (stream ids, data and metadata as text) finds none of it.
 */

let t: TestApp;
let google: GoogleTestKeys;

beforeAll(async () => {
  google = await createGoogleTestKeys();
  t = await startTestApp({ googleKeys: google.keys, config: { GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID } });
});
afterAll(async () => {
  await t?.stop();
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The events that hold `needle` anywhere (stream id, data or metadata), case-insensitively. */
const eventsHolding = (needle: string) => eventsIn(t.db)(needle);

async function adminToken(): Promise<string> {
  return (await t.signInAdmin()).token;
}

/** The admin deletes the user, and the shredder destroys their key (it follows the log). */
async function deleteUser(userId: string) {
  const res = await t.api.del(`/api/admin/user/${userId}`, await adminToken());
  expect(res.status, res.text).toBe(200);
  const destroyed = async () =>
    (await t.db.pool.query(`SELECT 1 FROM personal_data_keys WHERE user_id = $1 AND key IS NULL`, [userId]))
      .rowCount === 1;
  const deadline = Date.now() + 10_000;
  while (!(await destroyed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(await destroyed()).toBe(true);
}

/** Every password hash the person's stream recorded, as the app reads it (opened). */
async function passwordHashesOf(userId: string): Promise<string[]> {
  return (await recordedEvents(t.db, `user-${userId}`))
    .map((e) => (e.data as { passwordHash?: unknown }).passwordHash)
    .filter((h): h is string => typeof h === 'string' && h !== '');
}

describe('after an admin deletes a user, the log holds no readable username, e-mail or password hash', () => {
  it('walks password and Google sign-ups, renewal, verification, password change and reset, then deletes', async () => {
    const { api } = t;
    // Capitals, a space and a non-ASCII letter: the name is searched for in every case form.
    const username = `Zoë ${uniqueName('Qureshi')}`;
    const email = `${uniqueName('zoe.q')}@gmail.com`;
    const first = await api.post('/api/auth/register', { username, email, password: 'Fir5t!Password' });
    expect(first.status, first.text).toBe(201);
    // Signing up again before verifying renews the sign-up (same name, another password).
    const renewed = await api.post('/api/auth/register', { username, email, password: TEST_PASSWORD });
    expect(renewed.status, renewed.text).toBe(201);
    const verified = await api.post('/api/auth/verify-registration', {
      email,
      otp: await api.readCode(email),
      registrationToken: renewed.body.registrationToken,
    });
    expect(verified.status, verified.text).toBe(200);
    const userId = verified.body.user.id as string;
    const signin = await api.post('/api/auth/signin', { email, password: TEST_PASSWORD });
    expect(signin.status, signin.text).toBe(200);
    const changed = await api.post(
      '/api/auth/change-password',
      { id: userId, currentPassword: TEST_PASSWORD, newPassword: 'Chang3d!Password' },
      signin.body.token,
    );
    expect(changed.status, changed.text).toBe(200);
    const forgot = await api.post('/api/auth/forgot-password', { email });
    expect(forgot.status, forgot.text).toBe(200);
    const reset = await api.post('/api/auth/reset-password', {
      email,
      code: await api.readCode(email),
      newPassword: 'R3set!Password',
    });
    expect(reset.status, reset.text).toBe(200);

    const googleName = `Ayaan ${uniqueName('Googler')}`;
    const googleEmail = `${uniqueName('ayaan.g')}@gmail.com`;
    const credential = await google.sign({ email: googleEmail, name: googleName, sub: randomUUID() });
    const login = await api.post('/api/auth/login-google', { credential });
    expect(login.body, login.text).toMatchObject({ needsUserType: true, username: googleName });
    const registered = await api.post('/api/auth/complete-google-registration', {
      email: googleEmail,
      username: googleName,
      isVeterinarian: false,
      credential,
    });
    expect(registered.status, registered.text).toBe(200);
    const googleUserId = registered.body.user.id as string;

    const hashes = await passwordHashesOf(userId);
    expect(hashes).toHaveLength(4); // registered, renewed, changed, reset
    const needles = [
      username,
      username.toUpperCase(),
      googleName,
      email,
      sha256(email),
      googleEmail,
      sha256(googleEmail),
      ...hashes,
    ];
    // Sealed from the start: even before the deletion, the log itself reads as none of it.
    expect((await Promise.all(needles.map(eventsHolding))).flat()).toEqual([]);

    await deleteUser(userId);
    await deleteUser(googleUserId);

    expect((await Promise.all(needles.map(eventsHolding))).flat()).toEqual([]);
    // No argon2 hash anywhere in the log, the bootstrap admin's included.
    expect(await eventsHolding('$argon2')).toEqual([]);
    // Every claim stream is kept under a keyed hash.
    const { rows: claims } = await t.db.pool.query<{ stream_id: string }>(
      `SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE 'user-email-%' OR stream_id LIKE 'username-%'`,
    );
    expect(claims.length).toBeGreaterThan(4);
    for (const { stream_id } of claims)
      expect(stream_id).toMatch(/^(user-email-|username-key:)hmac:[0-9a-f]{64}$/);
    // The events' username keys are keyed hashes too.
    const { rows: keys } = await t.db.pool.query<{ key: string }>(
      `SELECT jsonb_array_elements_text(data->'usernameKeys') AS key FROM events WHERE data ? 'usernameKeys'`,
    );
    expect(keys.length).toBeGreaterThan(2);
    for (const { key } of keys) expect(key).toMatch(/^hmac:[0-9a-f]{64}$/);

    // The deleted people's fields read as their placeholders, and the claims still name their accounts.
    const [registeredEvent] = await recordedEvents(t.db, `user-${userId}`);
    expect(registeredEvent!.data).toMatchObject({ userId, username: '', email: '', passwordHash: null });
    const [claim] = await recordedEvents(t.db, `user-email-${email}`);
    expect(claim!.data).toEqual({ userId });
    // A deleted person's name stays taken, look-alikes included, as before.
    const copy = await api.post('/api/auth/register', {
      username: username.toUpperCase(),
      email: `${uniqueName('copy')}@gmail.com`,
      password: TEST_PASSWORD,
    });
    expect(copy.status, copy.text).toBe(409);
  });
});

describe('a log written before claims were pseudonymised', () => {
  it('is migrated once at start, by several processes at once: claims renamed, names and hashes sealed, owners found', async () => {
    const db = await createTestDatabase({ max: 10 });
    // A transaction opened in another database of the same server before the old log is written, and left open while
    // the apps start, holds the log's visibility horizon below that log: the migration must still find every old
    // claim (it used to miss them, and its marker made that final).
    const elsewhere = await createTestDatabase({ max: 1 });
    const open = await elsewhere.pool.connect();
    await open.query('BEGIN');
    await open.query('SELECT pg_current_xact_id()');
    const apps: TestApp[] = [];
    try {
      const raw = new PostgresEventStore(db.pool);
      const keys = new PersonalDataKeys(db.pool);
      const old = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
      const hash = await hashPassword(TEST_PASSWORD);
      /** An account as the previous version recorded it: e-mail sealed, name and keys readable, unsalted claim. */
      const previousVersion = async (username: string, opts: { deleted?: boolean } = {}) => {
        const userId = randomUUID();
        const email = `${username.toLowerCase().replace(/[^a-z0-9]/g, '')}@gmail.com`;
        const meta = { actorId: userId };
        const readableKeys = usernameKeys(username);
        const key = (await keys.keyForWrite(userId))!;
        await raw.append(
          `user-email-sha256:${sha256(email)}`,
          [{ type: 'EmailClaimed', data: { userId }, metadata: meta }],
          'no_stream',
        );
        const registration = { registrationId: randomUUID(), tokenHash: 't', expiresAt: old };
        for (const k of readableKeys)
          await raw.append(
            `username-key:${k}`,
            [
              {
                type: 'UsernameHeld',
                data: { userId, registrationId: registration.registrationId, username, expiresAt: old },
                metadata: meta,
              },
              { type: 'UsernameConfirmed', data: { userId, username }, metadata: meta },
            ],
            'no_stream',
          );
        await raw.append(
          `user-${userId}`,
          [
            {
              type: 'UserRegistered',
              data: {
                userId,
                username,
                email: sealValue(key.key, key.keyId, email),
                passwordHash: hash,
                isVeterinarian: false,
                isAdmin: false,
                via: 'password',
                registeredAt: old,
                usernameKeys: readableKeys,
                registration,
              },
              metadata: meta,
            },
            {
              type: 'RegistrationRenewed',
              data: {
                username,
                passwordHash: hash,
                isVeterinarian: false,
                usernameKeys: readableKeys,
                registration,
                replaced: { registrationId: registration.registrationId, usernameKeys: readableKeys },
                renewedAt: old,
              },
              metadata: meta,
            },
            { type: 'EmailVerified', data: { verifiedAt: old }, metadata: meta },
            { type: 'PasswordChanged', data: { passwordHash: hash, changedAt: old }, metadata: meta },
            ...(opts.deleted
              ? [
                  {
                    type: 'UserDeleted',
                    data: { userId, deletedBy: 'admin', deletedAt: old },
                    metadata: { actorId: 'admin' },
                  },
                ]
              : []),
          ],
          'no_stream',
        );
        if (opts.deleted) await keys.forget(userId);
        return { userId, username, email };
      };
      const kept = await previousVersion(`Mehr ${uniqueName('Nisa')}`);
      const gone = await previousVersion(`Hamza ${uniqueName('Ali')}`, { deleted: true });
      // The first version's claim: a readable address and a lower-case name, no keys in the event.
      const firstVersion = { userId: randomUUID(), username: `Iqra ${uniqueName('Butt')}` };
      const firstEmail = `${uniqueName('iqra')}@gmail.com`;
      await raw.append(
        `user-email-${firstEmail}`,
        [{ type: 'EmailClaimed', data: { userId: firstVersion.userId } }],
        'no_stream',
      );
      await raw.append(
        `username-${firstVersion.username.toLowerCase()}`,
        [{ type: 'UsernameClaimed', data: { userId: firstVersion.userId } }],
        'no_stream',
      );
      await raw.append(
        `user-${firstVersion.userId}`,
        [
          {
            type: 'UserRegistered',
            data: {
              ...firstVersion,
              email: firstEmail,
              passwordHash: hash,
              isVeterinarian: false,
              isAdmin: false,
              via: 'password',
              registeredAt: old,
            },
          },
          { type: 'EmailVerified', data: { verifiedAt: old } },
        ],
        'no_stream',
      );
      await keys.close();
      await raw.close();
      const needles = [
        kept.username,
        gone.username,
        firstVersion.username,
        ...[kept.email, gone.email, firstEmail].flatMap((e) => [e, sha256(e)]),
        '$argon2',
      ];
      expect((await Promise.all(needles.map(eventsIn(db)))).flat().length).toBeGreaterThan(0);

      try {
        apps.push(...(await Promise.all([startTestApp({ db }), startTestApp({ db })])));
      } finally {
        await open.query('ROLLBACK').catch(() => {});
        open.release();
        await elsewhere.drop();
      }
      const [app] = apps;
      // One of them created the admin; the other one must not print a password that was never recorded.
      const credentials = apps.map((a) => a.adminCredentials).filter((c) => c !== null);
      expect(credentials).toHaveLength(1);

      expect((await Promise.all(needles.map(eventsIn(db)))).flat()).toEqual([]);
      const { rows: claims } = await db.pool.query<{ stream_id: string }>(
        `SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE 'user-email-%' OR stream_id LIKE 'username-%'`,
      );
      for (const { stream_id } of claims)
        expect(stream_id).toMatch(/^(user-email-|username-key:|username-)hmac:[0-9a-f]{64}$/);
      // The claims find their owners: the kept account signs in, look-alikes of every name stay refused.
      const signin = await app!.api.post('/api/auth/signin', { email: kept.email, password: TEST_PASSWORD });
      expect(signin.status, signin.text).toBe(200);
      expect(signin.body.user).toMatchObject({ id: kept.userId, username: kept.username });
      const first = await app!.api.post('/api/auth/signin', { email: firstEmail, password: TEST_PASSWORD });
      expect(first.status, first.text).toBe(200);
      for (const name of [kept.username, gone.username, firstVersion.username]) {
        const copy = await app!.api.post('/api/auth/register', {
          username: name.toUpperCase(),
          email: `${uniqueName('copy')}@gmail.com`,
          password: TEST_PASSWORD,
        });
        expect({ name, status: copy.status }).toEqual({ name, status: 409 });
      }
      const [goneClaim] = await recordedEvents(db, `user-email-${gone.email}`);
      expect(goneClaim!.data).toEqual({ userId: gone.userId });
      const [goneRegistered] = await recordedEvents(db, `user-${gone.userId}`);
      expect(goneRegistered!.data).toMatchObject({ username: '', passwordHash: null, email: '' });

      // The event browser lists the renamed streams only.
      const admin = await app!.api.post('/api/auth/signin', credentials[0]!);
      expect(admin.status, admin.text).toBe(200);
      const streams = await app!.api.get(
        `/api/admin/streams?range=${encodeURIComponent('[0,99]')}&filter=${encodeURIComponent('{"q":"user"}')}`,
        admin.body.token,
      );
      expect(streams.status, streams.text).toBe(200);
      const ids = (streams.body as { streamId: string }[]).map((s) => s.streamId);
      expect(ids.filter((id) => id.startsWith('user-email-')).length).toBe(4); // three people and the admin
      for (const id of ids.filter((i) => i.startsWith('username') || i.startsWith('user-email-')))
        expect(id).toMatch(/hmac:[0-9a-f]{64}$/);

      // Once is enough: a later start changes nothing.
      const dump = async () =>
        (await db.pool.query(`SELECT position, stream_id, data::text FROM events ORDER BY position`)).rows;
      const before = await dump();
      await Promise.all(apps.splice(0).map((a) => a.stop()));
      apps.push(await startTestApp({ db }));
      expect(await dump()).toEqual(before);
    } finally {
      await Promise.all(apps.map((a) => a.stop()));
      await db.drop();
    }
  });
});

/** The events of `db` holding `needle` (see eventsHolding). */
const eventsIn = (db: TestDatabase) => async (needle: string) =>
  (
    await db.pool.query<{ hit: string }>(
      `SELECT stream_id || ' ' || type AS hit FROM events
       WHERE strpos(lower(stream_id || ' ' || data::text || ' ' || metadata::text), lower($1)) > 0`,
      [needle],
    )
  ).rows.map((r) => `${needle}: ${r.hit}`);
