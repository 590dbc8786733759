import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGoogleTestKeys,
  GOOGLE_TEST_CLIENT_ID,
  startTestApp,
  TEST_PASSWORD,
  uniqueName,
  type GoogleTestKeys,
  type TestApi,
  type TestApp,
} from '@pawhaven/testing';

/**
 * A username names somebody: one of only dots, dashes, underscores or spaces is refused at sign-up and at a Google
 * sign-up, with a message saying why; the name a Google sign-up suggests is always one that passes.
 */

let t: TestApp;
let api: TestApi;
let google: GoogleTestKeys;
const NO_LETTER = 'Username must contain at least one letter or number';
const gmail = (local: string) => `${local}@gmail.com`;

beforeAll(async () => {
  google = await createGoogleTestKeys();
  t = await startTestApp({ googleKeys: google.keys, config: { GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT_ID } });
  api = t.api;
});
afterAll(async () => {
  await t?.stop();
});

const eventCount = async () =>
  Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

describe('sign-up', () => {
  it('refuses a username with no letter or digit, appending nothing; one among the punctuation is enough', async () => {
    const before = await eventCount();
    for (const username of ['...', '. .', '-', '_', '._-', ' - ']) {
      const email = gmail(uniqueName('dots'));
      const res = await api.post('/api/auth/register', { username, email, password: TEST_PASSWORD });
      expect({ username, status: res.status, message: res.body.message }).toEqual({
        username,
        status: 400,
        message: NO_LETTER,
      });
    }
    expect(await eventCount()).toBe(before);
    for (const username of [
      `a.${uniqueName()}`,
      `7-${uniqueName()}`,
      `Zoë ${uniqueName()}`,
      `ع_${uniqueName()}`,
    ]) {
      const res = await api.post('/api/auth/register', {
        username,
        email: gmail(uniqueName('ok')),
        password: TEST_PASSWORD,
      });
      expect(res.status, `${username}: ${res.text}`).toBe(201);
    }
  });
});

describe('Google sign-up', () => {
  const suggested = async (name: string, email: string) => {
    const res = await api.post('/api/auth/login-google', { credential: await google.sign({ email, name }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.needsUserType).toBe(true);
    return res.body.username as string;
  };

  it("suggests Google's name as far as it makes a username, else the address's local part", async () => {
    const local = uniqueName('zoe');
    expect(await suggested("Zoë O'Brien 🐾", gmail(local))).toBe('Zoë OBrien');
    expect(await suggested('...', gmail(local))).toBe(local);
    expect(await suggested('🐾 🐾', gmail(local))).toBe(local);
    expect(await suggested('...', '...@gmail.com')).toBe('PawHaven user');
  });

  it('completes with the suggested name, even one that came from punctuation alone', async () => {
    const email = gmail(uniqueName('gdots'));
    const username = await suggested('.-.', email);
    const done = await api.post('/api/auth/complete-google-registration', {
      email,
      username,
      credential: await google.sign({ email, name: '.-.' }),
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.user.username).toBe(email.split('@')[0]);
  });

  it('refuses a username with no letter or digit sent to complete it, appending nothing', async () => {
    const before = await eventCount();
    for (const username of ['...', '-', ' _ ']) {
      const email = gmail(uniqueName('gbad'));
      const res = await api.post('/api/auth/complete-google-registration', {
        email,
        username,
        credential: await google.sign({ email }),
      });
      expect({ username, status: res.status, message: res.body.message }).toEqual({
        username,
        status: 400,
        message: NO_LETTER,
      });
    }
    expect(await eventCount()).toBe(before);
  });
});
