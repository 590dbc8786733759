import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Server } from 'socket.io';
import type { Socket } from 'socket.io-client';
import { notificationListQuery, type UserEvent } from '@pawhaven/contracts';
import { listNotifications, unreadCount } from '@pawhaven/query-api';
import { PostgresEventStore, type NewEvent } from '@pawhaven/platform';
import { measureInterleaved, round } from '../lib/measure';
import { percentile, steady } from '../lib/open-loop';
import { arrival, connect, connectAll } from '../lib/sockets';
import { httpGet } from '../lib/http-get';
import { latencyColumns, type BenchContext, type BenchRow, type BenchSection } from '../lib/types';
import { benchApp } from './adoption';
import { conversationStarted, userRegistered } from '../lib/chat-seed';

const CLIENTS = 1000;
const ACTIVE_CONVERSATIONS = 200;
const RATE = Number(process.env.CHAT_RATE ?? 100); // messages per second, across the active conversations

const userId = (i: number) => `bench-chatter-${i}`;

type Bench = Awaited<ReturnType<typeof benchApp>>;

/** 1,000 registered users and 200 conversations between the first 400 of them, appended straight to the log. */
async function seedChat(bench: Bench) {
  const store = new PostgresEventStore(bench.db.pool);
  try {
    let last = 0n;
    const at = new Date().toISOString();
    for (let i = 0; i < CLIENTS; i++) {
      const { streamId, event } = userRegistered(userId(i), `benchchatter${i}`, at);
      last = (await store.append(streamId, [event], 'no_stream')).position;
    }
    const conversations: { id: string; a: number; b: number }[] = [];
    for (let c = 0; c < ACTIVE_CONVERSATIONS; c++) {
      const [a, b] = [2 * c, 2 * c + 1];
      const { id, streamId, event } = conversationStarted(userId(a), userId(b), at);
      last = (await store.append(streamId, [event], 'no_stream')).position;
      conversations.push({ id, a, b });
    }
    await bench.waiter.waitFor(last, 120_000);
    return conversations;
  } finally {
    await store.close();
  }
}

/** Message delivery with 1,000 connected clients, beside a plain socket.io echo round trip on the same machine. */
export const chatDeliveryLatency: BenchSection = {
  name: 'chat-delivery',
  title: `Chat: sendMessage on one socket → getMessage on the other member's, ${CLIENTS.toLocaleString()} clients connected, ${ACTIVE_CONVERSATIONS} active conversations, ${RATE} messages/s (interleaved with a plain socket.io echo)`,
  columns: latencyColumns('lost'),
  async run(ctx: BenchContext) {
    const bench = await benchApp(ctx);
    // The baseline: a bare socket.io server answering every emit at once.
    const echoHttp = createServer();
    const echo = new Server(echoHttp, { path: '/socket.io', serveClient: false });
    echo.on('connection', (s) => s.on('echo', (payload: unknown, ack: (p: unknown) => void) => ack(payload)));
    await new Promise<void>((r) => echoHttp.listen(0, '127.0.0.1', r));
    const echoUrl = `http://127.0.0.1:${(echoHttp.address() as AddressInfo).port}`;
    const sockets: Socket[] = [];
    try {
      ctx.log(`  seeding ${CLIENTS} users and ${ACTIVE_CONVERSATIONS} conversations…`);
      const conversations = await seedChat(bench);
      const tokens = await connectAll(CLIENTS, 16, (i) => bench.tokenFor(userId(i)));
      const url = `http://127.0.0.1:${bench.app.port}`;
      const t0 = performance.now();
      const clients = await connectAll(CLIENTS, 32, (i) => connect(url, { token: tokens[i]! }));
      sockets.push(...clients);
      ctx.log(`  ${CLIENTS} sockets connected in ${round((performance.now() - t0) / 1000, 1)} s`);
      const echoClients = await connectAll(ACTIVE_CONVERSATIONS, 32, () => connect(echoUrl));
      sockets.push(...echoClients);

      // Arrivals by clientMessageId, on every client (the recipient is the one that counts).
      const arrivals = new Map<string, () => void>();
      const acks: number[] = [];
      const projected: number[] = [];
      for (const socket of clients)
        socket.on('getMessage', (m: { clientMessageId: string; senderId: string }) => {
          const done = arrivals.get(`${m.clientMessageId}:${socket.id}`);
          if (done) done();
        });
      const chatSend = (i: number) => {
        const c = conversations[i % conversations.length]!;
        const [from, to] = Math.floor(i / conversations.length) % 2 === 0 ? [c.a, c.b] : [c.b, c.a];
        const clientMessageId = randomUUID();
        const recipient = clients[to]!;
        const heard = arrival(arrivals, `${clientMessageId}:${recipient.id}`);
        const sent = performance.now();
        clients[from]!.emit(
          'sendMessage',
          { conversationId: c.id, text: `Message ${i}`, clientMessageId },
          (answer: { ok: boolean; position?: string }) => {
            acks.push(performance.now() - sent);
            if (answer.position)
              void bench.waiter
                .waitFor(BigInt(answer.position), 10_000)
                .then(() => projected.push(performance.now() - sent));
          },
        );
        return heard;
      };
      const echoSend = (i: number) =>
        echoClients[i % echoClients.length]!.timeout(10_000)
          .emitWithAck('echo', { text: `Message ${i}` })
          .then(() => {});

      const durationMs = Math.max(ctx.cellMs * 3, 3000);
      const slices = 3;
      const perSlice = Math.floor((RATE * durationMs) / 1000 / slices);
      // Unmeasured warm-up: prepared statements, JIT.
      await steady(RATE, 50, chatSend);
      await steady(RATE, 50, echoSend);
      acks.length = 0;
      projected.length = 0;
      const chat: number[] = [];
      const plain: number[] = [];
      let chatLost = 0;
      let echoLost = 0;
      for (let s = 0; s < slices; s++) {
        const c = await steady(RATE, perSlice, chatSend);
        chatLost += perSlice - c.length;
        chat.push(...c);
        const e = await steady(RATE, perSlice, echoSend);
        echoLost += perSlice - e.length;
        plain.push(...e);
      }
      const row = (measure: string, samples: number[], lost: number): BenchRow => {
        samples.sort((a, b) => a - b);
        return {
          measure,
          ratePerSecond: RATE,
          samples: samples.length,
          p50Ms: percentile(samples, 0.5),
          p99Ms: percentile(samples, 0.99),
          lost,
        };
      };
      return [
        row('baseline: plain socket.io echo round trip', plain, echoLost),
        row('sendMessage → its ack (recorded in the log)', acks, 0),
        row('sendMessage → in the read models', projected, 0),
        row('sendMessage → the other member’s getMessage', chat, chatLost),
      ];
    } finally {
      for (const s of sockets) s.close();
      await new Promise<void>((r) => void echo.close(() => r()));
      await bench.stop();
    }
  },
};

const AUTHORS = 100;
const LIKERS = 500;

/** The bell and the notifications page: 50,000 notifications (100 users × 500 likes of their post). */
export const notificationQueries: BenchSection = {
  name: 'notification-queries',
  title: `GET /api/notifications/unread-count and the first page, ${(AUTHORS * LIKERS).toLocaleString()} notifications (${LIKERS} for the user asking), vs the same queries directly (median of 3)`,
  columns: [
    { key: 'call', header: 'call' },
    { key: 'workers', header: 'workers' },
    { key: 'httpPerSecond', header: 'HTTP GET/s' },
    { key: 'queryPerSecond', header: 'bare query/s' },
    { key: 'ratio', header: 'ratio' },
    { key: 'httpP99Ms', header: 'HTTP p99 ms' },
  ],
  async run(ctx: BenchContext) {
    const bench = await benchApp(ctx);
    const store = new PostgresEventStore(bench.db.pool);
    try {
      ctx.log(
        `  seeding ${AUTHORS} authors, ${LIKERS} likers and ${(AUTHORS * LIKERS).toLocaleString()} likes…`,
      );
      const at = new Date().toISOString();
      const author = (i: number) => `bench-notified-${i}`;
      const liker = (i: number) => `bench-liker-${i}`;
      const register = (id: string, i: number): NewEvent => ({
        type: 'UserRegistered',
        data: {
          userId: id,
          username: `benchuser${id.replace(/\D/g, '')}x${i}`,
          email: `${id}@gmail.com`,
          passwordHash: null,
          isVeterinarian: false,
          isAdmin: false,
          via: 'google',
          registeredAt: at,
        } satisfies Extract<UserEvent, { type: 'UserRegistered' }>['data'],
        metadata: { actorId: id },
      });
      const ids = [
        ...Array.from({ length: AUTHORS }, (_, i) => author(i)),
        ...Array.from({ length: LIKERS }, (_, i) => liker(i)),
      ];
      await connectAll(ids.length, 8, (i) =>
        store.append(`user-${ids[i]}`, [register(ids[i]!, i)], 'no_stream'),
      );
      const posts = Array.from({ length: AUTHORS }, () => randomUUID());
      await connectAll(AUTHORS, 8, (i) =>
        store.append(
          `post-${posts[i]}`,
          [
            {
              type: 'PostPublished',
              data: {
                postId: posts[i],
                authorId: author(i),
                authorIsVeterinarian: false,
                caption: `Story ${i}`,
                imageUrl: '/api/images/000000000000000000000000',
                publishedAt: at,
              },
              metadata: { actorId: author(i) },
            },
          ],
          'no_stream',
        ),
      );
      const results = await connectAll(AUTHORS * LIKERS, 16, (n) => {
        const post = Math.floor(n / LIKERS);
        const who = liker(n % LIKERS);
        return store.append(
          `post-like-${posts[post]}-${who}`,
          [
            {
              type: 'PostLiked',
              data: { postId: posts[post], postAuthorId: author(post), userId: who, likedAt: at },
              metadata: { actorId: who },
            },
          ],
          'no_stream',
        );
      });
      const last = results.reduce((m, r) => (r.position > m ? r.position : m), 0n);
      await bench.waiter.waitFor(last, 600_000);
      await bench.db.pool.query('VACUUM (ANALYZE)');
      const me = author(0);
      const token = await bench.tokenFor(me);
      const headers = { authorization: `Bearer ${token}` };
      const base = `http://127.0.0.1:${bench.app.port}`;
      const workers = 4;
      const rows: BenchRow[] = [];
      const query = notificationListQuery.parse({});
      for (const { call, path, bare } of [
        {
          call: 'unread-count',
          path: '/api/notifications/unread-count',
          bare: () => unreadCount(bench.db.pool, me),
        },
        {
          call: 'first page (20)',
          path: '/api/notifications?page=1&limit=20',
          bare: () => listNotifications(bench.db.pool, me, query),
        },
      ]) {
        const runs: Awaited<ReturnType<typeof measureInterleaved>>[] = [];
        for (let r = 0; r < 3; r++)
          runs.push(
            await measureInterleaved(
              [
                {
                  name: 'http',
                  workers,
                  op: async () => {
                    const status = await httpGet(base + path, headers);
                    if (status !== 200) throw new Error(`${path} answered ${status}`);
                  },
                },
                { name: 'bare', workers, op: async () => void (await bare()) },
              ],
              { durationMs: ctx.cellMs, maxOps: ctx.maxOpsPerCell },
            ),
          );
        const med = (
          cell: number,
          pick: (m: Awaited<ReturnType<typeof measureInterleaved>>[number]) => number,
        ) => runs.map((m) => pick(m[cell]!)).sort((a, b) => a - b)[1]!;
        const http = med(0, (m) => m.perSecond);
        const plain = med(1, (m) => m.perSecond);
        rows.push({
          call,
          workers,
          httpPerSecond: http,
          queryPerSecond: plain,
          ratio: round(http / Math.max(plain, 1), 3),
          httpP99Ms: med(0, (m) => m.latencyMs.p99),
        });
      }
      return rows;
    } finally {
      await store.close();
      await bench.stop();
    }
  },
};
