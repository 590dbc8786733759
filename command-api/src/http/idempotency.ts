import { createHash, hkdfSync, randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { personalDataOwners, personalDataRule, readPath } from '@pawhaven/contracts';
import {
  badRequest,
  conflict,
  DATABASE_UNAVAILABLE,
  defineProjection,
  HttpError,
  isEnvelope,
  logger,
  noteIfDatabaseUnavailable,
  openEnvelope,
  parseEnvelope,
  RETRY_AFTER_SECONDS,
  sealValue,
  type Database,
  type PersonalDataKeys,
  type TrailEvent,
  type UnitOfWork,
  type UnitsOfWork,
} from '@pawhaven/platform';

const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a key keeps its first answer. */
const KEEP_HOURS = 24;
const VALID_KEY = /^[\x21-\x7e]{1,200}$/;

const STILL_RUNNING =
  'The first request with this Idempotency-Key is still being processed. Try again in a moment.';
const OTHER_REQUEST = `This ${IDEMPOTENCY_HEADER} was already used for a different request`;
const ANSWER_GONE = 'This request was carried out already, but its answer can no longer be shown.';
const NOT_SAVED = 'Your change could not be saved just now. Please try again.';

/** An answer as kept: its content type and body text. */
type Answer = { type: string | null; body: string };
type Row = {
  fingerprint: string;
  status: number;
  persons: string[];
  /** A sealed Answer (an envelope), an Answer in clear (it holds nobody's data), or null (not replayable). */
  body: string | Answer | null;
};

/** Who the key belongs to: the signed-in user, else the client address (sign-up, sign-in). */
const scopeOf = (req: Request) => (req.auth ? `user:${req.auth.userId}` : `ip:${req.ip ?? 'unknown'}`);

const sha256 = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest();

/** The key's advisory lock: two requests with one key never run at the same time, in any process. */
const lockOf = (scope: string, key: string) => sha256('idempotency', scope, key).readBigInt64BE(0);

/** A UUID-shaped name from a digest (version 5-style, RFC 4122 variant). */
function uuidFrom(digest: Buffer): string {
  const h = Buffer.from(digest.subarray(0, 16));
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The multipart body's digest, set by `singleUpload` once multer has read it (fields and file bytes). */
const MULTIPART = Symbol('multipart digest');
/** A multipart request's claim, made by `singleUpload` once the body is read (see `idempotentRequests`). */
const CLAIM = Symbol('claim after the upload');
type WithIdempotency = Request & {
  [MULTIPART]?: string;
  [CLAIM]?: (next: (err?: unknown) => void) => Promise<void>;
};

/**
 * The same key must come back with the same request: method, path and body (JSON, or the multipart fields and file
 * bytes). Salted with the scope and key, so it confirms nothing about a body without the row.
 */
function fingerprintOf(req: Request, scope: string, key: string): string {
  const multipart = (req as WithIdempotency)[MULTIPART];
  const body =
    multipart !== undefined
      ? `multipart\n${multipart}`
      : req.is('application/json')
        ? `json\n${JSON.stringify(req.body ?? null)}`
        : '';
  return sha256(scope, key, req.method, req.originalUrl.split('?')[0]!, body).toString('base64url');
}

/**
 * Honours `Idempotency-Key` on every mutating request of the command side: a retry of a request whose answer was
 * lost gets that answer again (`Idempotent-Replayed: true`) instead of running again, however the first attempt
 * ended — a crash at any moment leaves either nothing or the answer — and the same key with a different request
 * (method, path, body) is refused 422.
 *
 * The first attempt runs in a unit of work (`UnitsOfWork`): its events and its answer commit in one transaction,
 * after the handler answered and before the answer is sent. The key is claimed with a transaction-scoped advisory
 * lock, so a retry while it runs gets 409 + Retry-After, and a retry after a crash that committed nothing runs at
 * once. Only 2xx answers without a cookie are kept: a refusal keeps its on-purpose events (a counted wrong code) and
 * nothing else, so a corrected retry runs; a session cookie could not be replayed.
 *
 * A multipart body is claimed once the route's upload has read it (`singleUpload`, the one way routes take files):
 * no connection is held while a phone uploads a picture, and its fingerprint covers the fields and the file. Until
 * then the request may not append (`UnitsOfWork.awaitingClaim`): a route that takes no upload refuses the body.
 *
 * Kept answers hold users' data (e-mails, texts, tokens): they are sealed with the keys of the people whose data
 * they hold (`sealAnswer`) and deleted with them (`idempotentAnswersShredder`).
 */
export function idempotentRequests(deps: {
  db: Database;
  units: UnitsOfWork;
  keys: PersonalDataKeys;
}): RequestHandler {
  const { units, keys } = deps;
  const { knex, pool } = deps.db;
  let lastSweep = 0;
  const sweep = () => {
    if (Date.now() - lastSweep < 60_000) return;
    lastSweep = Date.now();
    knex('idempotency_keys')
      .where('created_at', '<', knex.raw(`now() - interval '${KEEP_HOURS} hours'`))
      .delete()
      .catch((err: unknown) => logger.warn({ err }, 'could not sweep old idempotency keys'));
  };

  /** Claims the key and runs the first attempt, or answers a retry (replay, 409 while running, 422). */
  const claim = async (req: Request, res: Response, next: (err?: unknown) => void, key: string) => {
    const scope = scopeOf(req);
    const fingerprint = fingerprintOf(req, scope, key);
    const uow = await units.begin(lockOf(scope, key));
    let row: Row | null;
    if (!uow) {
      // Held by an attempt running now, or by one that committed a moment ago (its row is then visible).
      row = await storedAnswer((sql, values) => pool.query<Row>(sql, values), scope, key);
      if (!row) {
        res.setHeader('Retry-After', '1');
        throw conflict(STILL_RUNNING);
      }
    } else {
      try {
        row = await storedAnswer((sql, values) => uow.query<Row>(sql, values), scope, key);
      } catch (error) {
        await uow.rollback();
        throw error;
      }
      if (!row) return runFirstAttempt(req, res, next, { uow, units, scope, key, keys, fingerprint });
      await uow.rollback();
    }
    if (row.fingerprint !== fingerprint) throw new HttpError(422, OTHER_REQUEST);
    await replay(res, keys, row, scope, key);
  };

  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (!MUTATING.has(req.method) || key === undefined) return next();
    try {
      if (!VALID_KEY.test(key))
        throw badRequest(`${IDEMPOTENCY_HEADER} must be 1 to 200 visible ASCII characters (a UUID is ideal)`);
      sweep();
      if (!req.is('multipart/form-data')) return await claim(req, res, next, key);
      (req as WithIdempotency)[CLAIM] = (after) =>
        claim(req, res, after, key).catch((error: unknown) => after(error));
      units.awaitingClaim(() => next());
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Called by `singleUpload` once multer has read a multipart body: notes its digest (the fingerprint covers it), then
 * claims the key and goes on (or answers a retry).
 */
export function claimAfterUpload(
  req: Request,
  next: (err?: unknown) => void,
  parts: { fields: unknown; file?: { fieldname: string; originalname: string; buffer: Buffer } },
): void {
  const r = req as WithIdempotency;
  const claim = r[CLAIM];
  if (!claim) return next();
  const file = parts.file;
  r[MULTIPART] = JSON.stringify([
    parts.fields ?? null,
    file
      ? [file.fieldname, file.originalname, createHash('sha256').update(file.buffer).digest('base64')]
      : null,
  ]);
  void claim(next);
}

async function storedAnswer(
  query: (sql: string, values: unknown[]) => Promise<{ rows: Row[] }>,
  scope: string,
  key: string,
): Promise<Row | null> {
  const { rows } = await query(
    `SELECT fingerprint, status, persons, body FROM idempotency_keys
      WHERE scope = $1 AND key = $2 AND created_at >= now() - interval '${KEEP_HOURS} hours'`,
    [scope, key],
  );
  return rows[0] ?? null;
}

async function replay(res: Response, keys: PersonalDataKeys, row: Row, scope: string, key: string) {
  const answer = await openAnswer(keys, row, scope, key);
  if (!answer) throw conflict(ANSWER_GONE);
  res.setHeader('Idempotent-Replayed', 'true');
  if (answer.type) res.setHeader('Content-Type', answer.type);
  res.status(row.status).send(answer.body);
}

/** A first attempt: its unit of work, its key and the request's fingerprint, and where the keys are. */
type Attempt = { uow: UnitOfWork; scope: string; key: string; fingerprint: string; keys: PersonalDataKeys };

/**
 * Runs the first attempt in `uow` and holds its answer back until the answer (a 2xx one) is recorded and the unit
 * of work committed: `res.end` is where every answer ends (json, send, sendStatus and the error handler).
 */
function runFirstAttempt(
  req: Request,
  res: Response,
  next: (err?: unknown) => void,
  ctx: Attempt & { units: UnitsOfWork },
) {
  const { uow, units } = ctx;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let settled = false;
  let holding = false;
  res.end = ((...args: unknown[]) => {
    // While the answer waits for its commit, nothing else may end the response (the error handler of a handler
    // that threw after answering): the answer it waits for is what the client gets.
    if (holding) return res;
    if (settled) return end(...args);
    settled = holding = true;
    settle(req, res, ctx, args)
      .catch((err: unknown) => {
        logger.error({ err }, 'settling an idempotent request failed');
        return args;
      })
      .then((answer) => {
        holding = false;
        end(...answer);
      });
    return res;
  }) as Response['end'];
  units.run(uow, () => next());
}

/** Records a keepable answer, commits, and answers what is to be sent: the answer, or 503 if it was not saved. */
async function settle(
  req: Request,
  res: Response,
  { uow, scope, key, fingerprint, keys }: Attempt,
  args: unknown[],
): Promise<unknown[]> {
  const status = res.statusCode;
  const chunk = args[0];
  const body =
    typeof chunk === 'string'
      ? chunk
      : Buffer.isBuffer(chunk)
        ? chunk.toString('utf8')
        : chunk === undefined || typeof chunk === 'function'
          ? ''
          : null;
  const succeeded = status >= 200 && status < 300;
  // A refusal is not kept (a corrected retry must run); nor is an answer that sets a cookie (a session), since a
  // replay could not set it again.
  const keep = succeeded && res.getHeader('set-cookie') === undefined && body !== null && !res.headersSent;
  let why = NOT_SAVED;
  try {
    if (keep) {
      const type = res.getHeader('content-type');
      const answer: Answer = { type: typeof type === 'string' ? type : null, body };
      const sealed = await sealAnswer(keys, {
        answer,
        trail: uow.trail,
        requester: req.auth?.userId,
        scope,
        key,
      });
      if (sealed)
        await uow.query(
          `INSERT INTO idempotency_keys (scope, key, fingerprint, status, persons, body)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (scope, key) DO UPDATE
             SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, persons = EXCLUDED.persons,
                 body = EXCLUDED.body, created_at = now()`,
          [scope, key, fingerprint, status, sealed.persons, JSON.stringify(sealed.body)],
        );
    }
    // A refusal commits what it recorded on purpose (a counted wrong code).
    if (await uow.commit()) return args;
  } catch (err) {
    // The database gone at the commit (a restart, a failover) is told as every other request is told it.
    if (noteIfDatabaseUnavailable(err, 'request')) why = DATABASE_UNAVAILABLE;
    else logger.error({ err }, 'a request with an Idempotency-Key could not be committed');
    if (uow.open) await uow.rollback();
  }
  // Not committed, or the commit was not confirmed. A refusal goes out as it is; a success must not be taken as
  // done: a retry with the same key finds out (the answer replayed if the commit went through, a fresh run if not).
  if (!succeeded || res.headersSent) return args;
  return notSaved(res, why);
}

function notSaved(res: Response, why: string): unknown[] {
  const text = JSON.stringify({ message: why, error: why });
  res.statusCode = 503;
  res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.removeHeader('ETag');
  res.removeHeader('Set-Cookie');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  return [text];
}

/**
 * Whose personal data an answer holds: the signed-in requester, and the owner of every personal field (contracts'
 * PERSONAL_DATA) of the events the request read or appended whose value the answer contains — a sign-up's e-mail
 * (the person acted on, for anonymous requests), another user's name or text. `ownerless`: it contains a personal
 * value nobody owns (a visitor's contact message), which is then not kept replayable.
 *
 * Strings a handler takes from a read model rather than the log are not seen here, so a handler that answers with
 * another person's personal data takes it from the log (a conversation's ad: its pet's name).
 */
export function personsInAnswer(
  text: string,
  trail: readonly TrailEvent[],
  requester?: string,
): { persons: string[]; ownerless: boolean } {
  const persons = new Set<string>(requester ? [requester] : []);
  let ownerless = false;
  for (const e of trail) {
    const rule = personalDataRule(e.type);
    if (!rule) continue;
    const owners = personalDataOwners(rule, e);
    if (owners.length > 0 && owners.every((o) => persons.has(o))) continue;
    for (const f of rule.fields) {
      const value = readPath(e.data, f.path);
      if (typeof value !== 'string' || value === '' || isEnvelope(value)) continue;
      if (!text.includes(value) && !text.includes(JSON.stringify(value).slice(1, -1))) continue;
      for (const o of owners) persons.add(o);
      if (owners.length === 0) ownerless = true;
      break;
    }
  }
  return { persons: [...persons].sort(), ownerless };
}

const ANSWER_KEY_INFO = 'pawhaven idempotent answer v1';

/** One key from all of `persons`' keys: the answer opens only while every one of them exists. */
const answerKey = (personKeys: Buffer[], persons: string[]) =>
  Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.concat(personKeys),
      Buffer.alloc(0),
      `${ANSWER_KEY_INFO}\n${persons.join('\n')}`,
      32,
    ),
  );

/** What the envelope is bound to (its AAD): an answer opens only in its own row. */
const envelopeIdOf = (scope: string, key: string) => uuidFrom(sha256(ANSWER_KEY_INFO, scope, key));

/**
 * The answer as it is kept: sealed (AES-GCM, as personal fields in the log) with a key derived from the keys of
 * everyone whose data it holds, so deleting any one of them (the shredder destroys their key) leaves it unreadable;
 * in clear when it holds nobody's data; not replayable (body null) when one of them is deleted already or it holds
 * personal data nobody owns; not at all (null) for an anonymous request that recorded nothing.
 */
async function sealAnswer(
  keys: PersonalDataKeys,
  a: { answer: Answer; trail: readonly TrailEvent[]; requester?: string; scope: string; key: string },
): Promise<{ persons: string[]; body: string | Answer | null } | null> {
  const { persons, ownerless } = personsInAnswer(a.answer.body, a.trail, a.requester);
  if (ownerless) return { persons, body: null };
  if (persons.length === 0)
    // An anonymous request that recorded nothing can run again to the same effect: its answer (maybe personal data
    // nobody owns yet, like Google's e-mail before a sign-up) is not worth keeping in clear.
    return a.trail.some((e) => e.appended) ? { persons, body: a.answer } : null;
  const personKeys = await Promise.all(persons.map((p) => keys.keyForWrite(p)));
  if (personKeys.some((k) => k === null)) return { persons, body: null };
  const key = answerKey(
    personKeys.map((k) => k!.key),
    persons,
  );
  return { persons, body: sealValue(key, envelopeIdOf(a.scope, a.key), a.answer) };
}

async function openAnswer(
  keys: PersonalDataKeys,
  row: Row,
  scope: string,
  key: string,
): Promise<Answer | null> {
  if (row.body === null) return null;
  if (typeof row.body !== 'string') return row.body;
  const envelope = parseEnvelope(row.body);
  if (!envelope || envelope.keyId !== envelopeIdOf(scope, key)) return null;
  const { byUser } = await keys.lookup([], row.persons);
  const personKeys = row.persons.map((p) => byUser.get(p)?.key ?? null);
  if (personKeys.some((k) => k === null)) return null;
  try {
    return openEnvelope(answerKey(personKeys as Buffer[], row.persons), envelope) as Answer;
  } catch (err) {
    logger.error({ err }, 'a kept idempotent answer could not be opened');
    return null;
  }
}

/**
 * Deletes a deleted user's kept answers (`UserDeleted`): those of their own requests and those holding their data.
 * The shredder has destroyed their key by then or does so at once; this leaves no row of theirs either.
 */
export const idempotentAnswersShredder = defineProjection({
  name: 'idempotent-answers-shredder',
  tables: [],
  handles: ['UserDeleted'],
  async apply(tx, event) {
    const userId = (event.data as { userId?: unknown }).userId;
    if (typeof userId !== 'string' || userId === '') return;
    await tx('idempotency_keys')
      .where('scope', `user:${userId}`)
      .orWhereRaw('persons @> ARRAY[?]::text[]', [userId])
      .delete();
  },
});

/**
 * The id of something a request creates. With an Idempotency-Key it is derived from the key, so a retry that runs
 * again all the same (its answer is no longer kept: expired, or deleted with someone's data) addresses the same
 * stream and the decider refuses a second create instead of making a duplicate.
 */
export function newIdFor(req: Request, purpose: string): string {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined || !VALID_KEY.test(key)) return randomUUID();
  return uuidFrom(
    createHash('sha256')
      .update(`${scopeOf(req)}\n${key}\n${purpose}`)
      .digest(),
  );
}
