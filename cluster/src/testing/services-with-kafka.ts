import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_QUERIES } from '@pawhaven/query-api';
import { createApi, testImage } from '@pawhaven/testing';
import type { Database } from '@pawhaven/platform';
import { startService, type ServiceProcess } from '../service-process';

/** Where the services run: a PostgreSQL database and a Kafka broker, however the test file provides them. */
export type Engines = {
  databaseUrl: string;
  knex: Database['knex'];
  brokers: string;
  /** More settings for every service (EVENT_STORE=kurrentdb and its KURRENTDB_URL). */
  env?: Record<string, string>;
  stop(): Promise<void>;
};

/**
 * The services apart with EVENT_BUS=kafka: the relay publishes the log, two workers share the partitions for the
 * read models fed by the bus (sessions, an ad's history, the directory) and follow the store for the others. A read
 * that waits for its writer's position sees both kinds. Run on the project's own broker and embedded PostgreSQL
 * (services-kafka.int.test.ts) and on the images docker-compose.yml uses (containers.int.test.ts).
 */
export function describeServicesWithKafka(
  name: string,
  skip: string | null,
  startEngines: () => Promise<Engines>,
) {
  describe.skipIf(skip)(name, () => {
    let engines: Engines;
    const running: ServiceProcess[] = [];
    let command: ServiceProcess;
    let query: ServiceProcess;
    const isQuery = (method: string, p: string) =>
      method === 'GET' || method === 'HEAD' || (method === 'POST' && POST_QUERIES.includes(p));
    const api = () => createApi((method, p) => (isQuery(method, p) ? query : command).url);

    beforeAll(async () => {
      engines = await startEngines();
      const env = {
        DATABASE_URL: engines.databaseUrl,
        NODE_ENV: 'test',
        ADMIN_PASSWORD: 'Admin!Passw0rd',
        EVENT_BUS: 'kafka',
        KAFKA_BROKERS: engines.brokers,
        KAFKA_TOPIC: `pawhaven-${process.pid}`,
        ...engines.env,
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
      await engines?.stop();
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
      const kafka = await engines.knex('bus_partitions').count({ n: '*' });
      expect(Number(kafka[0]!.n)).toBeGreaterThan(0);
    });

    it('a signed-out session is refused at once, and the sessions read model catches up', async () => {
      const user = await api().registerVerifiedUser();
      const out = await api().post('/api/auth/signout', {}, user.token);
      expect(out.status, out.text).toBe(200);
      const me = await api().get('/api/notifications', user.token);
      expect(me.status).toBe(401);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const row = await engines
          .knex('sessions')
          .where({ user_id: user.user._id })
          .first<{ revoked_at: Date | null }>();
        if (row?.revoked_at) break;
        if (Date.now() > deadline) throw new Error('the sessions read model never had the sign-out');
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  });
}
