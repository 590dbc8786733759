import { randomUUID } from 'node:crypto';
import { userStream } from '@pawhaven/contracts';
import { PostgresEventStore } from '@pawhaven/platform';
import { createApi, type RegisteredUser } from '@pawhaven/testing';
import { measureInterleaved, round, type Cell, type Measurement } from '../lib/measure';
import type { BenchContext, BenchRow, BenchSection } from '../lib/types';
import { benchApp } from './adoption';

const PAST_SIGN_INS = 1_000;
const REPETITIONS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Whether a user's history makes their commands slower. A command on a user replays the user's stream; sessions now
 * have streams of their own, so 1,000 past sign-ins (real ones, through POST /api/auth/signin) should cost a profile
 * update nothing. For comparison, a third user carries 1,000 sessions in the user stream itself, as every sign-in
 * recorded them before: what each command on a daily user paid after three years.
 */
export const userHistoryCost: BenchSection = {
  name: 'user-history',
  title: `A command on a user (UpdateProfile) after ${PAST_SIGN_INS.toLocaleString('en')} past sign-ins vs a new user`,
  columns: [
    { key: 'user', header: 'user' },
    { key: 'userStreamEvents', header: 'events in user stream' },
    { key: 'perSecond', header: 'updates/s (median)' },
    { key: 'p50Ms', header: 'p50 ms' },
    { key: 'p99Ms', header: 'p99 ms' },
    {
      key: 'ratio',
      header: '÷ new user (target ≥ 0.95)',
      format: (v) => (typeof v === 'number' ? v.toFixed(2) : '–'),
    },
  ],
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    // Hundreds of profile updates a second by one user: the per-user write limit meant for people would refuse them.
    const bench = await benchApp(ctx, { RATE_LIMIT_WRITES: 1_000_000 });
    const api = createApi(`http://127.0.0.1:${bench.app.port}`);
    const store = new PostgresEventStore(bench.db.pool);
    try {
      const [fresh, veteran, legacy] = await Promise.all(
        ['new', 'veteran', 'legacy'].map((name) =>
          api.registerVerifiedUser({ username: `bench-${name}-${randomUUID().slice(0, 6)}` }),
        ),
      );
      ctx.log(`  signing the veteran in ${PAST_SIGN_INS} times…`);
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next++ < PAST_SIGN_INS) {
            const res = await api.post('/api/auth/signin', {
              email: veteran!.email,
              password: veteran!.password,
            });
            if (res.status !== 200) throw new Error(`signin answered ${res.status}: ${res.text}`);
          }
        }),
      );
      // The old way: each sign-in's SessionStarted in the user's stream.
      const now = Date.now();
      await store.append(
        userStream(legacy!.user._id),
        Array.from({ length: PAST_SIGN_INS }, (_, i) => ({
          type: 'SessionStarted',
          data: {
            sessionId: randomUUID(),
            secretHash: 'bench',
            rememberMe: false,
            startedAt: new Date(now - (PAST_SIGN_INS - i) * 60_000).toISOString(),
            expiresAt: new Date(now - (PAST_SIGN_INS - i) * 60_000 + 86_400_000).toISOString(),
          },
          metadata: { actorId: legacy!.user._id },
        })),
        'any',
      );
      const users: [string, RegisteredUser][] = [
        ['new (1 sign-in)', fresh!],
        [`${PAST_SIGN_INS} past sign-ins, each session in its own stream`, veteran!],
        [`${PAST_SIGN_INS} past sign-ins recorded in the user stream (as before)`, legacy!],
      ];
      const cell = ([name, user]: [string, RegisteredUser]): Cell => ({
        name,
        workers: 1,
        op: async (_w, i) => {
          const res = await api.post('/api/auth/update-profile', { about: `Fostering ${i}` }, user.token);
          if (res.status !== 200) throw new Error(`update-profile answered ${res.status}: ${res.text}`);
        },
      });
      const runs: Measurement[][] = [];
      for (let r = 0; r < REPETITIONS; r++)
        runs.push(
          await measureInterleaved(users.map(cell), { durationMs: ctx.cellMs, maxOps: ctx.maxOpsPerCell }),
        );
      const eventsIn = async (userId: string) =>
        Number(
          (
            await bench.db.pool.query<{ n: string }>(
              'SELECT count(*) AS n FROM events WHERE stream_id = $1',
              [userStream(userId)],
            )
          ).rows[0]!.n,
        );
      const perSecond = users.map((_, u) => median(runs.map((m) => m[u]!.perSecond)));
      return await Promise.all(
        users.map(async ([name, user], u) => ({
          user: name,
          userStreamEvents: await eventsIn(user.user._id),
          perSecond: perSecond[u]!,
          p50Ms: median(runs.map((m) => m[u]!.latencyMs.p50)),
          p99Ms: median(runs.map((m) => m[u]!.latencyMs.p99)),
          ratio: perSecond[0]! > 0 ? round(perSecond[u]! / perSecond[0]!, 3) : null,
          repetitions: REPETITIONS,
        })),
      );
    } finally {
      await store.close();
      await bench.stop();
    }
  },
};
