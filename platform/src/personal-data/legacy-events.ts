import { PERSONAL_DATA, PERSONAL_STREAM_PREFIXES, personalDataRule } from '@pawhaven/contracts';
import type pg from 'pg';
import { resealPersonalFields, sealPersonalFields } from './encrypting-event-store';
import type { PersonalDataKeys } from './key-store';
import { resolvePseudonyms, type Pseudonyms } from './pseudonyms';

/**
 * The rewrite's name in `personal_data_migrations`. Version 1 sealed the fields listed then and kept e-mail claims
 * under an unsalted digest; version 2 also seals usernames, password hashes and the pet's name, age and breed of
 * ads, keeps every claim stream under a keyed hash, and seals private messages again for both members of their conversation. It redoes everything
 * version 1 did (a field already sealed stays as it is), so a log that never ran version 1 needs only this.
 */
export const LEGACY_ENCRYPTION = 'seal-personal-data-v2';

type Row = {
  position: string;
  stream_id: string;
  type: string;
  data: unknown;
  metadata: { actorId?: string };
};

/**
 * What a context rewrites in its own old events before they are sealed (the accounts' readable username keys
 * become keyed hashes): `apply` answers the new data, or the same object when nothing changes. It must be
 * idempotent, as a batch may be rewritten again after a crash.
 */
export type LegacyRewrite = {
  types: readonly string[];
  apply(event: { streamId: string; type: string; data: unknown }): unknown;
};

export type LegacyEncryptionResult = { alreadyDone: boolean; eventsChanged: number };

/**
 * The one-time rewrite of the log (docs/decisions.md): events recorded before their fields were listed as personal
 * get those fields sealed in place (or the placeholder, for a person already forgotten), `rewrite` is applied, and
 * streams whose ids hold personal data are renamed to their pseudonyms (claim streams: `Pseudonyms.streamId`).
 * Runs at start, before anything is served, in batches that each commit with their progress, so a crash resumes
 * where it stopped; a second process waits on the progress row and then takes the next batch; once finished it is
 * recorded and costs one query. Readers meanwhile read legacy plaintext through EncryptingEventStore.
 */
export async function encryptLegacyPersonalData(
  pool: pg.Pool,
  keys: PersonalDataKeys,
  opts: { batchSize?: number; pseudonyms?: Pseudonyms; rewrite?: LegacyRewrite } = {},
): Promise<LegacyEncryptionResult> {
  const batchSize = opts.batchSize ?? 500;
  const types = [
    ...new Set([
      ...Object.keys(PERSONAL_DATA).filter((t) => personalDataRule(t)),
      ...(opts.rewrite?.types ?? []),
    ]),
  ];
  await pool.query(`INSERT INTO personal_data_migrations (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [
    LEGACY_ENCRYPTION,
  ]);
  let pseudonyms = opts.pseudonyms;
  let eventsChanged = 0;
  for (let first = true; ; first = false) {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: progress } = await client.query<{ position: string; finished_at: Date | null }>(
        `SELECT position, finished_at FROM personal_data_migrations WHERE name = $1 FOR UPDATE`,
        [LEGACY_ENCRYPTION],
      );
      if (progress[0]!.finished_at) {
        await client.query('COMMIT');
        return { alreadyDone: first, eventsChanged };
      }
      pseudonyms ??= await resolvePseudonyms(pool);
      // Every event of a personal stream (claims: few), and every event of a type that has something to seal.
      const { rows } = await client.query<Row>(
        `SELECT position, stream_id, type, data, metadata FROM events
         WHERE position > $1 AND (type = ANY($2::text[]) OR stream_id LIKE ANY($3::text[]))
         ORDER BY position LIMIT $4`,
        [progress[0]!.position, types, PERSONAL_STREAM_PREFIXES.map((p) => `${p}%`), batchSize],
      );
      const changed: { position: string; data: string; streamId: string }[] = [];
      for (const r of rows) {
        const data = opts.rewrite?.types.includes(r.type)
          ? opts.rewrite.apply({ streamId: r.stream_id, type: r.type, data: r.data })
          : r.data;
        const resealed = await resealPersonalFields(keys, {
          eventId: '',
          streamId: r.stream_id,
          streamRevision: 0n,
          type: r.type,
          data,
          metadata: r.metadata,
          position: BigInt(r.position),
          transactionId: 0n,
          createdAt: new Date(0),
        });
        const sealed = await sealPersonalFields(keys, r.stream_id, resealed);
        const streamId = pseudonyms.streamId(r.stream_id);
        if (sealed.data !== r.data || streamId !== r.stream_id)
          changed.push({ position: r.position, data: JSON.stringify(sealed.data), streamId });
      }
      if (changed.length > 0)
        await client.query(
          `UPDATE events e SET data = u.data, stream_id = u.stream_id
           FROM unnest($1::bigint[], $2::jsonb[], $3::text[]) AS u(position, data, stream_id)
           WHERE e.position = u.position`,
          [changed.map((c) => c.position), changed.map((c) => c.data), changed.map((c) => c.streamId)],
        );
      eventsChanged += changed.length;
      const last = rows[rows.length - 1];
      await client.query(
        `UPDATE personal_data_migrations
         SET position = COALESCE($2::bigint, position), events = events + $3,
             finished_at = CASE WHEN $4::boolean THEN now() END
         WHERE name = $1`,
        [LEGACY_ENCRYPTION, last?.position ?? null, changed.length, rows.length < batchSize],
      );
      await client.query('COMMIT');
      if (rows.length < batchSize) return { alreadyDone: false, eventsChanged };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
