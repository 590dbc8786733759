import type pg from 'pg';
import type { RecordedEvent } from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { withPersonalDataEncryption, type EncryptingEventStore } from '../personal-data';

/**
 * The event store as the app builds it (PostgreSQL with personal fields sealed, crypto-shredding). Tests that append,
 * replay or rebuild next to a running app use this one: a bare PostgresEventStore would read sealed fields as their
 * envelopes (`pii:v1:…`) and write those into read models.
 */
export const testEventStore = (db: { pool: pg.Pool }): EncryptingEventStore =>
  withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);

/** A stream's events as the app reads them (personal fields opened), for assertions on what was recorded. */
export async function recordedEvents(
  db: { pool: pg.Pool },
  streamId: string,
): Promise<Pick<RecordedEvent, 'type' | 'data' | 'metadata' | 'streamRevision' | 'position'>[]> {
  const store = testEventStore(db);
  try {
    const out: Pick<RecordedEvent, 'type' | 'data' | 'metadata' | 'streamRevision' | 'position'>[] = [];
    for await (const e of store.readStream(streamId))
      out.push({
        type: e.type,
        data: e.data,
        metadata: e.metadata,
        streamRevision: e.streamRevision,
        position: e.position,
      });
    return out;
  } finally {
    await store.close(); // its LISTEN connections only: the pool is the caller's
  }
}
