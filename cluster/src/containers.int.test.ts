import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { KafkaContainer } from '@testcontainers/kafka';
import { connectDatabase } from '@pawhaven/platform';
import { containersUnavailable, startKurrentDb } from '@pawhaven/platform/testing/containers';
import { describeServicesWithKafka } from './testing/services-with-kafka';

/**
 * The services wired as docker-compose.yml wires them, on engines in containers (Testcontainers): PostgreSQL 18, a
 * Kafka broker in KRaft mode, and KurrentDB holding the log (EVENT_STORE=kurrentdb). Where no container runtime answers (these machines), reported skipped with the reason;
 * the same services and tests run for real on the project's own broker in services-kafka.int.test.ts.
 */
const unavailable = await containersUnavailable();
if (unavailable) console.log(`Container wiring tests skipped: ${unavailable}`);

async function startEngines(withKurrentDb: boolean) {
  const [postgres, kafka, kurrentdb] = await Promise.all([
    new PostgreSqlContainer('postgres:18').start(),
    new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start(),
    withKurrentDb ? startKurrentDb() : null,
  ]);
  const databaseUrl = postgres.getConnectionUri();
  const db = connectDatabase(databaseUrl, { max: 2 });
  return {
    databaseUrl,
    knex: db.knex,
    brokers: `${kafka.getHost()}:${kafka.getMappedPort(9093)}`,
    ...(kurrentdb ? { env: { EVENT_STORE: 'kurrentdb', KURRENTDB_URL: kurrentdb.connectionString } } : {}),
    async stop() {
      await db.close();
      await Promise.all([kafka.stop(), postgres.stop(), kurrentdb?.stop()]);
    },
  };
}

describeServicesWithKafka('services apart on PostgreSQL and Kafka containers', unavailable, () =>
  startEngines(false),
);
describeServicesWithKafka('services apart with the log in KurrentDB (containers)', unavailable, () =>
  startEngines(true),
);
