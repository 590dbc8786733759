import {
  connectDatabase,
  kafkaClient,
  PostgresEventStore,
  runKafkaProjections,
  runKafkaRelay,
} from '@pawhaven/platform';
import { tallyProjection } from './tally';

/**
 * One side of the bus as a process of its own, for tests that kill it (`relay` or `consumer`): DATABASE_URL,
 * KAFKA_BROKERS, KAFKA_TOPIC, BUS_GROUP, BUS_PARTITIONS from the environment. Prints "ready" once running.
 */
const role = process.argv[2];
const env = (name: string) => process.env[name] ?? '';
const db = connectDatabase(env('DATABASE_URL'), { max: 3 });
const kafka = kafkaClient(env('KAFKA_BROKERS').split(','), `bus-test-${role}-${process.pid}`);
const abort = new AbortController();
process.on('SIGTERM', () => abort.abort());
const partitions = Number(env('BUS_PARTITIONS'));
const runOnce = () =>
  role === 'relay'
    ? runKafkaRelay({
        knex: db.knex,
        store: new PostgresEventStore(db.pool),
        kafka,
        topic: env('KAFKA_TOPIC'),
        partitions,
        signal: abort.signal,
        batchSize: 50,
      })
    : runKafkaProjections({
        knex: db.knex,
        kafka,
        topic: env('KAFKA_TOPIC'),
        groupId: env('BUS_GROUP'),
        partitions,
        projections: [tallyProjection],
        open: async (events) => events,
        signal: abort.signal,
      });
/** As the services do: what fails (the broker away longer than the client's retries) starts again. */
async function running() {
  while (!abort.signal.aborted) {
    try {
      await runOnce();
    } catch (error) {
      if (abort.signal.aborted) return;
      console.error(`${role} failed, starting again:`, error);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
console.log('ready');
running().then(
  async () => {
    await db.close();
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
