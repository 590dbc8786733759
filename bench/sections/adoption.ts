import { randomUUID } from 'node:crypto';
import { adoptionListQuery, adoptionStream, type AdoptionEvent, type PetDetails } from '@pawhaven/contracts';
import { startApp, type RunningApp } from '@pawhaven/gateway';
import {
  ConsistencyWaiter,
  connectDatabase,
  PostgresEventStore,
  resolveJwtSecret,
  TokenService,
} from '@pawhaven/platform';
import { allProjections } from '@pawhaven/projections';
import { listAdoptionAds } from '@pawhaven/query-api';
import { commandToVisible, measureConcurrent, round } from '../lib/measure';
import { httpGet } from '../lib/http-get';
import { startBenchSession } from '../lib/session';
import { latencyColumns, type BenchContext, type BenchRow, type BenchSection } from '../lib/types';
import { freshDatabase } from '../lib/postgres';

const PET_TYPES = ['Dog', 'Cat', 'Bird', 'Rabbit', 'Hamster', 'Other'] as const;
const CITIES = ['Lahore', 'Karachi', 'Islamabad', 'Peshawar', 'Multan', 'Quetta'];
/** One in five says "friendly": a text search that matches some ads, not all. */
const DESCRIPTIONS = [
  'A friendly companion looking for a home.',
  'Calm and house-trained, good on a lead.',
  'Playful, curious and full of energy.',
  'Shy at first, then very affectionate.',
  'Rescued from the street, now healthy and vaccinated.',
];

const details = (i: number): PetDetails => ({
  name: `Pet ${i}`,
  age: String(1 + (i % 12)),
  ageUnit: 'yrs',
  petType: PET_TYPES[i % PET_TYPES.length]!,
  breed: 'Mixed',
  gender: null,
  size: null,
  vaccinated: i % 2 === 0,
  spayedNeutered: null,
  goodWithChildren: null,
  goodWithDogs: null,
  goodWithCats: null,
  // Kind, city and text vary independently (in blocks of 6 and 36), as they do in a real listing.
  description: `${DESCRIPTIONS[Math.floor(i / 36) % DESCRIPTIONS.length]!} Number ${i}.`,
  location: CITIES[Math.floor(i / PET_TYPES.length) % CITIES.length]!,
  imageUrl: '/api/images/000000000000000000000000',
});

/** The whole app on the bench database, plus what a bench needs to act as many signed-in users. */
/** Each section's app gets a database of its own: what one section seeds never meets another's. */
let apps = 0;

export async function benchApp(ctx: BenchContext, limits: { RATE_LIMIT_WRITES?: number } = {}) {
  const databaseUrl = await freshDatabase(ctx.connectionString, `pawhaven_app_${++apps}`);
  const app: RunningApp = await startApp({
    databaseUrl,
    port: 0,
    config: { LOG_LEVEL: 'silent', RATE_LIMIT_SIGNIN: 1_000_000, ...limits },
  });
  const db = connectDatabase(databaseUrl, { max: 8 });
  const store = new PostgresEventStore(db.pool);
  const tokens = new TokenService(await resolveJwtSecret(db.knex), 3600);
  const waiter = new ConsistencyWaiter(
    db.knex,
    databaseUrl,
    allProjections.map((p) => p.name),
  );
  await waiter.start();
  /** A signed-in bench user: a real open session in the user's stream. */
  const tokenFor = (userId: string) => startBenchSession(store, tokens, userId);
  const publish = async (count: number, ownerId: string, concurrency = 8) => {
    const ids: string[] = [];
    let last = 0n;
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const adId = randomUUID();
          ids.push(adId);
          const event: AdoptionEvent = {
            type: 'AdoptionAdPublished',
            data: {
              adId,
              ownerId,
              details: details(i),
              publishedAt: new Date(Date.now() - (count - i) * 1000).toISOString(),
            },
          };
          const r = await store.append(
            adoptionStream(adId),
            [{ ...event, metadata: { actorId: ownerId } }],
            'no_stream',
          );
          if (r.position > last) last = r.position;
        }
      }),
    );
    await waiter.waitFor(last, 120_000);
    // The planner's statistics, as autovacuum would gather them within a minute of so many new rows.
    await db.pool.query('ANALYZE adoption_ads');
    return ids;
  };
  return {
    app,
    databaseUrl,
    db,
    waiter,
    tokenFor,
    publish,
    async stop() {
      await waiter.stop();
      await store.close();
      await db.close();
      await app.stop();
    },
  };
}

/** Requests sent at a steady rate (open loop); each measured until its effect is visible in the read models. */
export const adoptionRequestLatency: BenchSection = {
  name: 'adoption-latency',
  title: 'RequestAdoption at a steady rate: command round trip vs command → visible in the read models',
  columns: latencyColumns('failed'),
  async run(ctx) {
    const bench = await benchApp(ctx);
    try {
      const rate = 50;
      const ads = await bench.publish(400, 'bench-owner');
      const durationMs = Math.max(ctx.cellMs * 2, 2000);
      const total = Math.floor((rate * durationMs) / 1000);
      const body = JSON.stringify({
        name: 'Bench User',
        email: 'bench@gmail.com',
        phone: '+92 300 1234567',
        message: 'I would love to adopt.',
      });
      // Signed in beforehand: the session's own append is not part of what is measured.
      const tokens = await Promise.all(
        Array.from({ length: total }, (_, i) => bench.tokenFor(`bench-user-${i}`)),
      );
      return await commandToVisible({
        rate,
        total,
        send: async (i) => {
          const token = tokens[i]!;
          const res = await fetch(
            `http://127.0.0.1:${bench.app.port}/api/adoptions/${ads[i % ads.length]}/request`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body,
            },
          );
          if (res.status !== 201) return null;
          return BigInt(((await res.json()) as { position: string }).position);
        },
        waitFor: (position) => bench.waiter.waitFor(position, 10_000),
        labels: {
          command: 'baseline: POST request (command round trip)',
          visible: 'POST → visible in every read model',
        },
      });
    } finally {
      await bench.stop();
    }
  },
};

/** The public listing over 10,000 ads through the whole HTTP stack, beside the same page's query alone. */
export const adoptionListingThroughput: BenchSection = {
  name: 'adoption-listing',
  title: 'GET /api/adoptions with 10,000 ads vs the same page queried directly through the same pool',
  columns: [
    { key: 'page', header: 'page' },
    { key: 'workers', header: 'workers' },
    { key: 'httpPerSecond', header: 'HTTP GET/s' },
    { key: 'queryPerSecond', header: 'bare query/s' },
    { key: 'ratio', header: 'ratio' },
    { key: 'httpP99Ms', header: 'HTTP p99 ms' },
  ],
  async run(ctx) {
    const bench = await benchApp(ctx);
    try {
      ctx.log('seeding 10,000 ads…');
      await bench.publish(10_000, 'bench-owner');
      const rows: BenchRow[] = [];
      const pages = [
        { label: 'all, page 1', qs: '' },
        { label: 'cats in Lahore, page 2', qs: 'filter=cat&city=lahore&page=2' },
        { label: 'search "friendly", page 5', qs: 'q=friendly&page=5' },
      ];
      const workers = 4;
      // The HTTP stack's own floor (every middleware, a small JSON answer, no query): what a page costs beyond it.
      const floor = await measureConcurrent({
        workers,
        durationMs: ctx.cellMs,
        maxOps: ctx.maxOpsPerCell,
        op: async () => {
          const status = await httpGet(`http://127.0.0.1:${bench.app.port}/api/config`);
          if (status !== 200) throw new Error(`GET /api/config answered ${status}`);
        },
      });
      rows.push({
        page: 'floor: GET /api/config (no query)',
        workers,
        httpPerSecond: floor.perSecond,
        queryPerSecond: null,
        ratio: null,
        httpP99Ms: floor.latencyMs.p99,
      });
      for (const { label, qs } of pages) {
        const http = await measureConcurrent({
          workers,
          durationMs: ctx.cellMs,
          maxOps: ctx.maxOpsPerCell,
          op: async () => {
            const status = await httpGet(`http://127.0.0.1:${bench.app.port}/api/adoptions?${qs}`);
            if (status !== 200) throw new Error(`GET /api/adoptions answered ${status}`);
          },
        });
        const query = adoptionListQuery.parse(Object.fromEntries(new URLSearchParams(qs)));
        const bare = await measureConcurrent({
          workers,
          durationMs: ctx.cellMs,
          maxOps: ctx.maxOpsPerCell,
          op: async () => {
            await listAdoptionAds(bench.db.knex, query, undefined);
          },
        });
        rows.push({
          page: label,
          workers,
          httpPerSecond: http.perSecond,
          queryPerSecond: bare.perSecond,
          ratio: round(http.perSecond / Math.max(bare.perSecond, 1), 3),
          httpP99Ms: http.latencyMs.p99,
        });
      }
      return rows;
    } finally {
      await bench.stop();
    }
  },
};
