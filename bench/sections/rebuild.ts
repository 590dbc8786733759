/**
 * The rebuild bench (`npm run bench -- rebuild`) and the admin lists over the same generated log (`admin-lists`).
 * `BENCH_REBUILD_EVENTS` sets the log's size (default 1,000,000; 200,000 for a quick look). Generating it takes
 * minutes: with `BENCH_REBUILD_KEEP=1` the bench's PostgreSQL lives in `.data/bench-pg/kept` and outlives the run,
 * the log is generated once per size and each run copies it (read models empty) — delete that folder to start over.
 */
import { randomUUID } from 'node:crypto';
import { startApp } from '@pawhaven/gateway';
import {
  connectDatabase,
  encryptLegacyPersonalData,
  migrate,
  PostgresEventStore,
  rebuildProjections,
  resolveJwtSecret,
  START,
  TokenService,
  withPersonalDataEncryption,
  type EventStore,
  type NewEvent,
  type RebuildResult,
} from '@pawhaven/platform';
import { allMigrations, allProjections } from '@pawhaven/projections';
import { appendRealisticLog } from '@pawhaven/simulator';
import { httpGet } from '../lib/http-get';
import { measureInterleaved, round } from '../lib/measure';
import { startBenchSession } from '../lib/session';
import { freshDatabase } from '../lib/postgres';
import type { BenchContext, BenchRow, BenchSection } from '../lib/types';

/** Events in the log the rebuild replays (`BENCH_REBUILD_EVENTS` for a quicker look). */
const EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
/** Rows each admin list holds at least while its pages are timed. */
const LIST_ROWS = Number(process.env.BENCH_ADMIN_LIST_ROWS ?? 100_000);
const RUNS = 3;
/** Keep the generated log between runs (on a server left in `.data/bench-pg/kept`): see `keptLog`. */
const KEEP = Boolean(process.env.BENCH_REBUILD_KEEP);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Million = { url: string; events: number; counts: Record<string, number> };
let million: Promise<Million> | null = null;

/**
 * A database of its own holding a realistic log of EVENTS events (users signing up, ads and requests, posts, likes,
 * comments, chats, deletions…), appended through the store the app uses (personal fields sealed per user). Shared by
 * both sections of this file; the read models are left empty.
 */
function millionEvents(ctx: BenchContext): Promise<Million> {
  million ??= KEEP ? keptLog(ctx) : generate(ctx, 'pawhaven_rebuild');
  return million;
}

/**
 * With BENCH_REBUILD_KEEP: the log generated once into a database of its own (`pawhaven_rebuild_log_<EVENTS>`, on
 * the kept server), marked as complete, and copied for each run (CREATE DATABASE … TEMPLATE: seconds, against
 * minutes to generate), so the read models start empty every run.
 */
async function keptLog(ctx: BenchContext): Promise<Million> {
  const name = `pawhaven_rebuild_log_${EVENTS}`;
  const url = new URL(ctx.connectionString);
  url.pathname = `/${name}`;
  let kept: Omit<Million, 'url'> | null = null;
  const db = connectDatabase(url.toString(), { max: 1 });
  try {
    const { rows } = await db.knex.raw<{ rows: { events: number; counts: Record<string, number> }[] }>(
      `SELECT events, counts FROM bench_generated`,
    );
    kept = rows[0] ?? null;
  } catch {
    kept = null; // no such database yet, or its generation did not finish
  } finally {
    await db.close();
  }
  if (kept) ctx.log(`reusing the kept log of ${kept.events.toLocaleString()} events (${name})`);
  else {
    const generated = await generate(ctx, name);
    const done = connectDatabase(generated.url, { max: 1 });
    try {
      await done.knex.raw(`CREATE TABLE bench_generated (events integer NOT NULL, counts jsonb NOT NULL)`);
      await done.knex.raw(`INSERT INTO bench_generated VALUES (?, ?::jsonb)`, [
        generated.events,
        JSON.stringify(generated.counts),
      ]);
    } finally {
      await done.close();
    }
    kept = generated;
  }
  return {
    url: await freshDatabase(ctx.connectionString, 'pawhaven_rebuild', name),
    events: kept.events,
    counts: kept.counts,
  };
}

function generate(ctx: BenchContext, name: string): Promise<Million> {
  return (async () => {
    const url = await freshDatabase(ctx.connectionString, name);
    const db = connectDatabase(url, { max: 12 });
    try {
      await migrate(db.knex, allMigrations);
      const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
      // A new log has nothing to seal: this records it, so the app started later does not scan a million events.
      await encryptLegacyPersonalData(db.pool, store.keys);
      ctx.log(`generating ${EVENTS.toLocaleString()} events through the event store…`);
      const t0 = performance.now();
      let shown = 0;
      const result = await appendRealisticLog(store, {
        events: EVENTS,
        concurrency: 8,
        onProgress: (n) => {
          if (n - shown >= 100_000) {
            shown = n;
            ctx.log(`  ${n.toLocaleString()} appended (${round((performance.now() - t0) / 1000, 0)} s)`);
          }
        },
      });
      ctx.log(
        `  ${result.events.toLocaleString()} events in ${result.appends.toLocaleString()} appends, ` +
          `${round((performance.now() - t0) / 1000, 1)} s`,
      );
      ctx.log(`  by type: ${JSON.stringify(result.counts)}`);
      await db.knex.raw('VACUUM ANALYZE events');
      await db.knex.raw('CHECKPOINT');
      return { url, events: result.events, counts: result.counts };
    } finally {
      await db.close();
    }
  })();
}

async function readEverything(store: EventStore): Promise<{ events: number; seconds: number }> {
  const head = await store.headPosition();
  const t0 = performance.now();
  let events = 0;
  for await (const _ of store.readAll(START, { batchSize: 5000, upTo: head })) events++;
  return { events, seconds: (performance.now() - t0) / 1000 };
}

/** The longest a rebuild held one projection's checkpoint row (the live projector's group waiting), in ms. */
const longestLock = (results: RebuildResult[]) => Math.round(Math.max(...results.map((r) => r.swapMs)));

async function rebuildEverything(
  ctx: BenchContext,
  knex: Parameters<typeof rebuildProjections>[0],
  store: EventStore,
): Promise<{ events: number; seconds: number; results: RebuildResult[] }> {
  const t0 = performance.now();
  const results = await rebuildProjections(knex, store, allProjections);
  const seconds = (performance.now() - t0) / 1000;
  ctx.log(
    `    ${results
      .map(
        (r) =>
          `${r.name}${r.foldThread ? ' (fold thread)' : ''} ${round(r.seconds, 1)} s ` +
          `(${r.changedRows.toLocaleString()} rows written, ` +
          `checkpoint locked ${Math.round(r.swapMs).toLocaleString()} ms)`,
      )
      .join(', ')}`,
  );
  return { events: Math.max(...results.map((r) => r.processed)), seconds, results };
}

export const rebuildThroughput: BenchSection = {
  name: 'rebuild',
  title:
    `Rebuild of every read model (${allProjections.length}) from ${EVENTS.toLocaleString()} events generated through ` +
    `the event store, beside reading the same events with the store's readAll (median of ${RUNS}, interleaved)`,
  columns: [
    { key: 'what', header: 'what' },
    { key: 'events', header: 'events', format: (v) => Number(v).toLocaleString() },
    { key: 'seconds', header: 'seconds' },
    { key: 'eventsPerSecond', header: 'events/s', format: (v) => Number(v).toLocaleString() },
    { key: 'vsReadAll', header: 'vs readAll (opened)' },
    {
      key: 'lockMs',
      header: 'longest checkpoint lock (ms)',
      format: (v) => (v === null ? '' : Number(v).toLocaleString()),
    },
  ],
  async run(ctx) {
    const data = await millionEvents(ctx);
    const db = connectDatabase(data.url, { max: 12 });
    const raw = new PostgresEventStore(db.pool);
    const store = withPersonalDataEncryption(raw, db.pool);
    try {
      ctx.log('first build (every read model empty)…');
      const first = await rebuildEverything(ctx, db.knex, store);
      // Autovacuum would now visit every table the first build filled, in the middle of the timed runs: done here.
      await db.knex.raw('VACUUM');
      const stored: number[] = [];
      const opened: number[] = [];
      const rebuilt: number[] = [];
      const locks: number[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const a = await readEverything(raw);
        const b = await readEverything(store);
        ctx.log(
          `run ${run}: readAll ${round(a.seconds, 1)} s stored, ${round(b.seconds, 1)} s opened; rebuild…`,
        );
        const c = await rebuildEverything(ctx, db.knex, store);
        stored.push(a.seconds);
        opened.push(b.seconds);
        rebuilt.push(c.seconds);
        locks.push(longestLock(c.results));
      }
      const row = (what: string, seconds: number, lockMs: number | null = null): BenchRow => ({
        what,
        events: data.events,
        seconds: round(seconds, 1),
        eventsPerSecond: Math.round(data.events / seconds),
        vsReadAll: round(median(opened) / seconds, 2),
        // How long the live projector's group waited on the rebuild at most (one projection's swap).
        lockMs,
      });
      return [
        row('readAll, events as stored (PostgresEventStore)', median(stored)),
        row('readAll, personal fields opened (what a rebuild reads)', median(opened)),
        row('rebuild all, first build (live tables empty)', first.seconds, longestLock(first.results)),
        row(
          "rebuild all over intact read models (the dashboard's 'Rebuild all')",
          median(rebuilt),
          median(locks),
        ),
      ];
    } finally {
      await store.close();
      await db.close();
    }
  },
};

/** Appends `count` single-event streams, `concurrency` at a time. */
async function appendMany(store: EventStore, count: number, make: (i: number) => [string, NewEvent]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const [stream, event] = make(next++);
        await store.append(stream, [event], 'no_stream');
      }
    }),
  );
}

/**
 * Brings users, ads and posts up to LIST_ROWS rows each (the realistic log has fewer of them than of requests,
 * comments or likes), appended through the store and projected by a rebuild.
 */
async function topUp(ctx: BenchContext, url: string) {
  const db = connectDatabase(url, { max: 20 });
  const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
  try {
    const count = async (table: string) =>
      Number((await db.knex.raw<{ rows: { n: string }[] }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    const at = new Date(Date.now() - 86_400_000).toISOString();
    const users = Math.max(0, LIST_ROWS - (await count('users')));
    const ads = Math.max(0, LIST_ROWS - (await count('adoption_ads')));
    const posts = Math.max(0, LIST_ROWS - (await count('posts')));
    ctx.log(`topping up: ${users} users, ${ads} ads, ${posts} posts…`);
    const owner = (i: number) => `00000000-0000-4000-8000-${String(i % 1000).padStart(12, '0')}`;
    const ownerCount = Math.min(users, 1000);
    await appendMany(store, users, (i) => {
      const userId = i < ownerCount ? owner(i) : randomUUID();
      return [
        `user-${userId}`,
        {
          type: 'UserRegistered',
          data: {
            userId,
            username: `topup${i}`,
            email: `topup${i}@example.pk`,
            passwordHash: null,
            isVeterinarian: i % 9 === 0,
            isAdmin: false,
            via: 'google',
            registeredAt: at,
          },
          metadata: { actorId: userId },
        },
      ];
    });
    const pets = ['Dog', 'Cat', 'Bird', 'Rabbit'];
    await appendMany(store, ads, (i) => {
      const adId = randomUUID();
      return [
        `adoption-${adId}`,
        {
          type: 'AdoptionAdPublished',
          data: {
            adId,
            ownerId: owner(i),
            details: {
              name: `Topup ${i}`,
              age: String(1 + (i % 12)),
              ageUnit: 'Years',
              petType: pets[i % pets.length],
              breed: 'Mixed',
              gender: null,
              size: null,
              vaccinated: null,
              spayedNeutered: null,
              goodWithChildren: null,
              goodWithDogs: null,
              goodWithCats: null,
              description: 'A calm companion looking for a home.',
              location: 'Lahore',
              imageUrl: '/api/images/000000000000000000000000',
            },
            publishedAt: at,
          },
          metadata: { actorId: owner(i) },
        },
      ];
    });
    await appendMany(store, posts, (i) => {
      const postId = randomUUID();
      return [
        `post-${postId}`,
        {
          type: 'PostPublished',
          data: {
            postId,
            authorId: owner(i),
            authorIsVeterinarian: false,
            caption: `Top-up story ${i}`,
            imageUrl: '/api/images/000000000000000000000000',
            publishedAt: at,
          },
          metadata: { actorId: owner(i) },
        },
      ];
    });
    await rebuildProjections(db.knex, store, allProjections);
    await db.knex.raw('VACUUM ANALYZE');
  } finally {
    await store.close();
    await db.close();
  }
}

/** A bearer token for the log's first administrator, on a session recorded in their stream. */
async function adminToken(url: string): Promise<string> {
  const db = connectDatabase(url, { max: 2 });
  const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
  try {
    const { rows } = await db.knex.raw<{ rows: { id: string }[] }>(
      `SELECT id FROM users WHERE is_admin ORDER BY joined_date LIMIT 1`,
    );
    const userId = rows[0]?.id;
    if (!userId) throw new Error('the generated log has no administrator');
    return await startBenchSession(
      store,
      new TokenService(await resolveJwtSecret(db.knex), 3600),
      userId,
      true,
    );
  } finally {
    await store.close();
    await db.close();
  }
}

/** One admin list page request per op: a sorted, filtered page somewhere in the first 40 pages. */
type ListCell = { name: string; rows: string; path: (i: number) => string };

export const adminListLatency: BenchSection = {
  name: 'admin-lists',
  title:
    `Admin list endpoints (GET /api/admin/…, react-admin simple-rest, 25 rows a page) over the rebuild bench's log, ` +
    `every list holding at least ${LIST_ROWS.toLocaleString()} rows (or all it has): a sorted, filtered page (median of ${RUNS})`,
  columns: [
    { key: 'list', header: 'list' },
    { key: 'rows', header: 'rows in table' },
    { key: 'query', header: 'sort + filter' },
    { key: 'perSecond', header: 'pages/s (1 worker)' },
    { key: 'p50Ms', header: 'p50 ms' },
    { key: 'p99Ms', header: 'p99 ms' },
  ],
  async run(ctx) {
    const data = await millionEvents(ctx);
    const db = connectDatabase(data.url, { max: 4 });
    const counted = async (sql: string) =>
      Number((await db.knex.raw<{ rows: { n: string }[] }>(sql)).rows[0]!.n);
    if ((await counted('SELECT count(*) AS n FROM users')) < LIST_ROWS) await topUp(ctx, data.url);
    const sizes = {
      users: await counted('SELECT count(*) AS n FROM users'),
      adoptions: await counted('SELECT count(*) AS n FROM adoption_ads'),
      requests: await counted('SELECT count(*) AS n FROM adoption_requests'),
      posts: await counted('SELECT count(*) AS n FROM posts'),
      comments: await counted('SELECT count(*) AS n FROM post_comments'),
      streams: await counted('SELECT count(*) AS n FROM events WHERE stream_revision = 0'),
      events: await counted('SELECT count(*) AS n FROM events'),
    };
    const someUser = (
      await db.knex.raw<{ rows: { owner_id: string }[] }>(
        `SELECT owner_id FROM adoption_ads GROUP BY owner_id ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows[0]!.owner_id;
    await db.close();

    const app = await startApp({
      databaseUrl: data.url,
      port: 0,
      config: { LOG_LEVEL: 'silent', RATE_LIMIT_SIGNIN: 1_000_000 },
    });
    try {
      // The log's own administrator (its password is not known here) gets a real session, as a sign-in records one.
      const token = await adminToken(data.url);
      const headers = { authorization: `Bearer ${token}` };
      for (let tries = 0; (await httpGet(`${app.url}/api/admin/overview`, headers)) !== 200; tries++) {
        if (tries > 100) throw new Error('the bench administrator was never let into /api/admin');
        await new Promise((r) => setTimeout(r, 100));
      }
      const page = (i: number) => {
        const start = ((i * 7919) % 40) * 25;
        return `range=${encodeURIComponent(JSON.stringify([start, start + 24]))}`;
      };
      const q = (sort: [string, string], filter: object, i: number) =>
        `sort=${encodeURIComponent(JSON.stringify(sort))}&${page(i)}&filter=${encodeURIComponent(JSON.stringify(filter))}`;
      const words = ['ali', 'khan', 'a', 'topup1', 'sara', 'gmail'];
      const cells: (ListCell & { query: string })[] = [
        {
          name: 'users',
          rows: String(sizes.users),
          query: "username ASC, search 'ali' / 'khan' / …, regular users",
          path: (i) =>
            `/api/admin/users?${q(['username', 'ASC'], { q: words[i % words.length], isVeterinarian: false }, i)}`,
        },
        {
          name: 'users by requests',
          rows: String(sizes.users),
          query: 'requests DESC, veterinarians',
          path: (i) => `/api/admin/users?${q(['requests', 'DESC'], { isVeterinarian: true }, i)}`,
        },
        {
          name: 'adoptions',
          rows: String(sizes.adoptions),
          query: "name ASC, status 'available'",
          path: (i) => `/api/admin/adoptions?${q(['name', 'ASC'], { status: 'available' }, i)}`,
        },
        {
          name: 'adoption-requests',
          rows: String(sizes.requests),
          query: "createdAt DESC, status 'pending'",
          path: (i) => `/api/admin/adoption-requests?${q(['createdAt', 'DESC'], { status: 'pending' }, i)}`,
        },
        {
          name: 'posts',
          rows: String(sizes.posts),
          query: 'commentCount DESC, one author',
          path: (i) => `/api/admin/posts?${q(['commentCount', 'DESC'], { userId: someUser }, i)}`,
        },
        {
          name: 'comments',
          rows: String(sizes.comments),
          query: 'createdAt DESC, no filter',
          path: (i) => `/api/admin/comments?${q(['createdAt', 'DESC'], {}, i)}`,
        },
        {
          name: 'streams',
          rows: String(sizes.streams),
          query: "firstPosition DESC, id contains 'adoption'",
          path: (i) => `/api/admin/streams?${q(['firstPosition', 'DESC'], { q: 'adoption' }, i)}`,
        },
        {
          name: 'events',
          rows: String(sizes.events),
          query: "position ASC, type 'PostLiked'",
          path: (i) => `/api/admin/events?${q(['position', 'ASC'], { type: 'PostLiked' }, i)}`,
        },
      ];
      for (const cell of cells) {
        const status = await httpGet(`${app.url}${cell.path(0)}`, headers);
        if (status !== 200) throw new Error(`${cell.name}: GET ${cell.path(0)} answered ${status}`);
      }
      const runs: Awaited<ReturnType<typeof measureInterleaved>>[] = [];
      for (let r = 0; r < RUNS; r++)
        runs.push(
          await measureInterleaved(
            cells.map((cell) => ({
              name: cell.name,
              workers: 1,
              op: async (_w, i) => {
                const status = await httpGet(`${app.url}${cell.path(i)}`, headers);
                if (status !== 200) throw new Error(`${cell.name} answered ${status}`);
              },
            })),
            { durationMs: ctx.cellMs, maxOps: ctx.maxOpsPerCell },
          ),
        );
      return cells.map((cell, k) => ({
        list: cell.name,
        rows: Number(cell.rows).toLocaleString(),
        query: cell.query,
        perSecond: Math.round(median(runs.map((m) => m[k]!.perSecond))),
        p50Ms: round(median(runs.map((m) => m[k]!.latencyMs.p50)), 1),
        p99Ms: round(median(runs.map((m) => m[k]!.latencyMs.p99)), 1),
      }));
    } finally {
      await app.stop();
    }
  },
};
