import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { createApi, type Json, type RegisteredUser, type TestDatabase } from '@pawhaven/testing';

/**
 * Issue 20 point 7: a retry with the same Idempotency-Key after a crash replays exactly the first answer, at once.
 * The app runs as `npm start` runs it (gateway/src/main.ts in a process of its own, on the test database) and is
 * killed with SIGKILL at the worst moment: right after the events became durable and before the answer was sent
 * (`pause-at-durable-write.testing.ts` stops it there, deterministically). Then it is started again and the client
 * retries, as the frontend does when an answer is lost.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const mainScript = path.join(root, 'gateway/src/main.ts');
const pauseAtDurableWrite = path.join(root, 'gateway/src/support/pause-at-durable-write.testing.ts');

type App = { child: ChildProcess; url: string; output: () => string; exited: Promise<unknown> };

let db: TestDatabase;
const apps: App[] = [];

/** Starts the app on the test database; `pause` is PAWHAVEN_TEST_PAUSE_DURABLE (e.g. 'after:PostLiked'). */
async function startApp(pause?: string): Promise<App> {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'PORT', 'DATA_DIR', 'EMBEDDED_PG_PORT', 'PAWHAVEN_TEST_PAUSE_DURABLE'])
    delete base[key];
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', pauseAtDurableWrite, mainScript], {
    cwd: root,
    env: {
      ...base,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: db.connectionString,
      PORT: String(await freePort()),
      RATE_LIMIT_WRITES: '100000',
      RATE_LIMIT_REGISTER: '1000',
      RATE_LIMIT_OTP: '1000',
      RATE_LIMIT_SIGNIN: '1000',
      RATE_LIMIT_UPLOADS: '1000',
      RATE_LIMIT_NEW_ADS: '1000',
      ...(pause ? { PAWHAVEN_TEST_PAUSE_DURABLE: pause } : {}),
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const app = { child, url: '', output: () => output, exited };
  apps.push(app);
  app.url = await printed(app, /PawHaven is running at (\S+)/, 120_000);
  return app;
}

/** Waits until the app prints `pattern`; fails with its output if it exits or takes too long. */
async function printed(app: Omit<App, 'url'>, pattern: RegExp, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = pattern.exec(app.output());
    if (m) return m[1] ?? m[0];
    if (app.child.exitCode !== null || app.child.signalCode !== null)
      throw new Error(`the app exited before printing ${pattern}:\n${app.output()}`);
    if (Date.now() > deadline)
      throw new Error(`the app did not print ${pattern} within ${ms} ms:\n${app.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function crash(app: App): Promise<void> {
  process.kill(-app.child.pid!, 'SIGKILL');
  await app.exited;
}

/** Sends a request that will never be answered (the app stops before answering); resolves once it is paused. */
async function sendUntilPaused(app: App, send: () => Promise<unknown>, pause: string): Promise<void> {
  send().catch(() => {}); // the connection dies with the app
  await printed(app, new RegExp(`paused ${pause.replace(':', ' the durable write of ')}`));
}

const image = (colour: string) =>
  sharp({ create: { width: 32, height: 32, channels: 3, background: colour } })
    .png()
    .toBuffer();

const like = (url: string, user: RegisteredUser, postId: string, key: string) =>
  fetch(`${url}/api/posts/${postId}/like`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'idempotency-key': key },
  });

async function publishAd(url: string, user: RegisteredUser, key: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    name: 'Biscuit',
    age: '2',
    location: 'Lahore',
    petType: 'Dog',
    description: 'A friendly dog who loves long walks.',
  }))
    form.append(k, v);
  form.append('image', new Blob([new Uint8Array(await image('#c84'))], { type: 'image/png' }), 'b.png');
  return fetch(`${url}/api/adoptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'idempotency-key': key },
    body: form,
  });
}

async function publishPost(url: string, user: RegisteredUser): Promise<string> {
  const form = new FormData();
  form.append('caption', 'Our rescue kitten, one week later');
  form.append('image', new Blob([new Uint8Array(await image('#48c'))], { type: 'image/png' }), 'k.png');
  const res = await fetch(`${url}/api/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

const answer = async (res: Response) => ({
  status: res.status,
  replayed: res.headers.get('idempotent-replayed'),
  body: (await res.json()) as Json,
});

const events = async (type: string, field: string, value: string) =>
  (
    await db.pool.query<{ stream_id: string; position: string }>(
      `SELECT stream_id, position FROM events WHERE type = $1 AND data->>$2 = $3 ORDER BY position`,
      [type, field, value],
    )
  ).rows;

beforeAll(async () => {
  db = await createTestDatabase({ max: 4 });
});
afterAll(async () => {
  for (const app of apps)
    if (app.child.exitCode === null && app.child.signalCode === null) {
      try {
        process.kill(-app.child.pid!, 'SIGKILL');
      } catch {
        app.child.kill('SIGKILL');
      }
      await app.exited;
    }
  await db?.drop();
});

describe.skipIf(process.platform !== 'linux')('Idempotency-Key across a kill -9', () => {
  it('replays the first answer after a crash at the worst moment, and runs a retry at once when nothing was committed', async () => {
    let app = await startApp('after:PostLiked');
    let api = createApi(app.url);
    const [author, liker] = [await api.registerVerifiedUser(), await api.registerVerifiedUser()];
    const postId = await publishPost(app.url, author);

    // 1. A like toggle whose events committed just before the crash: the retry replays it, never toggles again.
    await sendUntilPaused(app, () => like(app.url, liker, postId, 'like-1'), 'after:PostLiked');
    await crash(app);
    expect(await events('PostLiked', 'postId', postId)).toHaveLength(1);
    app = await startApp('after:AdoptionAdPublished');
    const started = Date.now();
    const liked = await answer(await like(app.url, liker, postId, 'like-1'));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(liked).toMatchObject({ status: 200, replayed: 'true', body: { liked: true, likeCount: 1 } });
    // The first attempt's own answer: the position of the one like it recorded.
    const [recorded] = await events('PostLiked', 'postId', postId);
    expect(liked.body.position).toBe(recorded!.position);
    expect(await answer(await like(app.url, liker, postId, 'like-1'))).toEqual(liked);
    expect(await events('PostLiked', 'postId', postId)).toHaveLength(1);
    expect(await events('PostUnliked', 'postId', postId)).toHaveLength(0);

    // 2. A create (multipart, with its image) committed just before the crash: its 201 is replayed at once.
    const owner = await createApi(app.url).registerVerifiedUser();
    await sendUntilPaused(app, () => publishAd(app.url, owner, 'ad-1'), 'after:AdoptionAdPublished');
    await crash(app);
    app = await startApp('before:PostLiked');
    api = createApi(app.url);
    const created = await answer(await publishAd(app.url, owner, 'ad-1'));
    expect(created).toMatchObject({ status: 201, replayed: 'true', body: { name: 'Biscuit' } });
    const ads = await events('AdoptionAdPublished', 'ownerId', owner.user.id);
    expect(ads).toHaveLength(1);
    expect(ads[0]!.stream_id).toBe(`adoption-${String(created.body._id)}`);
    expect(created.body.position).toBe(ads[0]!.position);
    expect(await answer(await publishAd(app.url, owner, 'ad-1'))).toEqual(created);
    const picture = await fetch(`${app.url}${String(created.body.imageUrl)}`);
    expect(picture.status).toBe(200);

    // 3. A crash before anything was committed: concurrent retries run it once, at once (no lease to wait out).
    const otherPost = await publishPost(app.url, author);
    await sendUntilPaused(app, () => like(app.url, liker, otherPost, 'like-2'), 'before:PostLiked');
    await crash(app);
    expect(await events('PostLiked', 'postId', otherPost)).toHaveLength(0);
    app = await startApp();
    const retried = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () => answer(await like(app.url, liker, otherPost, 'like-2'))),
    );
    expect(Date.now() - retried).toBeLessThan(5_000);
    const ran = answers.filter((a) => a.status === 200 && a.replayed === null);
    expect(ran).toHaveLength(1);
    for (const a of answers)
      if (a !== ran[0])
        expect(a.status === 409 || (a.status === 200 && a.replayed === 'true' && a.body.liked === true)).toBe(
          true,
        );
    expect(ran[0]!.body).toMatchObject({ liked: true, likeCount: 1 });
    expect(await events('PostLiked', 'postId', otherPost)).toHaveLength(1);
    expect(await answer(await like(app.url, liker, otherPost, 'like-2'))).toMatchObject({
      status: 200,
      replayed: 'true',
      body: ran[0]!.body,
    });
  }, 600_000);
});
