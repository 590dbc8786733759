import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { PET_TYPES, type NotificationPage } from '@pawhaven/contracts';
import {
  ConsistencyWaiter,
  connectDatabase,
  PostgresEventStore,
  resolveJwtSecret,
  TokenService,
} from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { BENCH_USER_LIMITS, startAppProcess, type AppProcess } from '../lib/app-process';
import { callRow, callStats } from '../lib/call-stats';
import { conversationStarted, userRegistered } from '../lib/chat-seed';
import { rssMb } from '../lib/cluster';
import { benchPostgresPids, cpuUse } from '../lib/cpu';
import { httpRequest, type HttpAnswer } from '../lib/http-request';
import { round } from '../lib/measure';
import { steady } from '../lib/open-loop';
import { freshDatabase } from '../lib/postgres';
import { growth, watchMemory, type MemoryFigures } from '../lib/process-memory';
import { startBenchSession } from '../lib/session';
import { arrival, connect, connectAll } from '../lib/sockets';
import type { BenchRow, BenchSection } from '../lib/types';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 40); // operations per second, all kinds together
/**
 * The warm-up is the first this-many seconds of the load; the end, the last as many. A minute at the default length:
 * V8 grows the young generation to --max-semi-space-size (64 MB, as `npm start` runs) over the first 30 to 60 s.
 */
const WINDOW_S = Math.min(60, SECONDS / 3);
const SAMPLE_MS = 2000;
/**
 * The rule: memory has not grown beyond warm-up when the median of the end's samples is at most 10 % above the median
 * of the warm-up's (RSS from /proc, and V8's heap after each full collection). Medians, not one sample each: RSS
 * breathes with each collection, and no collection is forced (that would take code of the bench inside the app).
 */
const GROWTH_ALLOWED = 1.1;
const USERS = 20;
const ADS = 40;
const POSTS = 30;
const CITIES = ['Lahore', 'Karachi', 'Islamabad'];
// A 1×1 PNG: ads and posts need a picture; resizing pictures is not what the soak looks at.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Each kind's share of the operations, out of 100. */
const MIX = {
  adsAll: 12,
  adsFiltered: 8,
  postsList: 10,
  postPage: 10,
  request: 8,
  decide: 6,
  like: 15,
  comment: 8,
  message: 13,
  notifications: 10,
} as const;
type Kind = keyof typeof MIX;

const userId = (i: number) => `soak-user-${i}`;
type Ad = { id: string; owner: number; pending: { requestId: string; requester: number }[]; busy: boolean };

/** A mixed load on the whole app in a process of its own, for minutes: per call speed, the app's memory over time. */
export const soak: BenchSection = {
  name: 'soak',
  title: `Soak: the whole app in its own process, ${RATE} operations/s of a mixed load (browse, request and decide, like, comment, chat, notifications) for ${SECONDS} s; memory of the app's process at start, warm-up (first ${WINDOW_S} s) and end (last ${WINDOW_S} s)`,
  columns: [
    { key: 'call', header: 'call' },
    { key: 'count', header: 'count' },
    { key: 'perSecond', header: 'calls/s' },
    { key: 'p50Ms', header: 'p50 ms' },
    { key: 'p99Ms', header: 'p99 ms' },
    { key: 'errors', header: 'errors' },
    { key: 'rssMb', header: 'RSS MB' },
    { key: 'heapMb', header: 'V8 heap MB' },
    { key: 'liveMb', header: 'live heap MB' },
  ],
  async run(ctx) {
    const databaseUrl = await freshDatabase(ctx.connectionString, 'pawhaven_soak');
    const dataDir = path.resolve('.data', 'bench-soak', String(process.pid));
    const app: AppProcess = await startAppProcess({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // 20 users make thousands of writes.
      ...BENCH_USER_LIMITS,
    });
    ctx.log(`  app started as process ${app.pid} on port ${app.port}`);
    const db = connectDatabase(databaseUrl, { max: 4 });
    const store = new PostgresEventStore(db.pool);
    const waiter = new ConsistencyWaiter(
      db.knex,
      databaseUrl,
      allProjections.map((p) => p.name),
    );
    const sockets: Socket[] = [];
    let stopSampling = () => {};
    let progress: NodeJS.Timeout | undefined;
    try {
      await waiter.start();
      const tokens = new TokenService(await resolveJwtSecret(db.knex, process.env.JWT_SECRET), 3600);
      const any = (n: number) => Math.floor(Math.random() * n);

      // Seeding: users, their sessions and a ring of conversations in the log; ads and posts through the API.
      const at = new Date().toISOString();
      let seeded = 0n;
      for (let i = 0; i < USERS; i++) {
        const { streamId, event } = userRegistered(userId(i), `soakuser${i}`, at);
        seeded = (await store.append(streamId, [event], 'no_stream')).position;
      }
      const bearer = await connectAll(USERS, 4, (i) => startBenchSession(store, tokens, userId(i)));
      const conversations: { id: string; a: number; b: number }[] = [];
      for (let i = 0; i < USERS; i++) {
        const b = (i + 1) % USERS;
        const { id, streamId, event } = conversationStarted(userId(i), userId(b), at);
        seeded = (await store.append(streamId, [event], 'no_stream')).position;
        conversations.push({ id, a: i, b });
      }
      await waiter.waitFor(seeded, 60_000);

      const headers = (user: number | null): Record<string, string> =>
        user === null ? {} : { authorization: `Bearer ${bearer[user]}` };
      const upload = async (url: string, user: number, fields: Record<string, string>) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        form.append('image', new Blob([PNG], { type: 'image/png' }), 'pet.png');
        // fetch for the multipart body (rare calls); httpRequest for everything else.
        const res = await fetch(app.url + url, { method: 'POST', headers: headers(user), body: form });
        return { status: res.status, body: await res.text() };
      };
      let adNumber = 0;
      const publishAd = async (owner: number) => {
        const n = adNumber++;
        const r = await upload('/api/adoptions', owner, {
          name: `Pet ${n}`,
          age: String(1 + (n % 12)),
          location: CITIES[n % CITIES.length]!,
          petType: PET_TYPES[n % PET_TYPES.length]!,
          description: `A friendly companion looking for a home. Number ${n}.`,
        });
        if (r.status !== 201)
          throw new Error(`POST /api/adoptions answered ${r.status}: ${r.body.slice(0, 200)}`);
        const { id, position } = JSON.parse(r.body) as { id: string; position: string };
        return { ad: { id, owner, pending: [], busy: false } as Ad, position: BigInt(position) };
      };
      const ads: Ad[] = [];
      for (let i = 0; i < ADS; i++) {
        const { ad, position } = await publishAd(i % USERS);
        ads.push(ad);
        if (position > seeded) seeded = position;
      }
      const posts: string[] = [];
      for (let i = 0; i < POSTS; i++) {
        const r = await upload('/api/posts', i % USERS, { caption: `Story ${i}: a walk in the park.` });
        if (r.status !== 201)
          throw new Error(`POST /api/posts answered ${r.status}: ${r.body.slice(0, 200)}`);
        const { _id, position } = JSON.parse(r.body) as { _id: string; position: string };
        posts.push(_id);
        if (BigInt(position) > seeded) seeded = BigInt(position);
      }
      await waiter.waitFor(seeded, 60_000);

      // Every user online: one socket each, hearing the messages sent to it.
      const arrivals = new Map<string, () => void>();
      sockets.push(...(await connectAll(USERS, 4, (i) => connect(app.url, { token: bearer[i]! }))));
      sockets.forEach((socket, i) =>
        socket.on('getMessage', (m: { clientMessageId?: string }) =>
          arrivals.get(`${m.clientMessageId}:${i}`)?.(),
        ),
      );
      ctx.log(`  seeded ${USERS} users, ${conversations.length} conversations, ${ADS} ads, ${POSTS} posts`);

      const stats = callStats();
      const timed = stats.timed;
      /** One HTTP call (`what`: method and path), an error unless it answers `status`; its answer when it did. */
      const api = async (name: string, what: string, user: number | null, body?: unknown, status = 200) => {
        const [method, url] = what.split(' ') as [string, string];
        let answer: HttpAnswer | undefined;
        await timed(name, async () => {
          answer = await httpRequest(method, app.url + url, {
            headers: headers(user),
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          const ok = answer.status === status;
          return ok ? null : `${what} answered ${answer.status}: ${answer.body.slice(0, 200)}`;
        });
        return answer?.status === status ? answer : undefined;
      };
      const someoneOrNobody = () => (Math.random() < 0.5 ? null : any(USERS));
      const aPost = () => posts[any(POSTS)]!;

      const request = async () => {
        // An ad nobody else is acting on, and a user with no pending request on it: otherwise a refusal is expected.
        const free = ads.filter((a) => !a.busy);
        const ad = free[any(free.length)];
        const asking = [...Array(USERS).keys()].filter(
          (u) => ad && u !== ad.owner && !ad.pending.some((p) => p.requester === u),
        );
        if (!ad || asking.length === 0) return;
        const requester = asking[any(asking.length)]!;
        ad.busy = true;
        const r = await api(
          'adoption: request (POST)',
          `POST /api/adoptions/${ad.id}/request`,
          requester,
          {
            name: `Soak User ${requester}`,
            email: `soakuser${requester}@gmail.com`,
            phone: '+92 300 1234567',
            message: 'I would love to adopt.',
          },
          201,
        );
        ad.busy = false;
        if (r)
          ad.pending.push({
            requestId: (JSON.parse(r.body) as { request: { id: string } }).request.id,
            requester,
          });
      };
      let decisions = 0;
      const decide = async () => {
        const waiting = ads.filter((a) => !a.busy && a.pending.length > 0);
        const ad = waiting[any(waiting.length)];
        if (!ad) return request();
        const { requestId } = ad.pending.shift()!;
        // One in four accepted: the pet is adopted and its ad leaves the listing; a new one takes its place.
        const status = decisions++ % 4 === 0 ? 'accepted' : 'rejected';
        ad.busy = true;
        const name = `adoption: ${status === 'accepted' ? 'accept' : 'reject'} (PUT)`;
        const r = await api(name, `PUT /api/adoptions/requests/${requestId}`, ad.owner, { status });
        ad.busy = false;
        if (!r || status === 'rejected') return;
        ads.splice(ads.indexOf(ad), 1);
        const owner = any(USERS);
        await timed('adoption: new ad (POST, multipart)', async () => {
          ads.push((await publishAd(owner)).ad);
          return null;
        });
      };
      const message = async () => {
        const c = conversations[any(conversations.length)]!;
        const [from, to] = Math.random() < 0.5 ? [c.a, c.b] : [c.b, c.a];
        const clientMessageId = randomUUID();
        const heard = arrival(arrivals, `${clientMessageId}:${to}`);
        const t0 = performance.now();
        const acked = await timed('chat: sendMessage (socket) → ack', async () => {
          const ack = (await sockets[from]!.timeout(10_000).emitWithAck('sendMessage', {
            conversationId: c.id,
            text: `Soak message ${clientMessageId.slice(0, 8)}`,
            clientMessageId,
          })) as { ok: boolean; message?: string };
          return ack.ok ? null : `sendMessage refused: ${ack.message}`;
        });
        if (acked) await timed('chat: → the other member’s getMessage', () => heard.then(() => null), t0);
        else heard.catch(() => {});
      };
      const visits = new Array<number>(USERS).fill(0);
      const notifications = async () => {
        const u = any(USERS);
        const page = await api('notifications: list (GET)', 'GET /api/notifications?page=1&limit=20', u);
        if (!page) return;
        // Mostly one at a time, as a click on one does; every fifth visit reads them all.
        if (++visits[u]! % 5 === 0)
          return void (await api(
            'notifications: mark all read (PUT)',
            'PUT /api/notifications/mark-all-read',
            u,
          ));
        // Not a like's: an unlike takes its notification away, and a click on it just then is rightly answered 404.
        const unread = (JSON.parse(page.body) as NotificationPage).notifications.find(
          (n) => !n.read && n.type !== 'post_like',
        );
        if (unread)
          await api('notifications: mark read (PUT)', `PUT /api/notifications/${unread.id}/read`, u);
      };
      const run: Record<Kind, () => Promise<unknown>> = {
        adsAll: () => api('browse: ads (GET)', `GET /api/adoptions?page=${1 + any(2)}`, someoneOrNobody()),
        adsFiltered: () =>
          api(
            'browse: ads filtered (GET)',
            Math.random() < 0.5
              ? 'GET /api/adoptions?filter=cat&city=lahore'
              : 'GET /api/adoptions?q=friendly',
            someoneOrNobody(),
          ),
        postsList: () => api('browse: posts (GET)', `GET /api/posts?page=${1 + any(3)}`, someoneOrNobody()),
        postPage: () => api('browse: a post (GET)', `GET /api/posts/${aPost()}`, someoneOrNobody()),
        request,
        decide,
        like: () => api('community: like/unlike (POST)', `POST /api/posts/${aPost()}/like`, any(USERS)),
        comment: () =>
          api(
            'community: comment (POST)',
            `POST /api/comments/${aPost()}`,
            any(USERS),
            { content: 'Lovely!' },
            201,
          ),
        message,
        notifications,
      };
      // The kinds in one shuffled order of 100, repeated: the mix is the same over any stretch of the run.
      const schedule = (Object.entries(MIX) as [Kind, number][]).flatMap(([k, n]) => Array<Kind>(n).fill(k));
      for (let i = schedule.length - 1; i > 0; i--) {
        const j = any(i + 1);
        [schedule[i], schedule[j]] = [schedule[j]!, schedule[i]!];
      }

      const memory = watchMemory(app, SAMPLE_MS);
      stopSampling = memory.stop;
      stats.startClock();
      const t0 = performance.now();
      // Every 30 s: the last 30 s's latencies and the app's RSS, so a trend shows while it runs.
      const cpu = cpuUse(() => ({ app: [app.pid], postgres: benchPostgresPids() }));
      progress = setInterval(() => {
        const s = (performance.now() - t0) / 1000;
        const recent = stats.all().filter((c) => c.at >= s - 30);
        const { p50Ms, p99Ms } = callRow('', recent, 0, 30);
        ctx.log(
          `  ${Math.round(s)} s: last 30 s p50 ${p50Ms} ms, p99 ${p99Ms} ms; app RSS ${rssMb(app.pid)} MB`,
        );
      }, 30_000);
      await steady(RATE, Math.round(RATE * SECONDS), (i) =>
        run[schedule[i % schedule.length]!]().then(() => {}),
      );
      const loadSeconds = (performance.now() - t0) / 1000;
      memory.stop();
      ctx.log(`  ${cpu.stop()}`);

      const all = stats.all();
      const errors = stats.errors();
      const window = (label: string, from: number, to: number): BenchRow => ({
        ...callRow(
          label,
          all.filter((s) => s.at >= from && s.at < to),
          0,
          WINDOW_S,
        ),
        errors: null,
      });
      const [first, last] = [memory.between(0, WINDOW_S), memory.between(SECONDS - WINDOW_S, Infinity)];
      const memoryRow = (call: string, m: MemoryFigures): BenchRow => ({
        call,
        rssMb: m.rss,
        heapMb: m.heap,
        liveMb: m.live,
      });
      const grew = (k: keyof MemoryFigures) => {
        const [from, to] = [first[k], last[k]];
        return from !== null && to !== null && to > from * GROWTH_ALLOWED;
      };
      // The rule holds for RSS (what the machine sees) and the live heap (what a leak of objects would show).
      const grown = [grew('rss') ? 'RSS' : '', grew('live') ? 'live heap' : ''].filter(Boolean);
      const logged = app.problems();
      const verdict = [
        grown.length > 0
          ? `GREW beyond warm-up (${grown.join(' and ')}: end > warm-up × ${GROWTH_ALLOWED}` +
            (grown.includes('live heap')
              ? ')'
              : '; the live heap did not: V8 heap and allocator reserve, not objects)')
          : `no growth beyond warm-up (RSS and live heap: end ≤ warm-up × ${GROWTH_ALLOWED})`,
        errors === 0 ? 'no error' : `${errors} failed calls`,
        logged.length === 0
          ? 'nothing logged at warn or above'
          : `${logged.length} lines logged at warn or above`,
      ];
      const full = memory.fullGcs();
      ctx.log(
        `  load: ${round(loadSeconds, 1)} s; ${memory.samples()} RSS samples; full collections of the app ` +
          `(s into the load: live MB): ${full.map((g) => `${Math.round(g.at)}: ${g.usedMb}`).join(', ')}`,
      );
      for (const e of stats.firstErrors) ctx.log(`  error: ${e}`);
      for (const line of logged.slice(0, 5)) ctx.log(`  app logged: ${line.slice(0, 400)}`);
      return [
        ...stats.rows(loadSeconds),
        callRow(`all calls (${RATE} operations/s asked; some make 2 calls)`, all, errors, loadSeconds),
        window(`all calls, first ${WINDOW_S} s`, 0, WINDOW_S),
        window(`all calls, last ${WINDOW_S} s`, SECONDS - WINDOW_S, Infinity),
        memoryRow('memory: start (after seeding, before the load)', memory.start),
        memoryRow(
          `memory: warm-up (median of the first ${WINDOW_S} s; live: its full collections, or the next)`,
          first,
        ),
        memoryRow(`memory: end (median of the last ${WINDOW_S} s)`, last),
        {
          call: 'memory: growth, warm-up → end',
          rssMb: growth(first.rss, last.rss),
          heapMb: growth(first.heap, last.heap),
          liveMb: growth(first.live, last.live),
        },
        { call: `verdict: ${verdict.join('; ')}` },
      ];
    } finally {
      stopSampling();
      clearInterval(progress);
      for (const s of sockets) s.close();
      await waiter.stop().catch(() => {});
      await store.close().catch(() => {});
      await db.close().catch(() => {});
      await app.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
