import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  comparePositions,
  PostgresEventStore,
  readCheckpoint,
  rebuildProjections,
  relayCheckpointName,
} from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { ROOT } from '../service-process';
import { kafkaUnavailable, startKafkaBroker, type KafkaBroker } from './broker';
import { TALLY_TABLE, tallyProjection } from './testing/tally';

/**
 * The bus on a real Kafka broker (KRaft, from Maven Central's jars): the relay and the consumers as processes of
 * their own, killed, rebalanced and restarted mid-burst, and the broker itself restarted under load. Each test has
 * its database and topic; the read model tallies each stream's events and counts any that came out of order.
 */
const unavailable = kafkaUnavailable();
if (unavailable) console.log(`Kafka bus tests skipped: ${unavailable}`);

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
const PARTITIONS = 4;
const STREAMS = 30;
let broker: KafkaBroker;
let brokerDir: string;
let db: TestDb;
let topic: string;
let children: ChildProcess[] = [];
const outputs: (() => string)[] = [];
let sent: Map<string, number>;

type Bus = { child: ChildProcess; output(): string; kill(): Promise<void>; stop(): Promise<void> };

function startBus(role: 'relay' | 'consumer'): Bus {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'testing/bus-process.ts'), role],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: db.connectionString,
        KAFKA_BROKERS: broker.brokers,
        KAFKA_TOPIC: topic,
        BUS_GROUP: `${topic}-workers`,
        BUS_PARTITIONS: String(PARTITIONS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let text = '';
  outputs.push(() => `${role}: ${text}`);
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => text,
    async kill() {
      if (!ended()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!ended()) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `count` events over the streams, four appenders at once, each event one append (as commands do). */
async function burst(count: number) {
  const store = new PostgresEventStore(db.pool);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const n = next++;
        const stream = `tally-${n % STREAMS}`;
        await store.append(stream, [{ type: 'Tallied', data: { n } }], 'any');
        sent.set(stream, (sent.get(stream) ?? 0) + 1);
      }
    }),
  );
}

/**
 * Until every event appended is tallied once and the read model's checkpoint has passed the log's last event (read
 * from the table: the store's visible head lags while other databases of the server have transactions open).
 */
async function allTallied(ms = 90_000) {
  const { rows: lastRows } = await db.pool.query<{ tx: string; pos: string }>(
    'SELECT transaction_id::text AS tx, position AS pos FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1',
  );
  const last = { transactionId: BigInt(lastRows[0]!.tx), position: BigInt(lastRows[0]!.pos) };
  const expected = [...sent.values()].reduce((n, c) => n + c, 0);
  const until = Date.now() + ms;
  for (;;) {
    const rows = (await db.knex('bus_tally').select()) as {
      stream_id: string;
      events: number;
      out_of_order: number;
    }[];
    const at = await readCheckpoint(db.knex, 'bus_tally');
    const total = rows.reduce((n, r) => n + r.events, 0);
    const passed = comparePositions(at, last) >= 0;
    if ((total >= expected && passed) || Date.now() > until) {
      expect(Object.fromEntries(rows.map((r) => [r.stream_id, r.events]))).toEqual(Object.fromEntries(sent));
      expect(rows.filter((r) => r.out_of_order > 0)).toEqual([]);
      expect(passed, `checkpoint ${at.position} has not passed ${last.position}`).toBe(true);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Until `bus` has applied something (it joined the group and got partitions). */
const until = async (check: () => Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};
const tallied = async () => {
  const rows = (await db.knex('bus_tally').sum({ n: 'events' })) as { n: string | null }[];
  return Number(rows[0]?.n ?? 0);
};

/** `count` events appended; once 300 are tallied, `meanwhile` (a kill, a join, a restart) while the rest go on. */
async function midBurst(count: number, meanwhile: () => Promise<void>, ms?: number) {
  const going = burst(count);
  await until(async () => (await tallied()) > 300);
  await meanwhile();
  await going;
  await allTallied(ms);
}

describe.skipIf(unavailable)(
  'the Kafka bus (relay, consumer group, offsets beside the read model)',
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      brokerDir = mkdtempSync(path.join(tmpdir(), 'pawhaven-kafka-'));
      broker = await startKafkaBroker({ dataDir: brokerDir });
    }, 300_000);
    afterAll(async () => {
      await broker?.stop();
      rmSync(brokerDir, { recursive: true, force: true });
    });
    let n = 0;
    const fresh = async () => {
      db = await createTestDatabase({ max: 3 });
      await db.knex.raw(TALLY_TABLE);
      topic = `bus-test-${process.pid}-${++n}`;
      sent = new Map();
    };
    // Each test: its own database and topic.
    beforeEach(fresh);
    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail') {
        console.log(outputs.map((o) => o()).join('\n---\n'));
        console.log(
          await db.knex('projection_checkpoints').select(),
          await db.knex('bus_partitions').select(),
        );
      }
      outputs.length = 0;
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGKILL');
            }),
        ),
      );
      children = [];
      await db?.drop();
    });

    it('keeps each stream in order across partitions, with two consumers sharing them', async () => {
      startBus('relay');
      startBus('consumer');
      startBus('consumer');
      await burst(2000);
      await allTallied();
    });

    it('a consumer killed with SIGKILL mid-burst, then restarted: nothing lost, nothing doubled', async () => {
      startBus('relay');
      const doomed = startBus('consumer');
      await midBurst(3000, async () => {
        await doomed.kill();
        startBus('consumer');
      });
    });

    it('a rebalance between two consumers mid-burst (one joins, then the other leaves): nothing lost or doubled', async () => {
      startBus('relay');
      const first = startBus('consumer');
      await midBurst(3000, async () => {
        startBus('consumer');
        await until(async () => (await tallied()) > 1200);
        await first.stop();
      });
    });

    it('the relay killed with SIGKILL mid-burst publishes again from its checkpoint; consumers skip the repeats', async () => {
      const relay = startBus('relay');
      startBus('consumer');
      await midBurst(3000, async () => {
        await relay.kill();
        startBus('relay');
      });
    });

    it('the relay publishing everything again (its checkpoint lost after the broker had the events): nothing doubled', async () => {
      const relay = startBus('relay');
      startBus('consumer');
      await burst(1000);
      await allTallied();
      await relay.stop();
      await db
        .knex('projection_checkpoints')
        .where({ name: relayCheckpointName(topic) })
        .delete();
      startBus('relay');
      await until(async () => (await readCheckpoint(db.knex, relayCheckpointName(topic))).position > 0n);
      await burst(500);
      await allTallied();
    });

    it('a rebuild of the read model while the consumers apply a burst: every event once', async () => {
      startBus('relay');
      startBus('consumer');
      startBus('consumer');
      await midBurst(3000, async () => {
        await db.knex('bus_tally').update({ events: 0 }); // damage it: the rebuild must put it right
        const results = await rebuildProjections(db.knex, new PostgresEventStore(db.pool), [tallyProjection]);
        expect(results.map((r) => r.name)).toEqual(['bus_tally']);
      });
    });

    it('the broker restarted under load: nothing lost', { timeout: 240_000 }, async () => {
      startBus('relay');
      startBus('consumer');
      await midBurst(
        3000,
        async () => {
          const { port, controllerPort } = broker;
          await broker.stop();
          broker = await startKafkaBroker({ dataDir: brokerDir, port, controllerPort });
        },
        150_000,
      );
    });
  },
);
