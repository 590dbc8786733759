import { randomUUID } from 'node:crypto';
import {
  postLikeStream,
  postListQuery,
  postStream,
  type CommunityEvent,
  type UserEvent,
} from '@pawhaven/contracts';
import { startApp, type RunningApp } from '@pawhaven/gateway';
import { PostgresEventStore, type NewEvent } from '@pawhaven/platform';
import { listPosts } from '@pawhaven/query-api';
import { commandToVisible, measureInterleaved, round, type Measurement } from '../lib/measure';
import { httpGet } from '../lib/http-get';
import { latencyColumns, type BenchContext, type BenchRow, type BenchSection } from '../lib/types';
import { benchApp } from './adoption';

const POSTS = 10_000;
const COMMENTS_PER_POST = 5; // 50,000
const LIKES_PER_POST = 10; // 100,000
const AUTHORS = 100;
const LIKERS = 1000;

const authorId = (i: number) => `bench-author-${i % AUTHORS}`;
const likerId = (post: number, k: number) => `bench-liker-${(post * 7 + k * 101) % LIKERS}`;

type Bench = Awaited<ReturnType<typeof benchApp>>;

/** Runs `count` jobs `concurrency` at a time; answers the highest position they appended. */
async function appendAll(count: number, concurrency: number, job: (i: number) => Promise<bigint>) {
  let next = 0;
  let last = 0n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const position = await job(next++);
        if (position > last) last = position;
      }
    }),
  );
  return last;
}

const event = <E extends CommunityEvent | UserEvent>(e: E, actorId: string): NewEvent => ({
  type: e.type,
  data: e.data,
  metadata: { actorId },
});

/**
 * 10,000 posts (each with 5 comments: 3 threads, 2 replies) and 100,000 likes, appended straight to the log as the
 * command side records them, by 100 registered authors and 1,000 likers; answers the post ids, oldest first.
 */
async function seedCommunity(ctx: BenchContext, bench: Bench): Promise<string[]> {
  const store = new PostgresEventStore(bench.db.pool);
  const t0 = performance.now();
  try {
    const started = Date.now() - POSTS * 60_000;
    await appendAll(AUTHORS, 8, async (i) => {
      const userId = authorId(i);
      const registered: UserEvent = {
        type: 'UserRegistered',
        data: {
          userId,
          username: `benchauthor${i}`,
          email: `benchauthor${i}@gmail.com`,
          passwordHash: null,
          isVeterinarian: i % 10 === 0,
          isAdmin: false,
          via: 'google',
          registeredAt: new Date(started - 3600_000).toISOString(),
        },
      };
      return (await store.append(`user-${userId}`, [event(registered, userId)], 'no_stream')).position;
    });
    const postIds = Array.from({ length: POSTS }, () => randomUUID());
    await appendAll(POSTS, 16, async (i) => {
      const postId = postIds[i]!;
      const author = authorId(i);
      const at = (s: number) => new Date(started + i * 60_000 + s * 1000).toISOString();
      const events: NewEvent[] = [
        event(
          {
            type: 'PostPublished',
            data: {
              postId,
              authorId: author,
              authorIsVeterinarian: (i % AUTHORS) % 10 === 0,
              caption: `My pet's story number ${i}: a walk in the park, a nap in the sun and a bowl of treats.`,
              imageUrl: '/api/images/000000000000000000000000',
              publishedAt: at(0),
            },
          },
          author,
        ),
      ];
      const commentIds: string[] = [];
      for (let c = 0; c < COMMENTS_PER_POST; c++) {
        const commentId = randomUUID();
        const commenter = authorId(i + c + 1);
        // Comments 0, 1, 3 start threads; 2 replies to 0 and 4 to 3.
        const parent = c === 2 ? commentIds[0]! : c === 4 ? commentIds[3]! : null;
        commentIds.push(commentId);
        events.push(
          event(
            {
              type: 'CommentAdded',
              data: {
                commentId,
                postId,
                postAuthorId: author,
                authorId: commenter,
                content: `Comment ${c} on story ${i}: what a lovely companion!`,
                parentCommentId: parent,
                parentAuthorId: parent ? authorId(i + commentIds.indexOf(parent) + 1) : null,
                addedAt: at(c + 1),
              },
            },
            commenter,
          ),
        );
      }
      return (await store.append(postStream(postId), events, 'no_stream')).position;
    });
    ctx.log(`  ${POSTS.toLocaleString()} posts with their comments appended`);
    const last = await appendAll(POSTS * LIKES_PER_POST, 16, async (n) => {
      const i = Math.floor(n / LIKES_PER_POST);
      const userId = likerId(i, n % LIKES_PER_POST);
      const postId = postIds[i]!;
      const liked: CommunityEvent = {
        type: 'PostLiked',
        data: {
          postId,
          postAuthorId: authorId(i),
          userId,
          likedAt: new Date(started + i * 60_000 + 10_000 + (n % LIKES_PER_POST) * 1000).toISOString(),
        },
      };
      return (await store.append(postLikeStream(postId, userId), [event(liked, userId)], 'no_stream'))
        .position;
    });
    ctx.log(`  ${(POSTS * LIKES_PER_POST).toLocaleString()} likes appended; waiting for the projections…`);
    await bench.waiter.waitFor(last, 1_800_000);
    ctx.log(`  seeded and projected in ${round((performance.now() - t0) / 1000, 1)} s`);
    return postIds;
  } finally {
    await store.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Repeats interleaved measurements and keeps each cell's median rate and median p99. */
async function medianOf(
  runs: number,
  measure: () => Promise<Measurement[]>,
): Promise<{ perSecond: number; p99: number }[]> {
  const all: Measurement[][] = [];
  for (let r = 0; r < runs; r++) all.push(await measure());
  return all[0]!.map((_, cell) => ({
    perSecond: median(all.map((m) => m[cell]!.perSecond)),
    p99: median(all.map((m) => m[cell]!.latencyMs.p99)),
  }));
}

/** The feed over 10,000 posts, 50,000 comments and 100,000 likes, beside the same page's query alone. */
export const communityFeedThroughput: BenchSection = {
  name: 'community-feed',
  title:
    'GET /api/posts with 10,000 posts, 50,000 comments, 100,000 likes vs the same page queried directly (median of 3; ' +
    'the first rows through the read cache, as served by default, the last ones through a node with it off)',
  columns: [
    { key: 'page', header: 'page' },
    { key: 'workers', header: 'workers' },
    { key: 'httpPerSecond', header: 'HTTP GET/s' },
    { key: 'queryPerSecond', header: 'bare query/s' },
    { key: 'ratio', header: 'ratio' },
    { key: 'httpP99Ms', header: 'HTTP p99 ms' },
    { key: 'queryP99Ms', header: 'query p99 ms' },
  ],
  async run(ctx) {
    const bench = await benchApp(ctx);
    let uncached: RunningApp | undefined;
    try {
      ctx.log('seeding 10,000 posts, 50,000 comments and 100,000 likes…');
      await seedCommunity(ctx, bench);
      // Freshly written tables would have autovacuum and checkpoints running during the measurement: settle them
      // first, as a server that has been up for a while would be (the target is for a quiet machine).
      const t0 = performance.now();
      await bench.db.pool.query('VACUUM (ANALYZE)');
      await bench.db.pool.query('CHECKPOINT');
      ctx.log(`  settled (VACUUM ANALYZE, CHECKPOINT) in ${round((performance.now() - t0) / 1000, 1)} s`);
      // A second node on the same database with the read cache off: what a page costs when every read queries
      // (as right after each like or comment), beside the same bare query.
      uncached = await startApp({
        databaseUrl: bench.databaseUrl,
        port: 0,
        config: { LOG_LEVEL: 'silent', READ_CACHE_ENTRIES: 0 },
      });
      const workers = 4;
      const rows: BenchRow[] = [];
      for (const { label, qs, port } of [
        { label: 'page 1 (10 posts)', qs: '', port: bench.app.port },
        { label: 'page 100 (10 posts)', qs: 'page=100', port: bench.app.port },
        { label: 'page 1, read cache off', qs: '', port: uncached.port },
        { label: 'page 100, read cache off', qs: 'page=100', port: uncached.port },
      ]) {
        const query = postListQuery.parse(Object.fromEntries(new URLSearchParams(qs)));
        const url = `http://127.0.0.1:${port}/api/posts?${qs}`;
        const [http, bare] = await medianOf(3, () =>
          measureInterleaved(
            [
              {
                name: 'http',
                workers,
                op: async () => {
                  const status = await httpGet(url);
                  if (status !== 200) throw new Error(`GET /api/posts answered ${status}`);
                },
              },
              {
                name: 'bare',
                workers,
                op: async () => {
                  await listPosts(bench.db.pool, query);
                },
              },
            ],
            { durationMs: ctx.cellMs, maxOps: ctx.maxOpsPerCell },
          ),
        );
        rows.push({
          page: label,
          workers,
          httpPerSecond: http!.perSecond,
          queryPerSecond: bare!.perSecond,
          ratio: round(http!.perSecond / Math.max(bare!.perSecond, 1), 3),
          httpP99Ms: http!.p99,
          queryP99Ms: bare!.p99,
        });
      }
      return rows;
    } finally {
      await uncached?.stop();
      await bench.stop();
    }
  },
};

/** Like toggles sent at a steady rate (open loop); each measured until its effect is visible in the read models. */
export const communityLikeLatency: BenchSection = {
  name: 'community-like-latency',
  title: 'LikePost at a steady rate: command round trip vs command → visible in the read models',
  columns: latencyColumns('failed'),
  async run(ctx) {
    const bench = await benchApp(ctx);
    const store = new PostgresEventStore(bench.db.pool);
    try {
      const rate = 50;
      const durationMs = Math.max(ctx.cellMs * 2, 2000);
      const total = Math.floor((rate * durationMs) / 1000);
      // 400 posts, and one signed-in user per like: a toggle per user and post.
      const posts = Array.from({ length: 400 }, () => randomUUID());
      const last = await appendAll(posts.length, 8, async (i) => {
        const published: CommunityEvent = {
          type: 'PostPublished',
          data: {
            postId: posts[i]!,
            authorId: authorId(i),
            authorIsVeterinarian: false,
            caption: `Story ${i}`,
            imageUrl: '/api/images/000000000000000000000000',
            publishedAt: new Date(Date.now() - (posts.length - i) * 1000).toISOString(),
          },
        };
        return (await store.append(postStream(posts[i]!), [event(published, authorId(i))], 'no_stream'))
          .position;
      });
      await bench.waiter.waitFor(last, 120_000);
      const warmUp = 20;
      const tokens = await Promise.all(
        Array.from({ length: total + warmUp }, (_, i) => bench.tokenFor(`bench-liker-${i}`)),
      );
      // A few unmeasured likes first: the first requests of a fresh process compile code and prepare statements.
      for (let i = total; i < total + warmUp; i++) {
        const res = await fetch(
          `http://127.0.0.1:${bench.app.port}/api/posts/${posts[i % posts.length]}/like`,
          { method: 'POST', headers: { authorization: `Bearer ${tokens[i]}` } },
        );
        const { position } = (await res.json()) as { position: string };
        await bench.waiter.waitFor(BigInt(position), 10_000);
      }
      return await commandToVisible({
        rate,
        total,
        send: async (i) => {
          const res = await fetch(
            `http://127.0.0.1:${bench.app.port}/api/posts/${posts[i % posts.length]}/like`,
            { method: 'POST', headers: { authorization: `Bearer ${tokens[i]}` } },
          );
          if (res.status !== 200) return null;
          const { position, liked } = (await res.json()) as { position: string; liked: boolean };
          return liked ? BigInt(position) : null;
        },
        waitFor: (position) => bench.waiter.waitFor(position, 10_000),
        labels: {
          command: 'baseline: POST /api/posts/{id}/like (command round trip)',
          visible: 'like → visible in every read model',
        },
      });
    } finally {
      await store.close();
      await bench.stop();
    }
  },
};
