import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { freePort, listening } from '../ports';
import { watch } from '../watched';
import os from 'node:os';
import path from 'node:path';

/** The Apache Kafka release the scripts fetch from Maven Central (`org.apache.kafka:kafka_2.13`). */
export const KAFKA_VERSION = '4.1.1';

/** Where fetched jars are kept between runs: `$PAWHAVEN_CACHE`, or ~/.cache/pawhaven. */
export const cacheDir = () =>
  process.env.PAWHAVEN_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'pawhaven');

/** Why a Kafka broker cannot run here (no Java 17+, no Maven for the first fetch), or null when it can. */
export function kafkaUnavailable(): string | null {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error)
    return 'Java is not installed (a Kafka broker needs Java 17 or newer: apt-get install -y openjdk-17-jre-headless)';
  const version = /version "(\d+)/.exec(`${java.stderr}${java.stdout}`)?.[1];
  if (version && Number(version) < 17)
    return `Java ${version} is too old for Kafka ${KAFKA_VERSION} (it needs 17 or newer)`;
  if (!existsSync(libsDir()) && spawnSync('mvn', ['-v'], { encoding: 'utf8' }).error)
    return `Maven is not installed, and Kafka's jars are not in ${libsDir()} yet (apt-get install -y maven fetches them on first use)`;
  return null;
}

const libsDir = () => path.join(cacheDir(), `kafka-${KAFKA_VERSION}`, 'libs');

/**
 * Kafka's jars with their dependencies, fetched from Maven Central by Maven on first use and kept in the cache
 * (a folder appears only complete: fetched beside it, then renamed).
 */
export function ensureKafkaJars(log: (line: string) => void = console.log): string {
  const libs = libsDir();
  if (existsSync(libs)) return libs;
  const work = path.join(cacheDir(), `kafka-${KAFKA_VERSION}.fetching-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(
    path.join(work, 'pom.xml'),
    `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>pawhaven</groupId><artifactId>kafka-broker</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>${KAFKA_VERSION}</version></dependency>
  </dependencies>
</project>
`,
  );
  log(`Fetching Apache Kafka ${KAFKA_VERSION} from Maven Central (once; kept in ${path.dirname(libs)})…`);
  const mvn = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${path.join(work, 'libs')}`,
    ],
    { cwd: work, encoding: 'utf8' },
  );
  if (mvn.status !== 0)
    throw new Error(`Maven could not fetch Kafka ${KAFKA_VERSION}:\n${mvn.stdout}${mvn.stderr}`.trim());
  mkdirSync(path.dirname(libs), { recursive: true });
  try {
    renameSync(path.join(work, 'libs'), libs);
  } catch (error) {
    if (!existsSync(libs)) throw error; // another process fetched them at the same time: theirs are as good
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return libs;
}

export type KafkaBroker = {
  /** host:port for clients. */
  brokers: string;
  port: number;
  /** The controller's port: a restart on the same data takes the same ports. */
  controllerPort: number;
  dataDir: string;
  /** What the broker printed (its log goes to `dataDir`/broker.log too). */
  output(): string;
  /** Stops it (SIGTERM: a clean shutdown; SIGKILL after `ms`). */
  stop(ms?: number): Promise<void>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
};

/**
 * A single-node Kafka broker in KRaft mode (broker and controller in one process), its data in `dataDir` (formatted
 * on first use; kept, so a restart on the same folder finds its topics and offsets), on `port` (a free one when 0).
 */
export async function startKafkaBroker(opts: {
  dataDir: string;
  port?: number;
  controllerPort?: number;
  heapMb?: number;
}): Promise<KafkaBroker> {
  const libs = ensureKafkaJars();
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // A broker started again on its data takes the ports it had (its controller's address is part of its metadata).
  const portsFile = path.join(dataDir, 'ports.json');
  const before = existsSync(portsFile)
    ? (JSON.parse(readFileSync(portsFile, 'utf8')) as { port: number; controllerPort: number })
    : null;
  const reuse = before && !(await listening(before.port)) && !(await listening(before.controllerPort));
  const port = opts.port || (reuse ? before.port : await freePort());
  const controllerPort = opts.controllerPort || (reuse ? before.controllerPort : await freePort());
  writeFileSync(portsFile, JSON.stringify({ port, controllerPort }));
  const logs = path.join(dataDir, 'logs');
  const config = path.join(dataDir, 'server.properties');
  writeFileSync(
    config,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      'inter.broker.listener.name=PLAINTEXT',
      `log.dirs=${logs}`,
      'num.partitions=4',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=4',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'auto.create.topics.enable=false',
      // Every acknowledged write on disk before the answer: a broker killed mid-burst loses nothing it acknowledged.
      'log.flush.interval.messages=1',
      '',
    ].join('\n'),
  );
  const classpath = `${libs}/*`;
  const java = (main: string, args: string[]) => [
    `-Xmx${opts.heapMb ?? 512}m`,
    '-XX:+UseSerialGC',
    '-cp',
    classpath,
    main,
    ...args,
  ];
  if (!existsSync(path.join(logs, 'meta.properties'))) {
    // Kafka's form (22 characters of base64url), never starting with '-': the tool would read that as an option
    // ("argument --cluster-id/-t: expected one argument", one start in 64).
    const clusterId = `A${randomBytes(16).toString('base64url').slice(1, 22)}`;
    const format = spawnSync(
      'java',
      java('kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', config, '--ignore-formatted']),
      {
        encoding: 'utf8',
      },
    );
    if (format.status !== 0)
      throw new Error(`Kafka's storage could not be formatted:\n${format.stdout}${format.stderr}`);
  }
  const broker = watch(spawn('java', java('kafka.Kafka', [config]), { stdio: ['ignore', 'pipe', 'pipe'] }));
  await broker.untilListening(port, 90_000, 'The Kafka broker');
  return {
    brokers: `127.0.0.1:${port}`,
    port,
    controllerPort,
    dataDir,
    output: broker.output,
    stop: async (ms = 60_000) => void (await broker.stop('SIGTERM', ms)),
    kill: () => broker.kill(),
  };
}
