import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { NewEvent } from './event-store';
import type { SlowAppend } from './event-store.contract';

/** A transaction on its own connection that inserts the events now (taking positions) and commits later. */
export async function beginSlowAppend(
  connectionString: string,
  streamId: string,
  events: NewEvent[],
): Promise<SlowAppend> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  const { rows } = await client.query<{ position: string; transaction_id: string }>(
    `INSERT INTO events (stream_id, stream_revision, event_id, type, data, metadata)
     SELECT $1, e.ordinality - 1, e.event_id, e.type, e.data, e.metadata
     FROM unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS e(event_id, type, data, metadata, ordinality)
     ORDER BY e.ordinality
     RETURNING position, transaction_id`,
    [
      streamId,
      events.map((e) => e.eventId ?? randomUUID()),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data ?? {})),
      events.map((e) => JSON.stringify(e.metadata ?? {})),
    ],
  );
  const last = rows[rows.length - 1]!;
  const finish = async (sql: string) => {
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    position: BigInt(last.position),
    transactionId: BigInt(last.transaction_id),
    // Wakes subscribers the way a committed append does (a NOTIFY sent in a transaction goes out at COMMIT).
    commit: () => finish(`SELECT pg_notify('pawhaven_events', ''); COMMIT`),
    rollback: () => finish('ROLLBACK'),
  };
}
