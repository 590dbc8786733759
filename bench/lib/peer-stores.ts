/**
 * The three writers and readers bench/sections/peer-emmett.ts puts side by side, each on a database of its own on the
 * bench's server: our PostgresEventStore, Emmett's PostgreSQL event store, and a plain table written by raw INSERTs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { reactor } from '@event-driven-io/emmett';
import {
  getPostgreSQLEventStore,
  type PostgresEventStore as EmmettEventStore,
} from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import type { PostgresEventStore } from '@pawhaven/platform';
import {
  connectDatabase,
  migrate,
  platformMigrations,
  START,
  type ExpectedRevision,
} from '@pawhaven/platform';
import type { Cell } from './measure';
import { freshDatabase } from './postgres';
import { createRawEventsTable, EVENTS_PER_STREAM, payload } from './raw-insert';

/** The page size of every whole-log read (our readAll's default), so the three read the same pages. */
export const READ_PAGE = 1000;

/** The version of emmett-postgresql that runs: its package exports no package.json, so it is found beside its code. */
export function emmettVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@event-driven-io/emmett-postgresql');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * Emmett's driver (dumbo) replaces node-postgres's process-wide parsers of bigint and json(b) the first time it opens a
 * pool (bigint as BigInt, JSON through a reviver). Our pools and the raw baseline keep the default parsers (what the
 * app runs with), and `restore` puts them back for the sections that run after this one.
 */
export function keepDefaultParsers() {
  const saved = new Map([20, 114, 3802].map((oid) => [oid, pg.types.getTypeParser(oid)] as const));
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      saved.get(oid) ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  return {
    types,
    restore() {
      for (const [oid, parse] of saved) pg.types.setTypeParser(oid, parse);
    },
  };
}

export function poolOf(url: string, max: number, types?: pg.CustomTypesConfig): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, ...(types ? { types } : {}) });
  pool.on('error', () => {});
  return pool;
}

/** A new database with the platform's schema (migrated before Emmett touches the parsers knex reads with). */
export async function oursDatabase(connectionString: string, name: string): Promise<string> {
  const url = await freshDatabase(connectionString, name);
  const db = connectDatabase(url, { max: 2 });
  try {
    await migrate(db.knex, platformMigrations);
  } finally {
    await db.close();
  }
  return url;
}

/** A new database with Emmett's schema, created by its own migration now rather than on a measured first append. */
export async function emmettDatabase(connectionString: string, name: string): Promise<string> {
  const url = await freshDatabase(connectionString, name);
  const pool = poolOf(url, 2);
  const store = getPostgreSQLEventStore(url, { connectionOptions: { pool } });
  try {
    await store.schema.migrate();
  } finally {
    await store.close();
    await pool.end();
  }
  return url;
}

/** The baseline's table: the shape of an event row (bigint identity, text, jsonb), no checks. */
export async function rawDatabase(connectionString: string, name: string): Promise<string> {
  const url = await freshDatabase(connectionString, name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await createRawEventsTable(client);
  await client.end();
  return url;
}

/** Emmett's store on a pool of ours; its schema already exists, so it never migrates on its own. */
export const emmettStore = (url: string, pool: pg.Pool): EmmettEventStore =>
  getPostgreSQLEventStore(url, { connectionOptions: { pool }, schema: { autoMigration: 'None' } });

type Data = (w: number, i: number) => Record<string, unknown>;
const plain: Data = (_w, i) => payload(i);

/** One event per append with its exact expected revision, each writer on its own streams. */
export function oursCell(store: PostgresEventStore, writers: number, run: string, data = plain): Cell {
  const state = Array.from({ length: writers }, () => ({
    stream: 0,
    expected: 'no_stream' as ExpectedRevision,
  }));
  return {
    name: 'ours',
    workers: writers,
    op: async (w, i) => {
      const s = state[w]!;
      const stream = `bench-${run}-ours-${writers}w${w}-s${s.stream}`;
      const r = await store.append(stream, [{ type: 'PetListed', data: data(w, i) }], s.expected);
      if (r.nextRevision >= BigInt(EVENTS_PER_STREAM - 1)) {
        s.stream++;
        s.expected = 'no_stream';
      } else s.expected = r.nextRevision;
    },
  };
}

/** The same through Emmett: its stream version counts events (0n: no stream yet, checked by its streams table). */
export function emmettCell(store: EmmettEventStore, writers: number, run: string, data = plain): Cell {
  const state = Array.from({ length: writers }, () => ({ stream: 0, expected: 0n }));
  return {
    name: 'emmett',
    workers: writers,
    op: async (w, i) => {
      const s = state[w]!;
      const stream = `bench-${run}-emmett-${writers}w${w}-s${s.stream}`;
      const r = await store.appendToStream(stream, [{ type: 'PetListed', data: data(w, i) }], {
        expectedStreamVersion: s.expected,
      });
      if (r.nextExpectedStreamVersion >= BigInt(EVENTS_PER_STREAM)) {
        s.stream++;
        s.expected = 0n;
      } else s.expected = r.nextExpectedStreamVersion;
    },
  };
}

/** Appends a batch of events to a stream that already holds `before` of them (0: a new stream). */
export type AppendBatch = (stream: string, data: Record<string, unknown>[], before: number) => Promise<void>;

export const oursBatch =
  (store: PostgresEventStore): AppendBatch =>
  async (stream, data, before) => {
    const events = data.map((d) => ({ type: 'PetListed', data: d }));
    await store.append(stream, events, before === 0 ? 'no_stream' : BigInt(before - 1));
  };

export const emmettBatch =
  (store: EmmettEventStore): AppendBatch =>
  async (stream, data, before) => {
    const events = data.map((d) => ({ type: 'PetListed', data: d }));
    await store.appendToStream(stream, events, { expectedStreamVersion: BigInt(before) });
  };

export const rawBatch =
  (pool: pg.Pool): AppendBatch =>
  async (stream, data) => {
    await pool.query(
      `INSERT INTO bench_raw_events (stream_id, type, data) SELECT $1, 'PetListed', unnest($2::jsonb[])`,
      [stream, data.map((d) => JSON.stringify(d))],
    );
  };

/**
 * Fills a log with `events` events: `writers` concurrent writers, each on its own streams, `perAppend` events per
 * append. Concurrent, so transactions commit out of the order they took their positions in, as in production.
 */
export async function fillLog(append: AppendBatch, events: number, writers: number, perAppend: number) {
  const streams = Math.ceil(events / EVENTS_PER_STREAM);
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let s = w; s < streams; s += writers) {
        for (let before = 0; before < EVENTS_PER_STREAM; before += perAppend) {
          const data = Array.from({ length: perAppend }, (_, k) =>
            payload(s * EVENTS_PER_STREAM + before + k),
          );
          await append(`fill-s${s}`, data, before);
        }
      }
    }),
  );
}

/** Each reader answers the ids of the events it read, in its order (checked for skips and repeats afterwards). */
export async function readOurs(store: PostgresEventStore): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of store.readAll(START, { batchSize: READ_PAGE })) ids.push(e.eventId);
  return ids;
}

/**
 * Emmett has no readAll: its global log is read by a consumer, whose puller pages through emt_messages (the same
 * query its projections run; no index serves that order, so each page scans the table). A plain reactor keeps no
 * checkpoint, so this is reading only, with no pause between pages (its puller still waits 100 ms after the first).
 */
export async function readEmmett(store: EmmettEventStore): Promise<string[]> {
  const ids: string[] = [];
  const consumer = store.consumer({
    processors: [
      reactor({
        processorId: 'bench-read-all',
        startFrom: 'BEGINNING',
        eachMessage: (m) => {
          ids.push(String(m.metadata.messageId));
          return Promise.resolve();
        },
      }),
    ],
    pulling: { batchSize: READ_PAGE, pullingFrequencyInMs: 0 },
    stopWhen: { noMessagesLeft: true },
  });
  // Resolves once a page comes back short; close() is not called: it would close the store's pool.
  await consumer.start();
  return ids;
}

/** The baseline: the plain table read in id order, one keyset page at a time. */
export async function readRaw(pool: pg.Pool): Promise<string[]> {
  const ids: string[] = [];
  let after = '0';
  for (;;) {
    const { rows } = await pool.query<{ id: string; stream_id: string; type: string; data: unknown }>(
      'SELECT id, stream_id, type, data FROM bench_raw_events WHERE id > $1 ORDER BY id LIMIT $2',
      [after, READ_PAGE],
    );
    for (const r of rows) ids.push(r.id);
    if (rows.length < READ_PAGE) return ids;
    after = rows[rows.length - 1]!.id;
  }
}
