import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { kafkaUnavailable, startKafkaBroker } from './kafka/broker';
import { describeServicesWithKafka } from './testing/services-with-kafka';

/** The services apart with Kafka as the bus, on the project's own broker (Maven jars) and embedded PostgreSQL. */
const unavailable = kafkaUnavailable();
if (unavailable) console.log(`Services-with-Kafka tests skipped: ${unavailable}`);

describeServicesWithKafka('services apart, with Kafka as the bus', unavailable, async () => {
  const brokerDir = mkdtempSync(path.join(tmpdir(), 'pawhaven-kafka-'));
  const [broker, db] = await Promise.all([
    startKafkaBroker({ dataDir: brokerDir }),
    createTestDatabase({ max: 2 }),
  ]);
  return {
    databaseUrl: db.connectionString,
    knex: db.knex,
    brokers: broker.brokers,
    async stop() {
      await broker.stop();
      await db.drop();
      rmSync(brokerDir, { recursive: true, force: true });
    },
  };
});
