import { createHash, createHmac, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { PERSONAL_STREAM_PREFIXES, PSEUDONYM_MARK } from '@pawhaven/contracts';
import { StartError } from '../embedded/start-error';

/** A value as the log keeps it when it must be found again but not read: the mark, then 64 hex digits. */
const PSEUDONYM = new RegExp(`^${PSEUDONYM_MARK}[0-9a-f]{64}$`);
/** How the first version of the e-mail claims stored an address: its unsalted sha256 (re-keyed at start). */
const UNSALTED = /^sha256:([0-9a-f]{64})$/;

/**
 * Keyed hashes of what identifies a person but must still be found again: e-mail addresses and username keys in
 * claim stream ids, and the username keys in events. HMAC-SHA256 under a server secret, so a copy of the log alone
 * cannot confirm a guessed address or name (an unsalted digest could: hash the guess, look it up).
 *
 * The hash is taken over the value's sha256, not the value itself: e-mail claims were stored under that digest
 * before, and the start-time migration re-keys them without ever knowing the address (a deleted person's cannot be
 * read any more). Same value, same pseudonym: claims keep working exactly as before.
 */
export class Pseudonyms {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('the pseudonym secret is at least 32 characters');
    this.key = Buffer.from(secret, 'utf8');
  }

  /** The value's pseudonym, `hmac:{64 hex}`. Always hashes: the caller knows it holds a readable value. */
  of(value: string): string {
    return this.ofDigest(createHash('sha256').update(value, 'utf8').digest('hex'));
  }

  /** Whether a value is a pseudonym already (exactly the shape `of` makes). */
  static is(value: unknown): value is string {
    return typeof value === 'string' && PSEUDONYM.test(value);
  }

  /**
   * The id a stream is stored under: a stream whose id holds personal data (PERSONAL_STREAM_PREFIXES) is kept under
   * the pseudonym of the rest of its id; one stored under the first version's unsalted digest is re-keyed; any other
   * id, and one that is a pseudonym already, passes unchanged.
   */
  streamId(streamId: string): string {
    const prefix = personalStreamPrefix(streamId);
    if (prefix === undefined) return streamId;
    const rest = streamId.slice(prefix.length);
    if (Pseudonyms.is(rest)) return streamId;
    const unsalted = UNSALTED.exec(rest);
    return `${prefix}${unsalted ? this.ofDigest(unsalted[1]!) : this.of(rest)}`;
  }

  /** A fingerprint of the secret (an HMAC of a fixed text), so a start with another secret is refused. */
  fingerprint(): string {
    return createHmac('sha256', this.key).update('pawhaven pseudonym secret check').digest('hex');
  }

  private ofDigest(hexDigest: string): string {
    return `${PSEUDONYM_MARK}${createHmac('sha256', this.key).update(hexDigest, 'utf8').digest('hex')}`;
  }
}

/** The personal prefix a stream id starts with (the first listed that matches), or undefined. */
export const personalStreamPrefix = (streamId: string): string | undefined =>
  PERSONAL_STREAM_PREFIXES.find((p) => streamId.startsWith(p));

const SECRET_ROW = 'pseudonym';
const FINGERPRINT_ROW = 'pseudonym-fingerprint';

/**
 * The pseudonym secret: PSEUDONYM_SECRET from the environment, or one generated on first start and kept in the
 * database (like the JWT secret). A backup holding the database's copy can still confirm a guess, so a production
 * deployment supplies it from outside.
 *
 * The secret's fingerprint is kept on first use: every claim was made under that secret, and another one would
 * free every address and name at once (and let look-alikes in). A start with a different secret is refused. Once
 * the secret comes from outside, the database's generated copy is removed.
 */
export async function resolvePseudonyms(pool: pg.Pool, fromEnv?: string): Promise<Pseudonyms> {
  if (!fromEnv)
    await pool.query(
      `INSERT INTO runtime_secrets (name, value) SELECT $1, $2
       WHERE NOT EXISTS (SELECT 1 FROM runtime_secrets WHERE name = $3)
       ON CONFLICT (name) DO NOTHING`,
      [SECRET_ROW, randomBytes(48).toString('base64url'), FINGERPRINT_ROW],
    );
  const { rows } = await pool.query<{ name: string; value: string }>(
    `SELECT name, value FROM runtime_secrets WHERE name = ANY($1::text[])`,
    [[SECRET_ROW, FINGERPRINT_ROW]],
  );
  const stored = new Map(rows.map((r) => [r.name, r.value]));
  const secret = fromEnv ?? stored.get(SECRET_ROW);
  if (!secret)
    throw new StartError(
      'PSEUDONYM_SECRET is not set, and this database was set up with one from outside.',
      'Start with the same PSEUDONYM_SECRET as before: e-mail and username claims were made with it.',
      { reason: 'config' },
    );
  const pseudonyms = new Pseudonyms(secret);
  const fingerprint = pseudonyms.fingerprint();
  await pool.query(
    `INSERT INTO runtime_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
    [FINGERPRINT_ROW, fingerprint],
  );
  const { rows: kept } = await pool.query<{ value: string }>(
    `SELECT value FROM runtime_secrets WHERE name = $1`,
    [FINGERPRINT_ROW],
  );
  if (kept[0]?.value !== fingerprint)
    throw new StartError(
      'PSEUDONYM_SECRET is not the secret this database was set up with.',
      stored.has(SECRET_ROW)
        ? "Leave PSEUDONYM_SECRET unset, or set it to the generated one: SELECT value FROM runtime_secrets WHERE name = 'pseudonym'."
        : 'Start with the same PSEUDONYM_SECRET as before: e-mail and username claims were made with it.',
      { reason: 'config' },
    );
  if (fromEnv && stored.has(SECRET_ROW))
    await pool.query(`DELETE FROM runtime_secrets WHERE name = $1`, [SECRET_ROW]);
  return pseudonyms;
}
