import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { logger } from '../logger';
import { newDataKey, pairKey } from './envelope';

/** Sent (with the user id) when a key is destroyed: every process drops it from its cache. */
export const FORGOTTEN_CHANNEL = 'pawhaven_personal_data_forgotten';

/** A user's key as a reader sees it: `key` null once destroyed (or, for `byUser`, when none was ever made). */
export type KeyState = { userId: string; keyId: string | null; key: Buffer | null; destroyed: boolean };

type Row = { user_id: string; key_id: string; key: Buffer | null; destroyed_at: Date | null };

/** Destroys a user's key, leaving a tombstone (also when none was made yet, so none ever will be); notifies all. */
const destroySql = (userId: string, keyId: string) => `
  WITH gone AS (
    INSERT INTO personal_data_keys (user_id, key_id, key, destroyed_at)
    VALUES (${userId}, ${keyId}::uuid, NULL, now())
    ON CONFLICT (user_id) DO UPDATE
      SET key = NULL, destroyed_at = COALESCE(personal_data_keys.destroyed_at, now())
    RETURNING user_id
  )
  SELECT pg_notify('${FORGOTTEN_CHANNEL}', user_id) FROM gone`;

/**
 * Destroys a user's key inside a transaction (the shredder projection: in the same transaction as its checkpoint).
 * The notification is delivered at commit, never for a rollback.
 */
export async function destroyPersonalDataKey(db: Knex | Knex.Transaction, userId: string): Promise<void> {
  await db.raw(destroySql('?', '?'), [userId, randomUUID()]);
}

/**
 * The per-user keys (table `personal_data_keys`), with a bounded in-memory cache. Several processes share one
 * database, so the cache is only trusted while this process LISTENs for destroyed keys: a notification evicts the
 * user, a lost listening connection empties the whole cache, and a lookup that raced a notification is not cached.
 * A destroyed key is thus never used again here once its notification arrived (milliseconds after the commit);
 * a process started later never had it.
 */
export class PersonalDataKeys {
  private readonly byUser = new Map<string, KeyState>();
  private readonly userOfKey = new Map<string, string>();
  /** Keys derived for pairs (`pairKey`), by pair id: deriving one for every message of a rebuild would cost seconds. */
  private readonly pairs = new Map<string, Buffer>();
  private listener?: pg.Client;
  private listening?: Promise<boolean>;
  /** Bumped on every notification and lost connection: a lookup begun under an older one is not cached. */
  private generation = 0;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly opts: { maxCached?: number } = {},
  ) {}

  /** The user's key for writing, created on first need; null when it was destroyed (write the placeholder). */
  async keyForWrite(userId: string): Promise<{ keyId: string; key: Buffer } | null> {
    const cached = await this.cachedByUser(userId);
    if (cached?.key && cached.keyId) return { keyId: cached.keyId, key: cached.key };
    if (cached?.destroyed) return null;
    const generation = await this.startLookup();
    await this.pool.query(
      `INSERT INTO personal_data_keys (user_id, key_id, key) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING`,
      [userId, randomUUID(), newDataKey()],
    );
    const [state] = await this.load([], [userId], generation);
    return state?.key && state.keyId ? { keyId: state.keyId, key: state.key } : null;
  }

  /**
   * The states of these keys (by key id) and users (by user id) in one round trip for whatever the cache lacks.
   * Answers a map by key id and one by user id; a user without any row is reported as not destroyed, key null.
   */
  async lookup(
    keyIds: Iterable<string>,
    userIds: Iterable<string>,
  ): Promise<{ byKey: Map<string, KeyState>; byUser: Map<string, KeyState> }> {
    const byKey = new Map<string, KeyState>();
    const byUser = new Map<string, KeyState>();
    const missingKeys: string[] = [];
    const missingUsers: string[] = [];
    const trusted = await this.ensureListening();
    for (const keyId of new Set(keyIds)) {
      const userId = trusted ? this.userOfKey.get(keyId) : undefined;
      const state = userId === undefined ? undefined : this.touch(userId);
      if (state) byKey.set(keyId, state);
      else missingKeys.push(keyId);
    }
    for (const userId of new Set(userIds)) {
      const state = trusted ? this.touch(userId) : undefined;
      if (state) byUser.set(userId, state);
      else missingUsers.push(userId);
    }
    if (missingKeys.length + missingUsers.length > 0) {
      const generation = await this.startLookup();
      for (const state of await this.load(missingKeys, missingUsers, generation)) {
        if (state.keyId) byKey.set(state.keyId, state);
        byUser.set(state.userId, state);
      }
      for (const userId of missingUsers)
        if (!byUser.has(userId)) byUser.set(userId, { userId, keyId: null, key: null, destroyed: false });
    }
    return { byKey, byUser };
  }

  /**
   * The key of the pair `keyId` made of these two keys, derived once and then kept. The caller has just looked both
   * keys up (a destroyed one is never passed), and a pair id names these two keys only; a destroyed key drops them
   * all anyway.
   */
  pairKeyOf(keyId: string, first: Buffer, second: Buffer): Buffer {
    let key = this.pairs.get(keyId);
    if (!key) {
      key = pairKey(first, second, keyId);
      if (this.pairs.size >= (this.opts.maxCached ?? 10_000)) this.pairs.clear();
      this.pairs.set(keyId, key);
    }
    return key;
  }

  /** The keys' database, for a thread opening fields too (`EncryptingEventStore.openerSource`); null if unknown. */
  connectionString(): string | null {
    return (this.pool.options as { connectionString?: string }).connectionString ?? null;
  }

  /** Destroys the user's key for good (crypto-shredding) and forgets it here at once. */
  async forget(userId: string): Promise<void> {
    await this.pool.query(destroySql('$1', '$2'), [userId, randomUUID()]);
    this.evict(userId);
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clear();
    if (this.listener) await this.listener.end().catch(() => {});
  }

  private async cachedByUser(userId: string): Promise<KeyState | undefined> {
    return (await this.ensureListening()) ? this.touch(userId) : undefined;
  }

  /** The generation a lookup starts under; only while listening is its answer cached. */
  private async startLookup(): Promise<number | null> {
    return (await this.ensureListening()) ? this.generation : null;
  }

  private async load(keyIds: string[], userIds: string[], generation: number | null): Promise<KeyState[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT user_id, key_id, key, destroyed_at FROM personal_data_keys
       WHERE key_id = ANY($1::uuid[]) OR user_id = ANY($2::text[])`,
      [keyIds, userIds],
    );
    const states = rows.map((r): KeyState => ({
      userId: r.user_id,
      keyId: r.key_id,
      key: r.key,
      destroyed: r.destroyed_at !== null,
    }));
    // A notification that arrived while we read may concern these rows: use them this once, cache nothing.
    if (generation !== null && generation === this.generation && !this.closed)
      for (const s of states) this.remember(s);
    return states;
  }

  private touch(userId: string): KeyState | undefined {
    const state = this.byUser.get(userId);
    if (state) {
      // Least recently used goes first: re-insert to move it to the end.
      this.byUser.delete(userId);
      this.byUser.set(userId, state);
    }
    return state;
  }

  private remember(state: KeyState): void {
    this.byUser.delete(state.userId);
    this.byUser.set(state.userId, state);
    if (state.keyId) this.userOfKey.set(state.keyId, state.userId);
    const max = this.opts.maxCached ?? 10_000;
    while (this.byUser.size > max) {
      const oldest = this.byUser.keys().next().value as string;
      this.evict(oldest);
    }
  }

  private evict(userId: string): void {
    const state = this.byUser.get(userId);
    this.byUser.delete(userId);
    if (state?.keyId) this.userOfKey.delete(state.keyId);
  }

  private clear(): void {
    this.generation++;
    this.byUser.clear();
    this.userOfKey.clear();
    this.pairs.clear();
  }

  /** True while this process hears every destroyed key (the cache may be used); connects on first need. */
  private ensureListening(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    this.listening ??= this.connect().then(
      () => true,
      (error: unknown) => {
        logger.warn({ err: error }, 'personal-data keys: cannot LISTEN; keys are read uncached');
        this.listening = undefined;
        return false;
      },
    );
    return this.listening;
  }

  private async connect(): Promise<void> {
    const connectionString = (this.pool.options as { connectionString?: string }).connectionString;
    if (!connectionString) throw new Error('PersonalDataKeys needs a pool created from a connection string');
    const client = new pg.Client({ connectionString });
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = undefined; // the next lookup reconnects; until then nothing cached is trusted
      this.clear();
      client.end().catch(() => {});
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      this.generation++;
      if (n.payload) this.evict(n.payload);
      this.pairs.clear(); // rare (a deletion); which pairs the key was in is not worth indexing
    });
    await client.connect();
    try {
      await client.query(`LISTEN ${FORGOTTEN_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('closed');
    }
    this.listener = client;
  }
}
