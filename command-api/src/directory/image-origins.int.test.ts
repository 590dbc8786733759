import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PostgresEventStore } from '@pawhaven/platform';
import { startTestApp, type TestApp } from '@pawhaven/testing';
import { directoryImageOrigins } from './image-origins';
import { seedPublicContent } from './seed';

/**
 * A seed entry may show a picture from an https address: the Content-Security-Policy allows exactly the hosts the
 * entries use (from the seed files, and from the read models once they have them), not every https host.
 */

let t: TestApp;
let store: PostgresEventStore;
let dir: string;
let empty: string;
const REMOTE = 'https://pictures.example.net';

beforeAll(async () => {
  t = await startTestApp();
  store = new PostgresEventStore(t.db.pool);
  dir = await mkdtemp(path.join(tmpdir(), 'pawhaven-seed-'));
  empty = await mkdtemp(path.join(tmpdir(), 'pawhaven-seed-empty-'));
  const ngo = {
    key: 'remote-picture',
    name: 'Paws Far Away',
    description: 'An NGO whose picture lives elsewhere.',
    contact: { phone: '+92 300 0000099', email: 'far@example.org' },
    image: `${REMOTE}/ngos/far.png`,
    mission: 'Rescue.',
    services: ['Rescue'],
  };
  await writeFile(path.join(dir, 'ngos.json'), JSON.stringify({ entries: [ngo] }));
});
afterAll(async () => {
  await store?.close();
  await t?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

it('lists the https hosts of the seed files, then of the read models; paths on this site need none', async () => {
  expect(await directoryImageOrigins(t.db.knex)).toEqual([]);
  expect(await directoryImageOrigins(t.db.knex, dir)).toEqual([REMOTE]);
  await seedPublicContent(store, t.db.knex, { dir });
  await expect
    .poll(async () => (await t.db.pool.query(`SELECT 1 FROM ngos WHERE image LIKE 'https://%'`)).rowCount, {
      timeout: 10_000,
    })
    .toBe(1);
  expect(await directoryImageOrigins(t.db.knex, empty)).toEqual([REMOTE]);
});

it("the gateway's policy allows that host for pictures, and no other", async () => {
  const restarted = await startTestApp({ db: t.db });
  try {
    const csp = (await fetch(`${restarted.url}/api/health`)).headers.get('content-security-policy') ?? '';
    const imgSrc = csp.split(';').find((d) => d.trim().startsWith('img-src'));
    expect(imgSrc?.trim()).toBe(`img-src 'self' blob: ${REMOTE}`);
  } finally {
    await restarted.stop();
  }
});
