import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { comparePositions, START, type LogPosition, type NewEvent } from '../event-store/event-store';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { projectionStatus, readCheckpoint } from './checkpoints';
import { chooseForFoldThread } from './fold-thread';
import { FOLD_THREAD_TABLES, foldThreadTestProjections, type PetEventData } from './fold-thread.fixture';
import { defineProjection, type Projection } from './projection';
import { runProjector } from './projector';
import { rebuildProjections } from './rebuild';

/**
 * Rebuilds that fold part of the projections on a second thread (`fold-thread.ts`), on the real PostgreSQL with
 * a real worker thread: the thread imports its projections from their module, folds the events it is sent, reads
 * its live rows ahead, catches up through the reading thread's store and writes its projections itself.
 */

type TestDb = Awaited<ReturnType<typeof createTestDatabase>>;
const [pets, totals, sightings] = foldThreadTestProjections as [Projection, Projection, Projection];
/** Always use the thread, however short the log. */
const ON_THREAD = { foldThreadFrom: 0 };

let db: TestDb;
let store: PostgresEventStore;
let lastAppended: LogPosition;
let projector: { controller: AbortController; done: Promise<void> } | null;

beforeEach(async () => {
  db = await createTestDatabase({ max: 12 });
  store = new PostgresEventStore(db.pool);
  lastAppended = START;
  projector = null;
  await db.knex.raw(FOLD_THREAD_TABLES);
});

afterEach(async () => {
  await stopProjector();
  await store.close();
  await db.drop();
});

function startProjector(projections: readonly Projection[]) {
  const controller = new AbortController();
  projector = {
    controller,
    done: runProjector(db.knex, store, projections, controller.signal, { batchSize: 40, retryDelayMs: 5 }),
  };
}

async function stopProjector() {
  if (!projector) return;
  projector.controller.abort();
  await projector.done;
  projector = null;
}

/** Pets listed by 7 owners, every third renumbered, every fifth removed, and sightings (which only one handles). */
async function appendPets(count: number, prefix = 'p', extra: Partial<PetEventData> = {}) {
  for (let i = 0; i < count; i += 25) {
    const events: NewEvent[] = [];
    for (let k = i; k < Math.min(count, i + 25); k++) {
      const petId = `${prefix}${k}`;
      events.push({ type: 'PetListed', data: { petId, owner: `owner-${k % 7}`, n: k, ...extra } });
      if (k % 3 === 0) events.push({ type: 'PetRenumbered', data: { petId, n: k * 10 } });
      if (k % 4 === 0) events.push({ type: 'PetSeen', data: { petId } });
      if (k % 5 === 0) events.push({ type: 'PetRemoved', data: { petId } });
    }
    const r = await store.append(`pets-${prefix}-${i % 100}`, events, 'any');
    if (comparePositions(r, lastAppended) > 0) lastAppended = r;
  }
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const caughtUp = (projections: readonly Projection[]) =>
  eventually(async () => {
    for (const p of projections)
      if (comparePositions(await readCheckpoint(db.knex, p.name), lastAppended) < 0) return false;
    return true;
  }, 'the projector to catch up');

async function dump() {
  const q = (sql: string) => db.pool.query(sql).then((r) => r.rows);
  return {
    pets: await q(`SELECT id, owner, n, about, listed_at FROM ft_pets ORDER BY id`),
    totals: await q(`SELECT owner, pets, total::int AS total FROM ft_owner_totals ORDER BY owner`),
    sightings: await q(`SELECT event_id, pet_id FROM ft_sightings ORDER BY event_id`),
  };
}

/** The model computed straight from the log, a third way (neither `apply` nor `fold`). */
async function expectedFromLog() {
  const pets = new Map<string, { id: string; owner: string; n: number }>();
  const totals = new Map<string, { owner: string; pets: number; total: number }>();
  for await (const e of store.readAll(START)) {
    const d = e.data as PetEventData;
    if (e.type === 'PetListed') {
      pets.set(d.petId, { id: d.petId, owner: d.owner!, n: d.n! });
      const t = totals.get(d.owner!) ?? { owner: d.owner!, pets: 0, total: 0 };
      totals.set(d.owner!, { owner: t.owner, pets: t.pets + 1, total: t.total + d.n! });
    } else if (e.type === 'PetRenumbered') {
      const p = pets.get(d.petId);
      if (p) p.n = d.n!;
    } else if (e.type === 'PetRemoved') pets.delete(d.petId);
  }
  return {
    pets: [...pets.values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    totals: [...totals.values()].sort((a, b) => (a.owner < b.owner ? -1 : 1)),
  };
}

/** Projected live, up to the last append, then the projector stopped. */
async function projectedLive(projections: readonly Projection[]) {
  startProjector(projections);
  await caughtUp(projections);
  await stopProjector();
}

describe('a rebuild with a fold thread', () => {
  it('folds and writes the heavier projection on the second thread, and writes nothing over an intact model', async () => {
    await appendPets(600);
    await projectedLive([pets, totals]);
    const before = await dump();
    expect(before.pets.length).toBeGreaterThan(400);

    const results = await rebuildProjections(db.knex, store, [pets, totals], () => {}, ON_THREAD);

    expect(results.map((r) => [r.name, r.foldThread, r.changedRows])).toEqual([
      [pets.name, true, 0],
      [totals.name, false, 0],
    ]);
    expect(await dump()).toEqual(before);
  });

  it('repairs damaged, missing and invented rows on either thread, and fills empty tables', async () => {
    await appendPets(400);
    await projectedLive([pets, totals]);
    const before = await dump();
    await db.knex.raw(`
      DELETE FROM ft_pets WHERE n % 7 = 1;
      UPDATE ft_pets SET about = '{"owner": "nobody"}' WHERE n % 11 = 2;
      INSERT INTO ft_pets VALUES ('invented', 'x', 1, '{}', now());
      UPDATE ft_owner_totals SET total = 0 WHERE owner = 'owner-3';
      DELETE FROM ft_owner_totals WHERE owner = 'owner-4';`);

    const repaired = await rebuildProjections(db.knex, store, [pets, totals], () => {}, ON_THREAD);
    expect(repaired.map((r) => r.foldThread)).toEqual([true, false]);
    for (const r of repaired) expect(r.changedRows, r.name).toBeGreaterThan(0);
    expect(await dump()).toEqual(before);

    await db.knex.raw(`TRUNCATE ft_pets, ft_owner_totals`);
    const refilled = await rebuildProjections(db.knex, store, [pets, totals], () => {}, ON_THREAD);
    expect(refilled.map((r) => r.changedRows)).toEqual([before.pets.length, before.totals.length]);
    expect(await dump()).toEqual(before);
  });

  it('applies every event exactly once while the live projector keeps projecting new ones (the thread catches up through the reading thread)', async () => {
    await appendPets(1500);
    startProjector([pets, totals]);
    await caughtUp([pets, totals]);
    let rebuilding = true;
    const writer = (async () => {
      for (let i = 0; rebuilding; i++) {
        await appendPets(25, `live${i}-`);
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    let results;
    try {
      results = await rebuildProjections(db.knex, store, [pets, totals], () => {}, {
        ...ON_THREAD,
        batchSize: 200,
      });
    } finally {
      rebuilding = false;
      await writer;
    }
    expect(results.map((r) => r.foldThread)).toEqual([true, false]);
    await caughtUp([pets, totals]);
    await stopProjector();

    const expected = await expectedFromLog();
    const { pets: rows, totals: sums } = await dump();
    expect(rows.map((p) => ({ id: p.id, owner: p.owner, n: p.n }))).toEqual(expected.pets);
    expect(rows.every((p) => p.about.owner === p.owner && p.about.n === p.n)).toBe(true);
    expect(sums).toEqual(expected.totals);
  });

  it('fails the whole rebuild when a fold fails on the thread, leaving the live tables as they were', async () => {
    await appendPets(300);
    await appendPets(1, 'bad', { fault: true });
    await projectedLive([pets, sightings]);
    const before = await dump();

    await expect(rebuildProjections(db.knex, store, [pets, sightings], () => {}, ON_THREAD)).rejects.toThrow(
      /fault injected in the fold/,
    );

    expect(await dump()).toEqual(before);
    // Recorded against the projection folded on the thread.
    const status = await projectionStatus(db.knex, [pets, sightings]);
    expect(status.map((s) => [s.name, /fault injected/.test(s.lastError ?? '')])).toEqual([
      [pets.name, false],
      [sightings.name, true],
    ]);
  });

  it('stops when the app stops: aborted, the thread ends and nothing is written', async () => {
    await appendPets(800);
    await projectedLive([pets, totals]);
    await db.knex.raw(`DELETE FROM ft_pets WHERE n % 2 = 0`);
    const damaged = await dump();
    const controller = new AbortController();
    const run = rebuildProjections(
      db.knex,
      store,
      [pets, totals],
      (p) => {
        if (p.processed > 0) controller.abort();
      },
      { ...ON_THREAD, signal: controller.signal, batchSize: 50 },
    );
    await expect(run).rejects.toThrow(/stopped/);
    expect(await dump()).toEqual(damaged);
  });
});

describe('which projections the fold thread takes', () => {
  it('the heaviest importable ones, by the rows they hold, up to about half, never all', async () => {
    await appendPets(300);
    await projectedLive([pets, totals, sightings]);
    await db.knex.raw(`ANALYZE ft_pets, ft_owner_totals, ft_sightings`);
    const chosen = await chooseForFoldThread(db.knex, [pets, totals, sightings]);
    expect(chosen.map((p) => p.name)).toEqual([sightings.name]);
    expect((await chooseForFoldThread(db.knex, [pets])).map((p) => p.name)).toEqual([]);
  });

  it('by the events they handle while no table has rows', async () => {
    await appendPets(300);
    const chosen = await chooseForFoldThread(db.knex, [totals, pets, sightings]);
    // sightings handles every event (535), pets all but PetSeen (460), totals only PetListed (300).
    expect(chosen.map((p) => p.name)).toEqual([sightings.name, pets.name]);
  });

  it('none that cannot be imported in a thread', async () => {
    const local = defineProjection({ ...pets, name: 'test_ft_local', source: undefined });
    const other = defineProjection({ ...totals, name: 'test_ft_local2', source: undefined });
    expect(await chooseForFoldThread(db.knex, [local, other])).toEqual([]);
  });
});
