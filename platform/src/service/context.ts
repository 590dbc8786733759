import type pg from 'pg';
import { resolveJwtSecret, TokenService } from '../auth/tokens';
import type { Config } from '../config';
import { connectDatabase, type Database } from '../db/database';
import { migrate, type Migration } from '../db/migrations';
import { ensureLogOrder } from '../event-store/log-order';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { KurrentDbEventStore } from '../event-store/kurrentdb/kurrentdb-event-store';
import { MirroredEventStore, runLogMirror } from '../event-store/log-mirror/log-mirror';
import { UnitsOfWork } from '../event-store/unit-of-work';
import type { EventStore } from '../event-store/event-store';
import { oneAtATime } from './one-at-a-time';
import type { Pseudonyms } from '../personal-data/pseudonyms';
import { resolvePseudonyms } from '../personal-data/pseudonyms';
import { withPersonalDataEncryption } from '../personal-data/wrap';
import type { Projection } from '../projections/projection';

/** What every service of PawHaven opens first: the database, the event store (personal fields sealed), the keys. */
export type ServiceContext = {
  config: Config;
  databaseUrl: string;
  db: Database;
  store: ReturnType<typeof withPersonalDataEncryption>;
  pseudonyms: Pseudonyms;
  /** The access tokens' signing secret (env or generated once), and the tokens made with it. */
  secret: string;
  tokens: TokenService;
  close(): Promise<void>;
};

/**
 * Services may start together (the cluster starts two of each): what a start prepares in the database — migrations,
 * the log's order, generated secrets, then each service's own first-start work (the admin, the seeds) — runs under
 * one advisory lock, one service at a time. The lock is the session's: a crashed start lets go with its connection.
 */
const START_LOCK = 7_212_026;

export async function underStartLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [START_LOCK]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [START_LOCK]).catch(() => {});
    }
  } finally {
    client.release();
  }
}

/**
 * Connects, brings the schema up to date, repairs the log's order if it came from another server, and opens the
 * event store with personal-data sealing. `firstStart` runs under the same start lock (see `underStartLock`).
 */
export async function openServiceContext<T = void>(opts: {
  config: Config;
  databaseUrl: string;
  migrations: Migration[];
  projections: readonly Projection[];
  /** Connections of the service's pool. */
  connections?: number;
  firstStart?: (context: ServiceContext) => Promise<T>;
}): Promise<{ context: ServiceContext; started: T }> {
  const { config, databaseUrl } = opts;
  const db = connectDatabase(databaseUrl, { max: opts.connections ?? 20 });
  let log: ReturnType<typeof openLog> | undefined;
  try {
    return await underStartLock(db.pool, async () => {
      await migrate(db.knex, opts.migrations);
      await ensureLogOrder(db.knex, opts.projections); // a log restored from another server: repair its order first
      // Personal fields are sealed with per-user keys (crypto-shredding), claims kept under keyed hashes.
      const pseudonyms = await resolvePseudonyms(db.pool, config.PSEUDONYM_SECRET);
      const opened = (log = openLog(config, databaseUrl, db));
      const store = withPersonalDataEncryption(opened.store, db.pool, pseudonyms);
      const secret = await resolveJwtSecret(db.knex, config.JWT_SECRET);
      const context: ServiceContext = {
        config,
        databaseUrl,
        db,
        store,
        pseudonyms,
        secret,
        tokens: new TokenService(secret, config.ACCESS_TOKEN_TTL_SECONDS),
        async close() {
          await opened.stop();
          await store.close();
          await db.close();
        },
      };
      const started = (await opts.firstStart?.(context)) as T;
      return { context, started };
    });
  } catch (error) {
    await log?.stop().catch(() => {});
    await db.close().catch(() => {});
    throw error;
  }
}

/**
 * The log the services read and append to. EVENT_STORE=postgres: the events table. EVENT_STORE=kurrentdb: KurrentDB
 * keeps the log and a copy in the events table feeds the readers (event-store/log-mirror); every service runs a
 * copier, one at a time, so the copy goes on while any of them runs.
 */
function openLog(
  config: Config,
  databaseUrl: string,
  db: Database,
): { store: EventStore; stop(): Promise<void> } {
  if (config.EVENT_STORE === 'postgres')
    return { store: new PostgresEventStore(db.pool), stop: async () => {} };
  const source = new KurrentDbEventStore(config.KURRENTDB_URL);
  const target = new PostgresEventStore(db.pool);
  const units = new UnitsOfWork(databaseUrl, { max: 2 });
  const abort = new AbortController();
  const copying = oneAtATime(
    databaseUrl,
    'log-mirror',
    (signal) => runLogMirror({ source, target, units, pool: db.pool, signal }),
    abort.signal,
  );
  return {
    store: new MirroredEventStore(
      new KurrentDbEventStore(config.KURRENTDB_URL),
      new PostgresEventStore(db.pool),
      db.pool,
    ),
    async stop() {
      abort.abort();
      await copying.catch(() => {});
      await Promise.all([source.close(), target.close(), units.close()]);
    },
  };
}
