import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { logger } from '../logger';

/**
 * A kafkajs client on `brokers`. Its log goes to ours: errors it retries by itself (a coordinator still loading, a
 * broker restarting) at debug, since what gives up surfaces as a thrown error where we handle it.
 */
export function kafkaClient(brokers: readonly string[], clientId: string): Kafka {
  return new Kafka({
    clientId,
    brokers: [...brokers],
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ namespace, level, log }: LogEntry) => {
        const { message, ...rest } = log;
        if (level === logLevel.WARN && /partitioner/i.test(message)) return;
        logger.debug({ namespace, ...rest }, `kafkajs: ${message}`);
      },
    retry: { initialRetryTime: 200, retries: 10 },
  });
}

/** The topic, with `partitions` partitions and the brokers' default replication, unless it exists; its partition count. */
export async function ensureTopic(kafka: Kafka, topic: string, partitions: number): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: [{ topic, numPartitions: partitions, replicationFactor: -1 }],
      waitForLeaders: true,
    });
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    return meta.topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}
