import type pg from 'pg';
import type { Cell } from './measure';

/** A writer moves to a new stream after this many events, like the aggregates of the app. */
export const EVENTS_PER_STREAM = 100;

/** The event every append bench writes (the baseline stores the same JSON). */
export const payload = (i: number) => ({
  petId: `pet-${i}`,
  name: 'Bilo',
  species: 'cat',
  city: 'Lahore',
  n: i,
});

/** The baseline's table: the shape of an event row (bigint identity, text, jsonb), no checks, made afresh. */
export async function createRawEventsTable(client: pg.Client): Promise<void> {
  await client.query(`
    DROP TABLE IF EXISTS bench_raw_events;
    CREATE TABLE bench_raw_events (
      id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      stream_id text NOT NULL,
      type      text NOT NULL,
      data      jsonb NOT NULL
    )`);
}

/** The baseline: a single-row INSERT of the same event, every writer on its own streams. */
export function rawCell(pool: pg.Pool, writers: number, run: string): Cell {
  return {
    name: 'raw INSERT',
    workers: writers,
    op: async (w, i) => {
      await pool.query('INSERT INTO bench_raw_events (stream_id, type, data) VALUES ($1, $2, $3)', [
        `bench-${run}-${writers}w${w}-s${Math.floor(i / EVENTS_PER_STREAM)}`,
        'PetListed',
        JSON.stringify(payload(i)),
      ]);
    },
  };
}
