import { defineProjection, importableFrom, type FoldedRow } from './projection';

/**
 * Projections for `fold-thread.int.test.ts`, in a module of their own: a rebuild's fold thread imports them from
 * here (`importableFrom`), as it does the product's. Pets listed, renumbered and removed by their owners:
 * `ft_pets` (keyed, with jsonb and a time), `ft_owner_totals` (keyed, updated in place), and `ft_sightings`, whose
 * fold fails on an event marked `fault` (`apply` does not: the live model is fine, the rebuild must fail cleanly).
 */

export const FOLD_THREAD_TABLES = `
  CREATE TABLE ft_pets (
    id text PRIMARY KEY, owner text NOT NULL, n int NOT NULL, about jsonb NOT NULL, listed_at timestamptz NOT NULL
  );
  CREATE TABLE ft_owner_totals (owner text PRIMARY KEY, pets int NOT NULL, total bigint NOT NULL);
  CREATE TABLE ft_sightings (event_id uuid PRIMARY KEY, pet_id text NOT NULL);`;

export type PetEventData = { petId: string; owner?: string; n?: number; fault?: boolean };

const about = (owner: string, n: number) => ({ owner, n, tags: ['pet', `n${n % 3}`] });

const pets = defineProjection({
  name: 'test_ft_pets',
  tables: ['ft_pets'],
  handles: ['PetListed', 'PetRenumbered', 'PetRemoved'],
  async apply(tx, e) {
    const d = e.data as PetEventData;
    if (e.type === 'PetListed')
      await tx('ft_pets').insert({
        id: d.petId,
        owner: d.owner,
        n: d.n,
        about: JSON.stringify(about(d.owner!, d.n!)),
        listed_at: e.createdAt.toISOString(),
      });
    else if (e.type === 'PetRenumbered') {
      const pet = await tx('ft_pets').where({ id: d.petId }).first<{ owner: string } | undefined>('owner');
      if (pet)
        await tx('ft_pets')
          .where({ id: d.petId })
          .update({ n: d.n, about: JSON.stringify(about(pet.owner, d.n!)) });
    } else await tx('ft_pets').where({ id: d.petId }).delete();
  },
  fold: () => {
    const rows = new Map<string, FoldedRow & { owner: string }>();
    return {
      apply(e) {
        const d = e.data as PetEventData;
        if (e.type === 'PetListed')
          rows.set(d.petId, {
            id: d.petId,
            owner: d.owner!,
            n: d.n,
            about: about(d.owner!, d.n!),
            listed_at: e.createdAt.toISOString(),
          });
        else if (e.type === 'PetRenumbered') {
          const pet = rows.get(d.petId);
          if (pet) rows.set(d.petId, { ...pet, n: d.n, about: about(pet.owner, d.n!) });
        } else rows.delete(d.petId);
      },
      rows: () => ({ ft_pets: rows.values() }),
    };
  },
});

const totals = defineProjection({
  name: 'test_ft_totals',
  tables: ['ft_owner_totals'],
  handles: ['PetListed'],
  async apply(tx, e) {
    const d = e.data as PetEventData;
    await tx.raw(
      `INSERT INTO ft_owner_totals (owner, pets, total) VALUES (?, 1, ?)
       ON CONFLICT (owner) DO UPDATE SET pets = ft_owner_totals.pets + 1, total = ft_owner_totals.total + EXCLUDED.total`,
      [d.owner!, d.n!],
    );
  },
  fold: () => {
    const rows = new Map<string, { owner: string; pets: number; total: number }>();
    return {
      apply(e) {
        const d = e.data as PetEventData;
        const t = rows.get(d.owner!) ?? { owner: d.owner!, pets: 0, total: 0 };
        rows.set(d.owner!, { owner: t.owner, pets: t.pets + 1, total: t.total + d.n! });
      },
      rows: () => ({ ft_owner_totals: rows.values() }),
    };
  },
});

const sightings = defineProjection({
  name: 'test_ft_sightings',
  tables: ['ft_sightings'],
  handles: ['PetListed', 'PetRenumbered', 'PetRemoved', 'PetSeen'],
  async apply(tx, e) {
    await tx('ft_sightings').insert({ event_id: e.eventId, pet_id: (e.data as PetEventData).petId });
  },
  fold: () => {
    const rows: FoldedRow[] = [];
    return {
      apply(e) {
        const d = e.data as PetEventData;
        if (d.fault) throw new Error(`fault injected in the fold at position ${e.position}`);
        rows.push({ event_id: e.eventId, pet_id: d.petId });
      },
      rows: () => ({ ft_sightings: rows }),
    };
  },
});

export const foldThreadTestProjections = importableFrom(import.meta.url, 'foldThreadTestProjections', [
  pets,
  totals,
  sightings,
]);
