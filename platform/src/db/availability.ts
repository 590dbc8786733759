import { logger } from '../logger';

/** What a request gets (503) while the database cannot be reached. */
export const DATABASE_UNAVAILABLE =
  'PawHaven cannot reach its database right now. Please try again in a moment.';

/** Socket and network failures: nothing answers, or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own codes for "not now": 57P01 admin shutdown (a restart, Ctrl-C, pg_terminate_backend), 57P02 crash
 * shutdown, 57P03 cannot connect now (starting up, recovering), 53300 too many connections, and class 08 (connection
 * exceptions).
 */
const unavailableSqlState = (code: string) => /^(57P0[123]|53300|08[0-9A-Z]{3})$/.test(code);

/**
 * What node-postgres, pg-pool and knex say when a connection broke or could not be had in time (knex puts the
 * statement in front).
 */
const UNAVAILABLE_MESSAGES = [
  /\bConnection terminated\b/,
  /\btimeout exceeded when trying to connect\b/,
  /\bis not queryable\b/,
  /\bCannot use a pool after calling end on the pool\b/,
  /\bTimeout acquiring a connection\b/,
  /\bQuery read timeout\b/,
  /\bis not currently accepting connections\b/,
];

/**
 * True when `error` says the database cannot be reached right now (down, restarting, a dropped connection, a pool
 * that cannot connect in time), not that a statement or its input was wrong. Such a failure is nobody's fault and
 * passes by itself: requests get 503, background loops wait and try again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message, name, errors } = e as {
      code?: unknown;
      message?: unknown;
      name?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || unavailableSqlState(code))) return true;
    if (name === 'KnexTimeoutError') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
    // Node's connection attempts to several addresses (localhost: ::1 and 127.0.0.1) fail with an AggregateError.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * An outage is told only once it has lasted this long: a blip (one dropped connection, replaced at once) is not news,
 * and when Ctrl-C reaches the embedded PostgreSQL its shutdown may end our connections a moment before our own
 * signal handler says the process is stopping.
 */
const TELL_AFTER_MS = 1000;

type Outage = { since: number; told: boolean; timer: NodeJS.Timeout };
let outage: Outage | undefined;
let shutdownExpected = false;

/**
 * Handles `error` if it is the database being unreachable (answers true): an outage is logged once, with the first
 * failure and where it was seen, if it lasts; every later failure until the database answers again is expected and
 * not logged. Answers false for any other error, which the caller reports as it would.
 */
export function noteIfDatabaseUnavailable(error: unknown, where: string): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  if (outage === undefined) {
    const started: Outage = {
      since: Date.now(),
      told: false,
      timer: setTimeout(() => {
        if (shutdownExpected) return;
        started.told = true;
        logger.warn(
          { err: error, where },
          'The database cannot be reached: requests get 503 and everything retries until it answers again',
        );
      }, TELL_AFTER_MS),
    };
    started.timer.unref();
    outage = started;
  }
  return true;
}

/** A connection succeeded: ends an outage (logged with its length, if it was told). */
export function noteDatabaseAvailable(): void {
  if (outage === undefined) return;
  const { since, told, timer } = outage;
  outage = undefined;
  clearTimeout(timer);
  if (told && !shutdownExpected)
    logger.info({ seconds: Math.round((Date.now() - since) / 100) / 10 }, 'The database answers again');
}

/**
 * The process is stopping (Ctrl-C reaches the embedded PostgreSQL too, which ends our connections while we close
 * them): lost connections are expected from now on and logged nowhere.
 */
export function expectDatabaseShutdown(): void {
  shutdownExpected = true;
}
