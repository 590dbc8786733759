import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { POST_QUERIES } from '@pawhaven/query-api';
import { createApi, testImage } from '@pawhaven/testing';
import { kafkaUnavailable, startKafkaBroker, type KafkaBroker } from './kafka/broker';
import { startService, type ServiceProcess } from './service-process';

/**
 * The services apart with EVENT_BUS=kafka, on a real broker: the relay publishes the log, two workers share the
 * partitions for the read models fed by the bus (sessions, an ad's history, the directory) and follow the store for
 * the others. A read that waits for its writer's position sees both kinds.
 */
const unavailable = kafkaUnavailable();
if (unavailable) console.log(`Services-with-Kafka tests skipped: ${unavailable}`);

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
let db: TestDb;
let broker: KafkaBroker;
let brokerDir: string;
const running: ServiceProcess[] = [];
let command: ServiceProcess;
let query: ServiceProcess;

const isQuery = (method: string, p: string) =>
  method === 'GET' || method === 'HEAD' || (method === 'POST' && POST_QUERIES.includes(p));
const api = () => createApi((method, p) => (isQuery(method, p) ? query : command).url);

describe.skipIf(unavailable)('services apart, with Kafka as the bus', () => {
  beforeAll(async () => {
    brokerDir = mkdtempSync(path.join(tmpdir(), 'pawhaven-kafka-'));
    [broker, db] = await Promise.all([
      startKafkaBroker({ dataDir: brokerDir }),
      createTestDatabase({ max: 2 }),
    ]);
    const env = {
      DATABASE_URL: db.connectionString,
      NODE_ENV: 'test',
      ADMIN_PASSWORD: 'Admin!Passw0rd',
      EVENT_BUS: 'kafka',
      KAFKA_BROKERS: broker.brokers,
      KAFKA_TOPIC: `pawhaven-${process.pid}`,
    };
    const start = async (...args: Parameters<typeof startService>) => {
      const p = await startService(...args);
      running.push(p);
      return p;
    };
    [command, query] = await Promise.all([start('command-api', env), start('query-api', env)]);
    await Promise.all([
      start('relay', env),
      start('projections', env, { name: 'worker 1' }),
      start('projections', env, { name: 'worker 2' }),
    ]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(running.map((p) => p.kill()));
    await broker?.stop();
    await db?.drop();
    if (brokerDir) rmSync(brokerDir, { recursive: true, force: true });
  });

  it("an ad's history (from the bus) and its listing (from the store) as soon as the read waits for the ad", async () => {
    const owner = await api().registerVerifiedUser();
    const image = { field: 'image', bytes: await testImage(), filename: 'pet.png', type: 'image/png' };
    const ad = await api().upload('/api/adoptions', image, owner.token, {
      name: 'Moti',
      age: '2',
      location: 'Lahore',
      petType: 'Dog',
      description: 'Friendly and house-trained.',
    });
    expect(ad.status, ad.text).toBe(201);
    const admin = await api().post('/api/auth/signin', {
      email: 'admin@pawhaven.local',
      password: 'Admin!Passw0rd',
    });
    expect(admin.status, admin.text).toBe(200);
    const after = { 'X-Consistent-After': ad.body.position as string };
    const history = await api().get(`/api/admin/adoptions/${ad.body._id}/history`, admin.body.token, after);
    expect(history.status, history.text).toBe(200);
    expect(history.body.timeline.map((t: { eventType: string }) => t.eventType)).toEqual([
      'AdoptionAdPublished',
    ]);
    const listing = await api().get('/api/adoptions?limit=50', undefined, after);
    expect(JSON.stringify(listing.body)).toContain(ad.body._id);
    const kafka = await db.knex('bus_partitions').count({ n: '*' });
    expect(Number(kafka[0]!.n)).toBeGreaterThan(0);
  });

  it('a signed-out session is refused at once, and the sessions read model (from the bus) catches up', async () => {
    const user = await api().registerVerifiedUser();
    const out = await api().post('/api/auth/signout', {}, user.token);
    expect(out.status, out.text).toBe(200);
    const me = await api().get('/api/notifications', user.token);
    expect(me.status).toBe(401);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const row = await db
        .knex('sessions')
        .where({ user_id: user.user._id })
        .first<{ revoked_at: Date | null }>();
      if (row?.revoked_at) break;
      if (Date.now() > deadline) throw new Error('the sessions read model never had the sign-out');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
