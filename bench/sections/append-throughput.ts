import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  PostgresEventStore,
  withPersonalDataEncryption,
  type EventStore,
  type ExpectedRevision,
} from '@pawhaven/platform';
import { measureInterleaved, round, type Cell } from '../lib/measure';
import { createRawEventsTable, EVENTS_PER_STREAM, payload, rawCell } from '../lib/raw-insert';
import type { BenchContext, BenchRow, BenchSection } from '../lib/types';

const WRITERS = [1, 4, 16];

/** The same kind of pool on both sides: one connection per writer, plus one (the store's NOTIFY). */
function poolFor(ctx: BenchContext, writers: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: ctx.connectionString, max: writers + 1 });
  pool.on('error', () => {});
  return pool;
}

/** A chat message: one personal field (its text), sealed under the sender's key by the crypto-shredding decorator. */
const message = (w: number, i: number, run: string) => ({
  type: 'MessageSent',
  data: {
    conversationId: `c-${run}-${w}`,
    messageId: randomUUID(),
    senderId: `bench-sender-${run}-${w}`,
    recipientId: `bench-recipient-${run}-${w}`,
    text: `Is Bilo still looking for a home? (${i})`,
    clientMessageId: randomUUID(),
    sentAt: new Date().toISOString(),
  },
});

/**
 * One event per append, exact expected revision, every writer on its own streams. `personal` appends chat messages
 * (the same event through the plain store and the sealing one, so their difference is the sealing's cost).
 */
function eventStoreCell(
  store: EventStore,
  writers: number,
  run: string,
  name = 'event store',
  personal = false,
): Cell {
  const state = Array.from({ length: writers }, () => ({
    stream: 0,
    expected: 'no_stream' as ExpectedRevision,
  }));
  return {
    name,
    workers: writers,
    op: async (w, i) => {
      const s = state[w]!;
      const stream = `bench-${run}-${name}-${writers}w${w}-s${s.stream}`;
      const event = personal ? message(w, i, run) : { type: 'PetListed', data: payload(i) };
      const r = await store.append(stream, [event], s.expected);
      if (r.nextRevision >= BigInt(EVENTS_PER_STREAM - 1)) {
        s.stream++;
        s.expected = 'no_stream';
      } else {
        s.expected = r.nextRevision;
      }
    },
  };
}

/** The PostgreSQL adapter's append throughput beside raw single-row INSERTs on the same server: it should be close. */
export const appendThroughput: BenchSection = {
  name: 'append-throughput',
  title: 'PostgresEventStore.append (1 event, exact expected revision) vs raw single-row INSERT',
  columns: [
    { key: 'writers', header: 'writers' },
    { key: 'eventStorePerSecond', header: 'event store appends/s' },
    { key: 'rawInsertPerSecond', header: 'raw INSERT/s' },
    { key: 'ratio', header: 'ratio', format: (v) => (typeof v === 'number' ? v.toFixed(2) : '–') },
    { key: 'plainMessagePerSecond', header: 'message appends/s' },
    { key: 'sealedMessagePerSecond', header: 'sealed message appends/s' },
    {
      key: 'sealedRatio',
      header: 'sealed ratio',
      format: (v) => (typeof v === 'number' ? v.toFixed(2) : '–'),
    },
  ],
  async run(ctx) {
    const admin = new pg.Client({ connectionString: ctx.connectionString });
    await admin.connect();
    await createRawEventsTable(admin);
    await admin.end();
    const run = randomUUID().slice(0, 8);
    const rows: BenchRow[] = [];
    for (const writers of WRITERS) {
      const storePool = poolFor(ctx, writers);
      const rawPool = poolFor(ctx, writers);
      const store = new PostgresEventStore(storePool);
      // Crypto-shredding's cost: the app's store seals personal fields (keys cached after each writer's first append).
      const sealedPool = poolFor(ctx, writers);
      const sealed = withPersonalDataEncryption(new PostgresEventStore(sealedPool), sealedPool);
      try {
        const [es, raw, plainMessages, sealedMessages] = await measureInterleaved(
          [
            eventStoreCell(store, writers, run),
            rawCell(rawPool, writers, run),
            eventStoreCell(store, writers, run, 'message', true),
            eventStoreCell(sealed, writers, run, 'sealed message', true),
          ],
          { durationMs: ctx.cellMs, maxOps: ctx.maxOpsPerCell },
        );
        ctx.log(
          `  ${String(writers).padStart(2)} writer(s): event store ${es!.ops} appends in ${es!.seconds} s, raw ${raw!.ops} inserts in ${raw!.seconds} s, ` +
            `messages ${plainMessages!.ops} plain / ${sealedMessages!.ops} sealed`,
        );
        rows.push({
          writers,
          eventStorePerSecond: es!.perSecond,
          rawInsertPerSecond: raw!.perSecond,
          ratio: raw!.perSecond > 0 ? round(es!.perSecond / raw!.perSecond, 3) : null,
          eventStoreOps: es!.ops,
          rawInsertOps: raw!.ops,
          eventStoreSeconds: es!.seconds,
          rawInsertSeconds: raw!.seconds,
          eventStoreP50Ms: es!.latencyMs.p50,
          eventStoreP99Ms: es!.latencyMs.p99,
          rawInsertP50Ms: raw!.latencyMs.p50,
          rawInsertP99Ms: raw!.latencyMs.p99,
          plainMessagePerSecond: plainMessages!.perSecond,
          sealedMessagePerSecond: sealedMessages!.perSecond,
          sealedRatio:
            plainMessages!.perSecond > 0
              ? round(sealedMessages!.perSecond / plainMessages!.perSecond, 3)
              : null,
          plainMessageP50Ms: plainMessages!.latencyMs.p50,
          sealedMessageP50Ms: sealedMessages!.latencyMs.p50,
        });
      } finally {
        await store.close();
        await sealed.close();
        await Promise.all([storePool.end(), rawPool.end(), sealedPool.end()]);
      }
    }
    return rows;
  },
};
