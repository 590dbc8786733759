import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type Database = {
  /** Raw pool: the event store uses it directly to keep appends at one round trip. */
  pool: pg.Pool;
  /** Query builder over the same connection settings, for read models and migrations. */
  knex: Knex;
  connectionString: string;
  close(): Promise<void>;
};

export function connectDatabase(connectionString: string, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString, max: opts.max ?? 10 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const knex = knexFactory({
    client: 'pg',
    connection: connectionString,
    pool: { min: 0, max: opts.max ?? 10 },
  });
  return {
    pool,
    knex,
    connectionString,
    async close() {
      await Promise.allSettled([pool.end(), knex.destroy()]);
    },
  };
}
