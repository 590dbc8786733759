import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { POST_QUERIES } from '@pawhaven/query-api';
import { connectSocket, createApi, testImage, type TestSocket } from '@pawhaven/testing';
import { startService, type ServiceProcess } from './service-process';

/**
 * command-api, query-api and projection workers each as a process of its own on one database, as the distributed
 * deployment runs them: two query-api nodes (a socket on each) and two workers (one stands by, then takes over).
 */
type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;
const running: ServiceProcess[] = [];
const sockets: TestSocket[] = [];
let command: ServiceProcess;
let queries: ServiceProcess[];
let workers: ServiceProcess[];

const env = () => ({
  DATABASE_URL: db.connectionString,
  NODE_ENV: 'test',
  ADMIN_PASSWORD: 'Admin!Passw0rd',
  RATE_LIMIT_REGISTER: '1000',
  RATE_LIMIT_OTP: '1000',
  RATE_LIMIT_SIGNIN: '1000',
});
const start = async (...args: Parameters<typeof startService>) => {
  const p = await startService(...args);
  running.push(p);
  return p;
};
/** nginx's rule: reads to query-api (node `n`), everything else to command-api. */
const isQuery = (method: string, path: string) =>
  method === 'GET' || method === 'HEAD' || (method === 'POST' && POST_QUERIES.includes(path));
const through = (n: number) =>
  createApi((method, path) => (isQuery(method, path) ? queries[n]! : command).url);

beforeAll(async () => {
  db = await createTestDatabase({ max: 2 });
  // Started together: the start lock lets one prepare the database at a time.
  [command, ...queries] = await Promise.all([
    start('command-api', env()),
    start('query-api', env(), { name: 'query-api 1' }),
    start('query-api', env(), { name: 'query-api 2' }),
  ]);
  workers = [await start('projections', env(), { name: 'worker 1' })];
  workers.push(await start('projections', env(), { name: 'worker 2' }));
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.socket.close();
  await Promise.all(running.map((p) => p.kill()));
  await db?.drop();
});

describe('services run apart', () => {
  it('a user signed up through command-api and query-api 1 chats, live, with one on query-api 2', async () => {
    const [a, b] = [through(0), through(1)];
    const [alice, bob] = await Promise.all([a.registerVerifiedUser(), b.registerVerifiedUser()]);
    const started = await a.post(
      '/api/conversations',
      { senderId: alice.user._id, receiverId: bob.user._id },
      alice.token,
    );
    expect(started.status, started.text).toBe(200);
    const [onA, onB] = await Promise.all([
      connectSocket(queries[0]!.url, alice.token),
      connectSocket(queries[1]!.url, bob.token),
    ]);
    sockets.push(onA, onB);
    const clientMessageId = randomUUID();
    // Sent over query-api 1's socket: appended there by command-api's chat commands, heard on query-api 2.
    const ack = await onA.socket.timeout(5000).emitWithAck('sendMessage', {
      conversationId: started.body.data._id,
      senderId: alice.user._id,
      text: 'Is Moti still looking for a home?',
      clientMessageId,
      timestamp: Date.now(),
    });
    expect(ack).toMatchObject({ ok: true, message: { clientMessageId } });
    expect(
      await onB.waitFor('getMessage', (p) => p.clientMessageId === clientMessageId, 10_000),
    ).toMatchObject({
      senderId: alice.user._id,
      text: 'Is Moti still looking for a home?',
    });
    const inbox = await b.get(`/api/messages/${started.body.data._id}`, bob.token, {
      'X-Consistent-After': ack.position ?? started.body.position,
    });
    expect(inbox.status, inbox.text).toBe(200);
  });

  it('a user with a socket on query-api 2 shows online through query-api 1, and offline once it closes', async () => {
    const sana = await through(1).registerVerifiedUser();
    const status = async () =>
      ((await through(0).get(`/api/auth/profile/${sana.user._id}`)).body as { data: { status: string } }).data
        .status;
    expect(await status()).toBe('offline');
    const onB = await connectSocket(queries[1]!.url, sana.token);
    sockets.push(onB);
    await expect.poll(status, { timeout: 10_000 }).toBe('online');
    onB.socket.close();
    await expect.poll(status, { timeout: 10_000 }).toBe('offline');
  });

  it('an ad placed through command-api is listed through query-api 2; one worker stands by, then takes over', async () => {
    const owner = await through(0).registerVerifiedUser();
    const placeAd = async (name: string) => {
      const image = { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' };
      const ad = await through(0).upload('/api/adoptions', image, owner.token, {
        name,
        age: '2',
        location: 'Lahore',
        petType: 'Cat',
        description: 'Calm and litter-trained.',
      });
      expect(ad.status, ad.text).toBe(201);
      return ad.body as { _id: string; position: string };
    };
    const listed = async (ad: { _id: string; position: string }) => {
      const page = await through(1).get('/api/adoptions?limit=50', undefined, {
        'X-Consistent-After': ad.position,
      });
      expect(page.status, page.text).toBe(200);
      return JSON.stringify(page.body).includes(ad._id);
    };
    expect(await listed(await placeAd('Billo'))).toBe(true);

    const standingBy = workers.find((w) => w.output().includes('stands by'));
    const projecting = workers.find((w) => w !== standingBy)!;
    expect(standingBy, workers.map((w) => w.output()).join('\n')).toBeDefined();
    await projecting.kill();
    expect(await listed(await placeAd('Moti'))).toBe(true);
    expect(standingBy!.output()).toContain('takes over');
  });

  it('each stops on SIGTERM with exit code 0', async () => {
    for (const s of sockets) s.socket.close();
    const codes = await Promise.all(
      running.filter((p) => p.child.exitCode === null && !p.child.signalCode).map((p) => p.stop()),
    );
    expect(
      codes.every((c) => c === 0),
      running.map((p) => p.output()).join('\n---\n'),
    ).toBe(true);
    for (const p of running.filter((r) => r.child.exitCode === 0)) expect(p.output()).toContain('Stopped.');
  });
});
