/**
 * The KurrentDB adapter against a real KurrentDB server in a container (Testcontainers): the whole event store
 * contract, plain and with personal-data sealing on top (keys in PostgreSQL, as the app keeps them), and what
 * sealing stores on KurrentDB. Where no container runtime answers (these machines), every test here reports itself
 * skipped with the reason; they are written against the client's documented behaviour.
 */
import { randomUUID } from 'node:crypto';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../testing/test-database';
import { containersUnavailable, startKurrentDb, type StartedKurrentDb } from '../../testing/containers';
import { withPersonalDataEncryption } from '../../personal-data/wrap';
import { describeEventStoreContract } from '../event-store.contract';
import { KURRENTDB_DIFFERENCES, KurrentDbEventStore } from './kurrentdb-event-store';

const unavailable = await containersUnavailable();
if (unavailable) console.log(`KurrentDB container tests skipped: ${unavailable}`);

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;

describe.skipIf(unavailable)('KurrentDB (container)', () => {
  let server: StartedKurrentDb;
  let keysDb: TestDb;
  beforeAll(async () => {
    server = await startKurrentDb();
    keysDb = await createTestDatabase({ max: 8 });
  }, 180_000);
  afterAll(async () => {
    await keysDb?.drop();
    await server?.stop();
  });

  describeEventStoreContract('KurrentDB', {
    create: async () => new KurrentDbEventStore(server.connectionString),
    eventIdsUniqueAcrossStreams: KURRENTDB_DIFFERENCES.eventIdsUniqueAcrossStreams,
  });

  describeEventStoreContract('KurrentDB through EncryptingEventStore', {
    create: async () =>
      withPersonalDataEncryption(new KurrentDbEventStore(server.connectionString), keysDb.pool),
    eventIdsUniqueAcrossStreams: KURRENTDB_DIFFERENCES.eventIdsUniqueAcrossStreams,
  });

  it('stores personal fields sealed on KurrentDB, opens them for readers, and forgets them with the key', async () => {
    const store = withPersonalDataEncryption(new KurrentDbEventStore(server.connectionString), keysDb.pool);
    const raw = KurrentDBClient.connectionString(server.connectionString);
    try {
      const aisha = randomUUID();
      const stream = `adoption-${randomUUID()}`;
      await store.append(
        stream,
        [
          {
            type: 'AdoptionRequested',
            data: {
              requestId: randomUUID(),
              requesterId: aisha,
              name: 'Aisha Khan',
              email: 'aisha@gmail.com',
              phone: '+92 300 0000001',
              message: 'I have a garden and time',
              petHistoryImage: null,
              requestedAt: new Date().toISOString(),
            },
            metadata: { actorId: aisha },
          },
        ],
        'no_stream',
      );
      // What KurrentDB holds: no personal field in clear.
      const stored: string[] = [];
      for await (const r of raw.readStream(stream)) stored.push(JSON.stringify(r.event?.data));
      expect(stored).toHaveLength(1);
      expect(stored[0]).not.toContain('aisha@gmail.com');
      expect(stored[0]).not.toContain('+92');
      expect(stored[0]).toContain(aisha); // ids stay in clear: projections join on them

      const read = async () => {
        const out: Record<string, unknown>[] = [];
        for await (const e of store.readStream(stream)) out.push(e.data as Record<string, unknown>);
        return out;
      };
      expect((await read())[0]).toMatchObject({ email: 'aisha@gmail.com', phone: '+92 300 0000001' });
      await store.forgetPerson(aisha);
      expect((await read())[0]).toMatchObject({ email: '', phone: '', name: '', message: '' });
    } finally {
      await store.close();
      await raw.dispose();
    }
  });
});
