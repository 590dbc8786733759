import { createHash, randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import { badRequest, conflict, HttpError, logger } from '@pawhaven/platform';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A request still running after this long is taken to have died with its process; a retry may run it again. */
const LEASE_SECONDS = 60;
/** How long a key keeps its first answer. */
const KEEP_HOURS = 24;
const VALID_KEY = /^[\x21-\x7e]{1,200}$/;

type Row = { fingerprint: string; status: number | null; body: unknown };

/** Who the key belongs to: the signed-in user, else the client address (sign-up, sign-in). */
const scopeOf = (req: Request) => (req.auth ? `user:${req.auth.userId}` : `ip:${req.ip ?? 'unknown'}`);

/** The same key must come back with the same request: method, path and (JSON) body. */
function fingerprintOf(req: Request): string {
  const hash = createHash('sha256').update(`${req.method} ${req.originalUrl.split('?')[0]}\n`);
  if (req.is('application/json')) hash.update(JSON.stringify(req.body ?? null));
  return hash.digest('base64url');
}

/**
 * Honours `Idempotency-Key` on every mutating request of the command side (creates are where it matters: a
 * retried create whose answer was lost must not create twice). The first successful (2xx) answer is stored
 * before it is sent and replayed to any retry with the same key from the same user, marked
 * `Idempotent-Replayed: true`. A refusal (4xx/5xx) releases the key, so a corrected retry runs afresh.
 * Cookies are not replayed (sign-in is not a create).
 */
export function idempotentRequests(knex: Knex): RequestHandler {
  let lastSweep = 0;
  const sweep = () => {
    if (Date.now() - lastSweep < 60_000) return;
    lastSweep = Date.now();
    knex('idempotency_keys')
      .where('created_at', '<', knex.raw(`now() - interval '${KEEP_HOURS} hours'`))
      .delete()
      .catch((err: unknown) => logger.warn({ err }, 'could not sweep old idempotency keys'));
  };

  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (!MUTATING.has(req.method) || key === undefined) return next();
    try {
      if (!VALID_KEY.test(key))
        throw badRequest(`${IDEMPOTENCY_HEADER} must be 1 to 200 visible ASCII characters (a UUID is ideal)`);
      sweep();
      const scope = scopeOf(req);
      const fingerprint = fingerprintOf(req);
      const claimed = await knex.raw<{ rows: unknown[] }>(
        `INSERT INTO idempotency_keys (scope, key, fingerprint, locked_until)
         VALUES (?, ?, ?, now() + interval '${LEASE_SECONDS} seconds')
         ON CONFLICT (scope, key) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, locked_until = EXCLUDED.locked_until, created_at = now()
           WHERE (idempotency_keys.status IS NULL AND idempotency_keys.locked_until < now())
              OR idempotency_keys.created_at < now() - interval '${KEEP_HOURS} hours'
         RETURNING 1`,
        [scope, key, fingerprint],
      );
      if (claimed.rows.length === 0) return replay(knex, scope, key, fingerprint, res);
      recordFirstAnswer(knex, scope, key, res);
      next();
    } catch (error) {
      next(error);
    }
  };
}

async function replay(knex: Knex, scope: string, key: string, fingerprint: string, res: Response) {
  const row = await knex('idempotency_keys').where({ scope, key }).first<Row | undefined>();
  if (!row) throw conflict('That request is being retried right now. Please try again in a moment.');
  if (row.fingerprint !== fingerprint)
    throw new HttpError(422, `This ${IDEMPOTENCY_HEADER} was already used for a different request`);
  if (row.status === null) {
    res.setHeader('Retry-After', '1');
    throw conflict(
      'The first request with this Idempotency-Key is still being processed. Try again in a moment.',
    );
  }
  res.setHeader('Idempotent-Replayed', 'true');
  res.status(row.status).json(row.body);
}

/** Stores a 2xx answer before it goes out (so a retry finds it even if this answer is lost); else releases the key. */
function recordFirstAnswer(knex: Knex, scope: string, key: string, res: Response) {
  const send = res.json.bind(res);
  let settled = false;
  const release = () =>
    knex('idempotency_keys')
      .where({ scope, key })
      .whereNull('status')
      .delete()
      .catch((err: unknown) => logger.warn({ err }, 'could not release an idempotency key'));
  res.json = (body: unknown) => {
    if (settled) return send(body);
    settled = true;
    const status = res.statusCode;
    // A refusal is not kept (a corrected retry must run); nor is an answer that sets a cookie (a session), since
    // a replay could not set it again.
    if (status < 200 || status >= 300 || res.getHeader('set-cookie') !== undefined) {
      void release();
      return send(body);
    }
    knex('idempotency_keys')
      .where({ scope, key })
      .update({ status, body: JSON.stringify(body ?? null), locked_until: knex.fn.now() })
      .catch((err: unknown) => logger.warn({ err }, 'could not store an idempotent answer'))
      .finally(() => send(body));
    return res;
  };
  // Answered without JSON (nothing we could replay): free the key. A client that went away after sending its whole
  // request is no reason: the handler still runs and stores its answer for the retry. One that went away before
  // its body arrived cannot have been acted on: free the key at once. A process that died leaves the lease to run out.
  const settle = () => {
    if (settled) return;
    settled = true;
    void release();
  };
  res.on('finish', settle);
  res.req.on('close', () => {
    if (!res.req.complete) settle();
  });
}

/**
 * The id of something a request creates. With an Idempotency-Key it is derived from the key, so even a retry
 * that runs again (its first attempt died with the process before the answer was stored) addresses the same
 * stream and the decider refuses a second create instead of making a duplicate.
 */
export function newIdFor(req: Request, purpose: string): string {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined || !VALID_KEY.test(key)) return randomUUID();
  const h = createHash('sha256')
    .update(`${scopeOf(req)}\n${key}\n${purpose}`)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50; // version 5-style (name-based)
  h[8] = (h[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
