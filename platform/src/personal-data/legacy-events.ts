import { PERSONAL_DATA, PERSONAL_STREAM_PREFIXES, personalDataRule } from '@pawhaven/contracts';
import type pg from 'pg';
import { sealPersonalFields, storedStreamId } from './encrypting-event-store';
import type { PersonalDataKeys } from './key-store';

export const LEGACY_ENCRYPTION = 'encrypt-personal-fields-v1';

type Row = {
  position: string;
  stream_id: string;
  type: string;
  data: unknown;
  metadata: { actorId?: string };
};

export type LegacyEncryptionResult = { alreadyDone: boolean; eventsChanged: number };

/**
 * The one-time rewrite of the log (docs/decisions.md): events recorded before crypto-shredding get their personal
 * fields sealed in place (or the placeholder, for a person already forgotten) and their personal stream ids
 * pseudonymised. Runs at start, in batches that each commit with their progress, so a crash resumes where it
 * stopped; a second process waits on the progress row; once finished it is recorded and costs one query.
 * Readers meanwhile read the legacy plaintext through EncryptingEventStore.
 */
export async function encryptLegacyPersonalData(
  pool: pg.Pool,
  keys: PersonalDataKeys,
  opts: { batchSize?: number } = {},
): Promise<LegacyEncryptionResult> {
  const batchSize = opts.batchSize ?? 500;
  const types = Object.keys(PERSONAL_DATA).filter((t) => personalDataRule(t));
  await pool.query(`INSERT INTO personal_data_migrations (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [
    LEGACY_ENCRYPTION,
  ]);
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
      const { rows } = await client.query<Row>(
        `SELECT position, stream_id, type, data, metadata FROM events
         WHERE position > $1
           AND (type = ANY($2::text[]) OR (stream_id LIKE ANY($3::text[]) AND stream_id NOT LIKE ANY($4::text[])))
         ORDER BY position LIMIT $5`,
        [
          progress[0]!.position,
          types,
          PERSONAL_STREAM_PREFIXES.map((p) => `${p}%`),
          PERSONAL_STREAM_PREFIXES.map((p) => `${p}sha256:%`),
          batchSize,
        ],
      );
      const changed: { position: string; data: string; streamId: string }[] = [];
      for (const r of rows) {
        const sealed = await sealPersonalFields(keys, r.stream_id, r);
        const streamId = storedStreamId(r.stream_id);
        if (sealed !== r || streamId !== r.stream_id)
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
