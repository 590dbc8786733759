import { setTimeout as sleep } from 'node:timers/promises';
import {
  kafkaClient,
  logger,
  noteIfDatabaseUnavailable,
  oneAtATime,
  PostgresEventStore,
  runKafkaProjections,
  runKafkaRelay,
  runProjector,
  startHeldBackMonitor,
  type Projection,
  type ServiceContext,
} from '@pawhaven/platform';
import { allProjections } from './index';

export type ProjectionWorker = { stop(): Promise<void> };

/** `run` again after a growing pause whenever it fails (a broker or database away), until `signal` aborts. */
async function keepRunning(what: string, run: () => Promise<void>, signal: AbortSignal): Promise<void> {
  for (let failures = 0; !signal.aborted;) {
    try {
      await run();
      failures = 0;
    } catch (error) {
      if (signal.aborted) return;
      failures++;
      if (!noteIfDatabaseUnavailable(error, what))
        logger.warn({ err: error }, `${what} failed; starting it again`);
    }
    await sleep(Math.min(200 * 2 ** failures, 10_000), undefined, { signal }).catch(() => {});
  }
}

/**
 * The projection worker: keeps every read model (and the `reactors` given to it) up to date, and warns when
 * committed events are held back behind an open transaction. Following the store, one worker projects at a time
 * among those sharing the database (`oneAtATime`; the others stand by and take over). With EVENT_BUS=kafka, the read
 * models that need only each stream's order (`order: 'stream'`) consume the bus in a consumer group instead, every
 * worker taking its share of the partitions; the others still follow the store.
 */
export function startProjectionWorker(
  context: ServiceContext,
  opts: { reactors?: readonly Projection[]; onStandingBy?: () => void; onTakingOver?: () => void } = {},
): ProjectionWorker {
  const { db, store, config } = context;
  const abort = new AbortController();
  const fromBus = config.EVENT_BUS === 'kafka' ? allProjections.filter((p) => p.order === 'stream') : [];
  const followers = [...allProjections.filter((p) => !fromBus.includes(p)), ...(opts.reactors ?? [])];
  const following = oneAtATime(
    context.databaseUrl,
    'projector',
    (signal) => runProjector(db.knex, store, followers, signal),
    abort.signal,
    { onWaiting: opts.onStandingBy, onTakingOver: opts.onTakingOver },
  );
  const consuming =
    fromBus.length === 0
      ? Promise.resolve()
      : keepRunning(
          'bus consumer',
          () =>
            runKafkaProjections({
              knex: db.knex,
              kafka: kafkaClient(config.KAFKA_BROKERS, 'pawhaven-projections'),
              topic: config.KAFKA_TOPIC,
              groupId: 'pawhaven-projections',
              partitions: config.KAFKA_PARTITIONS,
              projections: fromBus,
              open: (events) => store.openBatch(events),
              signal: abort.signal,
            }),
          abort.signal,
        );
  const heldBack = startHeldBackMonitor(
    db.knex,
    allProjections.map((p) => p.name),
    { thresholdMs: config.HELD_BACK_WARN_SECONDS * 1000 },
  );
  return {
    async stop() {
      abort.abort();
      await Promise.all([following.catch(() => {}), consuming]);
      await heldBack.stop();
    },
  };
}

/**
 * With EVENT_BUS=kafka: the relay, publishing the log to KAFKA_TOPIC (personal fields as stored: sealed), run by one
 * process at a time among those sharing the database. Null when the bus is off.
 */
export function startKafkaRelay(context: ServiceContext): ProjectionWorker | null {
  const { db, config } = context;
  if (config.EVENT_BUS !== 'kafka') return null;
  const abort = new AbortController();
  const sealedStore = new PostgresEventStore(db.pool);
  const relaying = oneAtATime(
    context.databaseUrl,
    'kafka-relay',
    (signal) =>
      keepRunning(
        'relay',
        () =>
          runKafkaRelay({
            knex: db.knex,
            store: sealedStore,
            kafka: kafkaClient(config.KAFKA_BROKERS, 'pawhaven-relay'),
            topic: config.KAFKA_TOPIC,
            partitions: config.KAFKA_PARTITIONS,
            signal,
          }),
        signal,
      ),
    abort.signal,
  );
  return {
    async stop() {
      abort.abort();
      await relaying.catch(() => {});
      await sealedStore.close();
    },
  };
}
