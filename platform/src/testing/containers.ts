/**
 * Engines in containers for tests that need a server this machine cannot run itself (KurrentDB), through
 * Testcontainers. Testcontainers 11 is the line that runs on Node 20 (12 needs Node 22), and its KurrentDB module
 * exists only from 12: `startKurrentDb` is what that module does (single node, insecure, standard projections,
 * ready when its health check passes), on v11's GenericContainer.
 *
 * Where no container runtime answers, `containersUnavailable()` gives the reason, and the tests report themselves
 * skipped with it.
 */
import { getContainerRuntimeClient, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

/** The KurrentDB server the tests and docker-compose.yml use. */
export const KURRENTDB_IMAGE = 'kurrentplatform/kurrentdb:26.1.1';

let probe: Promise<string | null> | undefined;

/** Null where a container runtime answers; otherwise why the container tests cannot run here. */
export function containersUnavailable(): Promise<string | null> {
  probe ??= getContainerRuntimeClient().then(
    () => null,
    (error: unknown) =>
      `no container runtime (Docker) answers here: ${error instanceof Error ? error.message : String(error)}`,
  );
  return probe;
}

export type StartedKurrentDb = { connectionString: string; stop(): Promise<void> };

export async function startKurrentDb(): Promise<StartedKurrentDb> {
  const container: StartedTestContainer = await new GenericContainer(KURRENTDB_IMAGE)
    .withExposedPorts(2113)
    .withEnvironment({
      KURRENTDB_CLUSTER_SIZE: '1',
      KURRENTDB_RUN_PROJECTIONS: 'All',
      KURRENTDB_START_STANDARD_PROJECTIONS: 'true',
      KURRENTDB_INSECURE: 'true',
    })
    .withStartupTimeout(120_000)
    .withWaitStrategy(Wait.forHealthCheck())
    .start();
  return {
    connectionString: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
    stop: async () => void (await container.stop()),
  };
}
