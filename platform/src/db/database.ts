import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { logger } from '../logger';
import { noteDatabaseAvailable, noteIfDatabaseUnavailable } from './availability';

export type Database = {
  /** Raw pool: the event store uses it directly to keep appends at one round trip. */
  pool: pg.Pool;
  /** Query builder over the same connection settings, for read models and migrations. */
  knex: Knex;
  connectionString: string;
  close(): Promise<void>;
};

/**
 * How every connection is opened. Without a bound on connecting, a database behind a network that drops packets
 * (rather than refusing) would hold every request until the operating system gives up, minutes later; TCP keep-alive
 * (probing after 10 s idle) lets an idle connection, a LISTEN above all, find out that its peer is gone.
 */
export const CONNECTION_SETTINGS = {
  connectionTimeoutMillis: 5000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

/**
 * The app's pools. A database restart, a failover or a dropped connection must never end the process: every
 * connection of both pools has an 'error' listener for as long as it lives (node-postgres removes the pool's own while
 * a client is checked out, and an 'error' without a listener is thrown), a broken connection is replaced, and what
 * fails meanwhile fails as "database unavailable" (503, see isDatabaseUnavailable).
 */
export function connectDatabase(connectionString: string, opts: { max?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    ...CONNECTION_SETTINGS,
  });
  // An idle connection lost: the pool drops it and opens another when needed.
  pool.on('error', (error) => void noteIfDatabaseUnavailable(error, 'database pool'));
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!noteIfDatabaseUnavailable(error, 'database connection'))
        logger.warn({ err: error }, 'database connection failed');
    });
    noteDatabaseAvailable();
  });
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString, ...CONNECTION_SETTINGS },
    pool: { min: 0, max: opts.max ?? 10 },
    // knex prints to the console by default; a connection that broke or could not be opened is the database
    // being away, which the failing request or loop notes (noteIfDatabaseUnavailable).
    log: {
      warn: (message: unknown) =>
        /^(Connection Error|Acquire connection error):/.test(String(message))
          ? logger.debug({ message }, 'knex: no connection')
          : logger.warn({ message }, 'knex'),
      error: (message: unknown) => logger.error({ message }, 'knex'),
      deprecate: (method: unknown, alternative: unknown) =>
        logger.warn({ method, alternative }, 'knex: deprecated'),
      debug: (message: unknown) => logger.debug({ message }, 'knex'),
    },
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
