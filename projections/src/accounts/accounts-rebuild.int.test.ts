import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjection, type EventStore } from '@pawhaven/platform';
import { testEventStore } from '@pawhaven/platform/testing';
import { allProjections } from '@pawhaven/projections';
import {
  startTestApp,
  testImage,
  type ApiResponse,
  type Json,
  type RegisteredUser,
  type TestApp,
} from '@pawhaven/testing';

/**
 * The accounts read models (`users`, `sessions`) after every event they follow: sign-ups, verification, sessions
 * started, signed out and ended by a password reset, profile and picture changes, a deletion by an administrator
 * (through real commands), and histories the commands write rarely or never (a lapsed sign-up registered again, a
 * renewed sign-up, a repeated session id, a second revocation, events of nobody, a deleted user's stream registered
 * again). Rebuilding both from the log alone then changes no row, and restores tampered tables.
 */

const NAMES = ['users', 'sessions'];
const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 12, minutes)).toISOString();

let t: TestApp;
let store: EventStore;
const state: { kept?: RegisteredUser; deleted?: RegisteredUser } = {};

const ok = (res: ApiResponse, status = 200): Json => {
  expect(res.status, res.text).toBe(status);
  return res.body;
};

/** A user's events appended straight to the log, as the command side records them. */
const record = (userId: string, type: string, data: Record<string, unknown>) =>
  store.append(`user-${userId}`, [{ type, data, metadata: { actorId: userId } }], 'any');

/** A session's own stream, as a sign-in records it: decided on the user's stream at `userRevision`. */
const recordSession = (userId: string, type: string, data: Record<string, unknown>) =>
  store.append(`session-${String(data.sessionId)}`, [{ type, data, metadata: { actorId: userId } }], 'any');

/** The projections named have seen every event appended so far. */
async function settle(names = NAMES) {
  for (;;) {
    const { rows } = await t.db.pool.query<{ done: number }>(
      `SELECT count(*)::int AS done FROM projection_checkpoints c,
              (SELECT transaction_id, position FROM events ORDER BY position DESC LIMIT 1) e
        WHERE c.name = ANY($1) AND (c.transaction_id, c.position) >= (e.transaction_id, e.position)`,
      [names],
    );
    if (rows[0]!.done === names.length) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const dump = async () => ({
  users: (await t.db.pool.query(`SELECT * FROM users ORDER BY id`)).rows,
  sessions: (await t.db.pool.query(`SELECT * FROM sessions ORDER BY id`)).rows,
  session_ends: (await t.db.pool.query(`SELECT * FROM session_ends ORDER BY user_id, user_revision`)).rows,
});
const userRow = async (id: string) =>
  (await t.db.pool.query(`SELECT * FROM users WHERE id = $1`, [id])).rows[0];

beforeAll(async () => {
  t = await startTestApp();
  // As the app reads and appends: personal fields sealed, and opened again for the rebuild.
  store = testEventStore(t.db);
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
});

describe('the accounts read models', () => {
  it('follow real commands: profiles, pictures, sign-outs, a password reset and a deletion', async () => {
    const api = t.api;
    const [kept, deleted] = await Promise.all([
      api.registerVerifiedUser({ isVeterinarian: true }),
      api.registerVerifiedUser(),
    ]);
    state.kept = kept;
    state.deleted = deleted;
    const image = await testImage(40, 30);
    const png = { field: 'image', bytes: image, filename: 'me.png', type: 'image/png' };

    ok(await api.post('/api/auth/update-profile', { phone: '03001234567', city: 'Lahore' }, kept.token));
    ok(await api.upload('/api/auth/upload-profile-image', png, kept.token));
    ok(await api.del('/api/auth/remove-profile-image', kept.token));
    ok(await api.upload('/api/auth/upload-profile-image', png, kept.token));
    // A second session, signed out; then a reset ends the sessions still open, and a new one starts.
    const second = ok(await api.post('/api/auth/signin', { email: kept.email, password: kept.password }));
    ok(await api.post('/api/auth/signout', {}, second.token));
    ok(await api.post('/api/auth/forgot-password', { email: kept.email }));
    const code = await api.readCode(kept.email);
    ok(await api.post('/api/auth/verify-reset-code', { email: kept.email, code }));
    ok(await api.post('/api/auth/reset-password', { email: kept.email, code, newPassword: 'N3w!Password' }));
    ok(await api.post('/api/auth/signin', { email: kept.email, password: 'N3w!Password' }));

    // The deleted user had a profile, a picture and sessions: all go.
    ok(await api.post('/api/auth/update-profile', { about: 'Soon gone' }, deleted.token));
    ok(await api.upload('/api/auth/upload-profile-image', png, deleted.token));
    ok(await api.post('/api/auth/signin', { email: deleted.email, password: deleted.password }));
    const admin = await t.signInAdmin();
    ok(await api.del(`/api/admin/user/${deleted.user._id}`, admin.token));
    await settle();

    const { rows: sessions } = await t.db.pool.query<{ user_id: string; revoked_at: Date | null }>(
      `SELECT user_id, revoked_at FROM sessions WHERE user_id = ANY($1)`,
      [[kept.user._id, deleted.user._id]],
    );
    expect(sessions.filter((s) => s.user_id === deleted.user._id)).toEqual([]);
    // The reset revoked every session open before it (one was signed out already); the sign-in after it is open.
    const keptSessions = sessions.filter((s) => s.user_id === kept.user._id);
    expect(keptSessions.filter((s) => s.revoked_at !== null).length).toBeGreaterThanOrEqual(2);
    expect(keptSessions.filter((s) => s.revoked_at === null)).toHaveLength(1);
    expect(await userRow(deleted.user._id)).toBeUndefined();
    expect(await userRow(kept.user._id)).toMatchObject({
      phone: '03001234567',
      city: 'Lahore',
      about: '',
      is_veterinarian: true,
      verified: true,
      profile_image: expect.any(String),
      last_active: expect.any(Date),
    });
  });

  it('follow rarer histories: re-registrations, renewals, repeated ids and events of nobody', async () => {
    // A lapsed sign-up with a profile, registered again by Google: the registration's columns change, not the rest.
    const lapsed = randomUUID();
    const registered = (via: string, isVeterinarian: boolean, minute: number) => ({
      userId: lapsed,
      username: `lapsed-${via}`,
      email: `${lapsed.slice(0, 8)}@gmail.com`,
      passwordHash: null,
      isVeterinarian,
      isAdmin: false,
      via,
      registeredAt: at(minute),
    });
    await record(lapsed, 'UserRegistered', registered('password', true, 0));
    await record(lapsed, 'ProfileUpdated', { phone: '042', city: 'Karachi', about: 'Before Google' });
    await record(lapsed, 'RegistrationRenewed', {
      username: 'renewed',
      passwordHash: 'x',
      isVeterinarian: false,
    });
    await record(lapsed, 'UserRegistered', registered('google', false, 5));
    await record(lapsed, 'EmailVerified', { verifiedAt: at(6) });
    await record(lapsed, 'ProfileImageChanged', { profileImage: '/api/images/lapsed' });
    await record(lapsed, 'ProfileImageRemoved', {});

    // A pending sign-up renewed as a vet under another name.
    const renewed = randomUUID();
    await record(renewed, 'UserRegistered', { ...registered('password', false, 7), userId: renewed });
    await record(renewed, 'RegistrationRenewed', {
      username: 'renewed',
      passwordHash: 'x',
      isVeterinarian: true,
    });

    // Sessions: one started twice (the first wins), revoked twice (the first time stays), one revoked before a
    // reset (keeps its time), one unknown session revoked, one ended by the reset.
    const s1 = randomUUID();
    const s2 = randomUUID();
    const session = (sessionId: string, minute: number) => ({
      sessionId,
      secretHash: 'h',
      expiresAt: at(minute + 60),
      rememberMe: false,
      startedAt: at(minute),
    });
    await record(lapsed, 'SessionStarted', session(s1, 10));
    await record(lapsed, 'SessionStarted', session(s1, 11));
    await record(lapsed, 'SessionStarted', session(s2, 12));
    await record(lapsed, 'SessionRevoked', { sessionId: s1, revokedAt: at(13) });
    await record(lapsed, 'SessionRevoked', { sessionId: s1, revokedAt: at(14) });
    await record(lapsed, 'SessionRevoked', { sessionId: randomUUID(), revokedAt: at(14) });
    await record(lapsed, 'PasswordReset', { passwordHash: 'y', resetAt: at(15) });

    // Events of a user nobody registered change nothing.
    const nobody = randomUUID();
    await record(nobody, 'EmailVerified', { verifiedAt: at(20) });
    await record(nobody, 'ProfileUpdated', { phone: '1', city: '2', about: '3' });
    await record(nobody, 'ProfileImageChanged', { profileImage: '/api/images/none' });
    await record(nobody, 'PasswordReset', { passwordHash: 'y', resetAt: at(20) });
    await record(nobody, 'UserDeleted', { userId: nobody, deletedBy: 'admin', deletedAt: at(20) });

    // A deleted user's stream registered again (the log allows it): a fresh row, nothing of the old one.
    const again = randomUUID();
    await record(again, 'UserRegistered', { ...registered('password', false, 30), userId: again });
    await record(again, 'ProfileUpdated', { phone: '051', city: 'Islamabad', about: 'First life' });
    await record(again, 'SessionStarted', session(randomUUID(), 31));
    await record(again, 'UserDeleted', { userId: again, deletedBy: 'admin', deletedAt: at(32) });
    // Once the shredder destroyed the key: the new registration's e-mail is shredded as it is appended, so the live
    // projection and a rebuild both read it blank.
    await settle(['personal-data-shredder']);
    await record(again, 'UserRegistered', { ...registered('google', true, 33), userId: again });
    await settle();

    expect(await userRow(lapsed)).toMatchObject({
      username: 'lapsed-google',
      phone: '042',
      city: 'Karachi',
      about: 'Before Google',
      is_veterinarian: false,
      verified: true,
      profile_image: null,
      joined_date: new Date(at(5)),
      last_active: new Date(at(12)),
    });
    expect(await userRow(renewed)).toMatchObject({
      username: 'renewed',
      is_veterinarian: true,
      verified: false,
    });
    const { rows: sessions } = await t.db.pool.query(
      `SELECT id, started_at, revoked_at FROM sessions WHERE user_id = $1 ORDER BY started_at`,
      [lapsed],
    );
    expect(sessions).toEqual([
      { id: s1, started_at: new Date(at(10)), revoked_at: new Date(at(13)) },
      { id: s2, started_at: new Date(at(12)), revoked_at: new Date(at(15)) },
    ]);
    expect(await userRow(nobody)).toBeUndefined();
    expect(await userRow(again)).toMatchObject({
      email: '',
      phone: '',
      city: '',
      about: '',
      is_veterinarian: true,
      last_active: null,
    });
    expect((await t.db.pool.query(`SELECT 1 FROM sessions WHERE user_id = $1`, [again])).rows).toEqual([]);
  });
});

describe('sessions in streams of their own', () => {
  it('a session decided before a reset or deletion but recorded after it is stored ended, or not at all', async () => {
    const user = randomUUID();
    await record(user, 'UserRegistered', {
      userId: user,
      username: `own-${user.slice(0, 6)}`,
      email: `${user.slice(0, 8)}@gmail.com`,
      passwordHash: 'h',
      isVeterinarian: false,
      isAdmin: false,
      via: 'google',
      registeredAt: at(40),
    }); // revision 0
    const session = (sessionId: string, userRevision: number, minute: number) => ({
      sessionId,
      userId: user,
      userRevision,
      secretHash: 'h',
      expiresAt: at(minute + 60),
      rememberMe: false,
      startedAt: at(minute),
    });
    const [signedOut, endedByReset, late, afterReset, afterDeletion] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    await recordSession(user, 'SessionStarted', session(signedOut, 0, 41));
    await recordSession(user, 'SessionRevoked', { sessionId: signedOut, revokedAt: at(42) });
    await recordSession(user, 'SessionStarted', session(endedByReset, 0, 43));
    await record(user, 'PasswordReset', { passwordHash: 'y', resetAt: at(44) }); // revision 1
    // Decided on revision 0, recorded after the reset at revision 1: ended by it.
    await recordSession(user, 'SessionStarted', session(late, 0, 45));
    await recordSession(user, 'SessionStarted', session(afterReset, 1, 46));
    await settle();
    const { rows } = await t.db.pool.query(
      `SELECT id, revoked_at, user_revision FROM sessions WHERE user_id = $1 ORDER BY started_at`,
      [user],
    );
    expect(rows).toEqual([
      { id: signedOut, revoked_at: new Date(at(42)), user_revision: 0 },
      { id: endedByReset, revoked_at: new Date(at(44)), user_revision: 0 },
      { id: late, revoked_at: new Date(at(44)), user_revision: 0 },
      { id: afterReset, revoked_at: null, user_revision: 1 },
    ]);
    await record(user, 'UserDeleted', { userId: user, deletedBy: 'admin', deletedAt: at(47) }); // revision 2
    await recordSession(user, 'SessionStarted', session(afterDeletion, 1, 48));
    await settle();
    expect((await t.db.pool.query(`SELECT 1 FROM sessions WHERE user_id = $1`, [user])).rows).toEqual([]);
  });
});

describe('rebuilding the accounts read models from the log', () => {
  it('changes no row of what the live projection built', async () => {
    const before = await dump();
    expect(before.users.length).toBeGreaterThanOrEqual(4);
    for (const name of NAMES) {
      const projection = allProjections.find((p) => p.name === name)!;
      const result = await rebuildProjection(t.db.knex, store, projection);
      expect(result.processed).toBeGreaterThan(0);
      expect(result.changedRows, name).toBe(0);
    }
    expect(await dump()).toEqual(before);
  });

  it('restores tampered tables', async () => {
    const before = await dump();
    await t.db.pool.query(`UPDATE users SET about = 'tampered', last_active = NULL`);
    await t.db.pool.query(`DELETE FROM users WHERE is_admin`);
    await t.db.pool.query(`UPDATE sessions SET revoked_at = NULL`);
    await t.db.pool.query(
      `INSERT INTO sessions (id, user_id, started_at, expires_at) VALUES ('x', 'y', now(), now())`,
    );
    expect(await dump()).not.toEqual(before);
    for (const name of NAMES) {
      const projection = allProjections.find((p) => p.name === name)!;
      expect((await rebuildProjection(t.db.knex, store, projection)).changedRows).toBeGreaterThan(0);
    }
    expect(await dump()).toEqual(before);
  });
});
