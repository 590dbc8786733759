/** A rebuild's end: catching up with the live checkpoint, then the swap (through shadows or in place). */
import type { Knex } from 'knex';
import type pg from 'pg';
import type { EventStore, LogPosition, RecordedEvent } from '../event-store/event-store';
import { comparePositions, START } from '../event-store/event-store';
import { PROJECTIONS_CHANNEL, readCheckpoint } from './checkpoints';
import type { Projection, ProjectionFold } from './projection';
import type { RebuildOptions, RebuildResult, Replayed } from './rebuild';
import type { ShadowTables } from './shadow-tables';
import { planInPlace, writeInPlace, type LiveSnapshot } from './write-in-place';

/** Throws once `signal` is aborted: called between batches, never inside the swap's transaction. */
export const checkStillWanted = (signal: AbortSignal | undefined) => {
  if (signal?.aborted) throw new Error('The rebuild was stopped: the app is shutting down');
};

/** Stop chasing the live checkpoint outside the swap once a round had no more than this many events to replay. */
const CLOSE_ENOUGH = 200;
const MAX_CHASE_ROUNDS = 20;

/** Replays `events` (which start right after `replayed.at`) into the shadow through `apply`, in short transactions. */
async function replayThroughApply(
  shadow: ShadowTables,
  events: AsyncIterable<RecordedEvent>,
  replayed: Replayed,
  opts: RebuildOptions,
  report: () => void,
): Promise<number> {
  const batchSize = opts.batchSize ?? 1000;
  const maxTransactionMs = opts.maxTransactionMs ?? 100;
  let count = 0;
  const flush = async (batch: RecordedEvent[]) => {
    for (let i = 0; i < batch.length;) {
      checkStillWanted(opts.signal);
      const end = await shadow.transaction(async (tx) => {
        const since = performance.now();
        let j = i;
        do await shadow.apply(tx, batch[j++]!);
        while (j < batch.length && performance.now() - since < maxTransactionMs);
        await shadow.assertOnlyShadowsWritten(tx);
        return j;
      });
      const last = batch[end - 1]!;
      replayed.at = { transactionId: last.transactionId, position: last.position };
      replayed.processed += end - i;
      count += end - i;
      i = end;
      report();
    }
  };
  let batch: RecordedEvent[] = [];
  for await (const event of events) {
    batch.push(event);
    if (batch.length >= batchSize) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await flush(batch);
  return count;
}

/**
 * The shadow holds the log up to `replayed.at`: follow the live checkpoint outside the lock until the gap is small,
 * then swap in one transaction holding the live checkpoint row.
 */
export async function catchUpAndSwap(
  knex: Knex,
  store: Pick<EventStore, 'readAll'>,
  projection: Projection,
  shadow: ShadowTables,
  replayed: Replayed,
  started: number,
  opts: RebuildOptions,
  report: () => void,
): Promise<RebuildResult> {
  const name = projection.name;
  const batchSize = opts.batchSize ?? 1000;
  // A live projector kept going meanwhile: follow its checkpoint outside the lock until the gap is small, so
  // the swap itself has little left to replay.
  for (let round = 0; round < MAX_CHASE_ROUNDS; round++) {
    const live = await readCheckpoint(knex, name);
    if (comparePositions(live, replayed.at) <= 0) break;
    const count = await replayThroughApply(
      shadow,
      store.readAll(replayed.at, { upTo: live, batchSize }),
      replayed,
      opts,
      report,
    );
    if (count <= CLOSE_ENOUGH) break;
  }
  await shadow.analyze();

  await ensureCheckpointRow(knex, name);
  let swapStarted = 0;
  const at = replayed.at;
  const swap = await shadow.transaction(async (tx) => {
    const { live } = await lockLiveCheckpoint(tx, projection);
    swapStarted = performance.now();
    let caughtUp = 0;
    if (comparePositions(live, at) > 0) {
      for await (const event of store.readAll(at, { upTo: live, batchSize })) {
        await shadow.apply(tx, event);
        caughtUp++;
      }
    }
    await shadow.assertOnlyShadowsWritten(tx);
    // The shadow now holds everything up to the live checkpoint, or further: the checkpoint never goes back.
    const final = comparePositions(live, at) > 0 ? live : at;
    const changedRows = await shadow.mergeIntoLive(tx);
    const eventsProcessed = replayed.processed + caughtUp;
    await storeRebuiltCheckpoint(tx, name, final, eventsProcessed);
    return { eventsProcessed, changedRows };
  });
  const swapMs = performance.now() - swapStarted;
  if (swap.eventsProcessed > replayed.processed) {
    replayed.processed = swap.eventsProcessed;
    report();
  }
  return resultOf(name, replayed, started, swapMs, swap.changedRows);
}

const resultOf = (
  name: string,
  replayed: Replayed,
  started: number,
  swapMs: number,
  changedRows: number,
): RebuildResult => {
  const seconds = (performance.now() - started) / 1000;
  return {
    name,
    processed: replayed.processed,
    seconds,
    eventsPerSecond: seconds > 0 ? replayed.processed / seconds : replayed.processed,
    swapMs,
    changedRows,
    foldThread: false,
  };
};

/**
 * Locks the projection's checkpoint row (the live projector's next batch waits) and answers where it is, and the
 * row's version (its `xmin`: which transaction wrote it last).
 */
async function lockLiveCheckpoint(
  tx: Knex.Transaction,
  projection: Projection,
): Promise<{ live: LogPosition; version: string | null }> {
  const { rows } = await tx.raw<{ rows: { transaction_id: string; position: string; version: string }[] }>(
    `SELECT transaction_id, position, xmin::text AS version FROM projection_checkpoints WHERE name = ? FOR UPDATE`,
    [projection.name],
  );
  const row = rows[0];
  const locked = row
    ? {
        live: { transactionId: BigInt(row.transaction_id), position: BigInt(row.position) },
        version: row.version,
      }
    : { live: START, version: null };
  if (projection.order !== 'stream') return locked;
  // Fed by the bus, partition by partition: a partition may have applied events past the checkpoint (the lowest
  // watermark), which the swapped-in rows must hold too, since the partition will not apply them again. The bus
  // waits on the same lock, so these stand still until the swap commits.
  const { rows: bus } = await tx.raw<{ rows: { tx: string; pos: string }[] }>(
    `SELECT applied_tx::text AS tx, applied_pos AS pos FROM bus_partitions
     ORDER BY applied_tx DESC, applied_pos DESC LIMIT 1`,
  );
  const ahead = bus[0] && { transactionId: BigInt(bus[0].tx), position: BigInt(bus[0].pos) };
  // Partitions change rows without moving the checkpoint row: rows read ahead are never trusted (no version).
  return { live: ahead && comparePositions(ahead, locked.live) > 0 ? ahead : locked.live, version: null };
}

/** The row must exist for FOR UPDATE to hold anything (a projection that never ran has none yet). */
const ensureCheckpointRow = (knex: Knex, name: string) =>
  knex.raw(`INSERT INTO projection_checkpoints (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, [name]);

/** Stores the rebuilt model's checkpoint (clearing any last error) and tells every process it moved. */
async function storeRebuiltCheckpoint(
  tx: Knex.Transaction,
  name: string,
  final: LogPosition,
  eventsProcessed: number,
): Promise<void> {
  await tx.raw(
    `UPDATE projection_checkpoints
     SET transaction_id = ?::text::xid8, position = ?, events_processed = ?, updated_at = now(),
         last_error = NULL, last_error_at = NULL
     WHERE name = ?`,
    [final.transactionId.toString(), final.position.toString(), eventsProcessed, name],
  );
  await tx.raw('SELECT pg_notify(?, ?)', [
    PROJECTIONS_CHANNEL,
    JSON.stringify({
      names: [name],
      transactionId: final.transactionId.toString(),
      position: final.position.toString(),
    }),
  ]);
}

/**
 * The fold path's usual write (`write-in-place.ts`): the fold follows the live checkpoint (events committed since
 * the read, fed to the fold in memory), then one transaction holding the checkpoint row compares the live tables
 * with the fold's rows and writes only the rows that differ. Null when the projection's tables hold a column the
 * comparison cannot handle: the caller then goes through shadow copies.
 */
export async function rebuildInPlace(
  knex: Knex,
  store: Pick<EventStore, 'readAll'>,
  projection: Projection,
  fold: ProjectionFold,
  replayed: Replayed,
  started: number,
  opts: RebuildOptions,
  report: () => void,
  /** The live rows read ahead (`readLiveAhead`): used if the checkpoint row did not change since. */
  ahead?: Promise<LiveSnapshot | null>,
): Promise<RebuildResult | null> {
  const { name } = projection;
  const connection = (await knex.client.acquireRawConnection()) as pg.Client;
  try {
    const plans = await planInPlace(knex, connection, projection);
    if (!plans) return null;
    const handled = new Set(projection.handles);
    const feed = async (upTo: LogPosition) => {
      let count = 0;
      for await (const event of store.readAll(replayed.at, { upTo, batchSize: opts.batchSize ?? 1000 })) {
        if (handled.has(event.type)) fold.apply(event);
        replayed.at = { transactionId: event.transactionId, position: event.position };
        replayed.processed++;
        if ((++count & 1023) === 0) {
          checkStillWanted(opts.signal);
          report();
        }
      }
      report();
      return count;
    };
    // A live projector kept going meanwhile: follow it outside the lock until the gap is small.
    for (let round = 0; round < MAX_CHASE_ROUNDS; round++) {
      const live = await readCheckpoint(knex, name);
      if (comparePositions(live, replayed.at) <= 0) break;
      if ((await feed(live)) <= CLOSE_ENOUGH) break;
    }
    checkStillWanted(opts.signal);
    await ensureCheckpointRow(knex, name);
    const snapshot = (await ahead) ?? null;
    let swapStarted = 0;
    const changedRows = await knex.transaction(
      async (tx) => {
        const { live, version } = await lockLiveCheckpoint(tx, projection);
        swapStarted = performance.now();
        if (comparePositions(live, replayed.at) > 0) await feed(live);
        const unchanged = snapshot && snapshot.version === version ? snapshot : null;
        const changed = await writeInPlace(tx, connection, projection, plans, fold.rows(), unchanged);
        // The model now holds everything up to the live checkpoint, or further: the checkpoint never goes back.
        await storeRebuiltCheckpoint(tx, name, replayed.at, replayed.processed);
        return changed;
      },
      { connection },
    );
    const swapMs = performance.now() - swapStarted;
    // Many rows written (a first build, a model repaired): fresh statistics now, as autovacuum would give them later,
    // for the app's query plans and for the next rebuild's choice of what its fold thread takes.
    if (changedRows >= ANALYZE_FROM_ROWS)
      await connection.query(`ANALYZE ${plans.map((p) => p.table.qualified).join(', ')}`);
    return resultOf(name, replayed, started, swapMs, changedRows);
  } finally {
    await knex.client.destroyRawConnection(connection).catch(() => {});
  }
}

/** Rows an in-place write must change for its tables to be analyzed right after. */
const ANALYZE_FROM_ROWS = 10_000;
