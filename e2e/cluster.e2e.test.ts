import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterUnavailable, startCluster, type Cluster } from '@pawhaven/cluster';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { createVerifiedUser, signInInBrowser, type TestUser } from './support/adoption';
import { launchBrowser, type Browser } from './support/browser';
import { apiCall, apiToken } from './support/community';
import { makePng } from './support/png';

/**
 * `npm run cluster`'s deployment end to end (cluster.ts): nginx on one port in front of 2 × command-api, 2 ×
 * query-api, 2 projection workers, the relay and a Kafka broker. A browser signed in through nginx gets, live, chat
 * messages sent over sockets on each query-api node; an ad placed through one command-api node is listed by the other
 * query-api node; a command-api node killed mid-burst loses no write it acknowledged.
 */
const missing = clusterUnavailable();
if (missing) console.log(`Cluster tests skipped: ${missing}`);

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;
let dataDir: string;
let cluster: Cluster;
let browser: Browser & { pageErrors: string[] };
let a: TestUser;
let b: TestUser;
let aToken = '';
let bToken = '';
const sockets: Socket[] = [];

const GENEROUS = {
  NODE_ENV: 'test',
  ADMIN_PASSWORD: 'Admin!Passw0rd',
  RATE_LIMIT_REGISTER: '1000',
  RATE_LIMIT_OTP: '1000',
  RATE_LIMIT_SIGNIN: '1000',
  RATE_LIMIT_SIGNIN_ACCOUNT: '1000',
  RATE_LIMIT_WRITES: '100000',
  RATE_LIMIT_MESSAGES: '100000',
  RATE_LIMIT_UPLOADS: '1000',
  RATE_LIMIT_NEW_ADS: '1000',
  RATE_LIMIT_CONTACT: '100000',
};
const byName = (name: string) => cluster.services.find((s) => s.name === name);

describe.skipIf(missing)('the cluster behind nginx', () => {
  beforeAll(async () => {
    db = await createTestDatabase({ max: 2 });
    dataDir = mkdtempSync(path.join(tmpdir(), 'pawhaven-cluster-'));
    cluster = await startCluster({
      databaseUrl: db.connectionString,
      port: 0,
      dataDir,
      demoData: false,
      env: GENEROUS,
    });
    [a, b] = await Promise.all([
      createVerifiedUser(cluster.url, 'clustera'),
      createVerifiedUser(cluster.url, 'clusterb'),
    ]);
    [aToken, bToken] = await Promise.all([apiToken(cluster.url, a), apiToken(cluster.url, b)]);
  }, 300_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await browser?.close();
    await cluster?.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a browser through nginx gets, live, messages sent over a socket on each query-api node', async () => {
    expect(cluster.kafkaSkipped).toBeNull();
    const started = await apiCall(cluster.url, 'POST', '/api/conversations', aToken, {
      senderId: a.id,
      receiverId: b.id,
    });
    const conversationId = (started.body as { data: { _id: string } }).data._id;
    const socketOn = (name: string) => {
      const socket = io(byName(name)!.url, {
        path: '/socket.io',
        auth: { token: aToken },
        transports: ['websocket'],
      });
      sockets.push(socket);
      return socket;
    };
    const nodes = { 'query-api 1': socketOn('query-api 1'), 'query-api 2': socketOn('query-api 2') };
    const send = async (node: keyof typeof nodes, text: string) =>
      expect(
        await nodes[node].timeout(10_000).emitWithAck('sendMessage', {
          conversationId,
          senderId: a.id,
          text,
          clientMessageId: randomUUID(),
          timestamp: Date.now(),
        }),
      ).toMatchObject({ ok: true });
    const shown = (text: string) =>
      page
        .getByTestId('message')
        .filter({ has: page.getByTestId('message-text').getByText(text, { exact: true }) })
        .waitFor();

    await send('query-api 1', 'Is Moti still looking for a home?');
    browser = await launchBrowser();
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await signInInBrowser(page, cluster.url, b);
    await page.goto(`${cluster.url}/chat`);
    await page.locator(`[data-testid="conversation-item"][data-user-id="${a.id}"]`).click();
    await shown('Is Moti still looking for a home?');
    // Live, without a reload: whichever node the browser's socket is on, one of these crossed between the nodes.
    await send('query-api 2', 'Sent over query-api 2');
    await shown('Sent over query-api 2');
    await send('query-api 1', 'Sent over query-api 1');
    await shown('Sent over query-api 1');
    expect(browser.pageErrors).toEqual([]);
  });

  it('an ad placed through command-api 1 is listed by query-api 2', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      name: 'Moti',
      age: '2',
      location: 'Lahore',
      petType: 'Dog',
      description: 'Calm.',
    }))
      form.append(k, v);
    form.append('image', new Blob([new Uint8Array(makePng(160, 120))], { type: 'image/png' }), 'moti.png');
    const placed = await fetch(`${byName('command-api 1')!.url}/api/adoptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bToken}` },
      body: form,
    });
    const ad = (await placed.json()) as { _id: string; position: string };
    expect(placed.status).toBe(201);
    const listed = await fetch(`${byName('query-api 2')!.url}/api/adoptions?limit=50`, {
      headers: { 'X-Consistent-After': ad.position },
    });
    expect(await listed.text()).toContain(ad._id);
  });

  it('a command-api node killed mid-burst through nginx: every acknowledged write is in the log', async () => {
    const acknowledged: string[] = [];
    let failed = 0;
    let sent = 0;
    const victim = byName('command-api 1')!;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (sent < 300) {
          const n = ++sent;
          if (n === 60) void victim.kill();
          const res = await fetch(`${cluster.url}/api/contact`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Probe', email: 'probe@gmail.com', message: `Message ${n}` }),
          }).catch(() => null);
          if (res?.status === 201) acknowledged.push(((await res.json()) as { position: string }).position);
          else failed++;
        }
      }),
    );
    console.log(`burst through nginx: ${acknowledged.length} acknowledged, ${failed} failed`);
    expect(victim.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThan(200);
    const { rows } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE type = 'ContactMessageReceived' AND position = ANY($1::bigint[])`,
      [acknowledged],
    );
    expect(Number(rows[0]!.n)).toBe(acknowledged.length);
  });
});
