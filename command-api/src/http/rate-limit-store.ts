import type { Knex } from 'knex';
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Database } from '@pawhaven/platform';

type Row = { hits: number; reset_at: Date };

/**
 * express-rate-limit's counters in PostgreSQL (`rate_limits`), so every process of the app shares them and a restart
 * keeps them. A fixed window per (limit, client key); the increment is one atomic upsert, and the window's start and
 * end come from the database clock, so processes with skewed clocks still agree.
 */
export class PostgresRateLimitStore implements Store {
  /** Counts are shared with every other instance (express-rate-limit's double-count check reads this). */
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    private readonly pool: Database['pool'],
    /** The limit's name: its counters are kept apart from every other limit's. */
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.pool.query<Row>(
      'SELECT hits, reset_at FROM rate_limits WHERE limiter = $1 AND key = $2 AND reset_at > now()',
      [this.prefix, key],
    );
    const row = rows[0];
    return row ? { totalHits: row.hits, resetTime: row.reset_at } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const { rows } = await this.pool.query<Row>(
      `INSERT INTO rate_limits AS r (limiter, key, hits, reset_at)
       VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond')
       ON CONFLICT (limiter, key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix, key, Math.round(this.windowMs)],
    );
    const row = rows[0]!;
    return { totalHits: row.hits, resetTime: row.reset_at };
  }

  async decrement(key: string): Promise<void> {
    await this.pool.query(
      `UPDATE rate_limits SET hits = greatest(hits - 1, 0)
        WHERE limiter = $1 AND key = $2 AND reset_at > now()`,
      [this.prefix, key],
    );
  }

  async resetKey(key: string): Promise<void> {
    await this.pool.query('DELETE FROM rate_limits WHERE limiter = $1 AND key = $2', [this.prefix, key]);
  }

  async resetAll(): Promise<void> {
    await this.pool.query('DELETE FROM rate_limits WHERE limiter = $1', [this.prefix]);
  }
}

/** Drops the counters whose window has ended (an expired row counts as zero anyway); answers how many. */
export async function deleteExpiredRateLimits(knex: Knex): Promise<number> {
  return knex('rate_limits').where('reset_at', '<=', knex.fn.now()).delete();
}
