import type { Knex } from 'knex';

/** A schema change owned by one workspace; names are global and sort in the order they must run. */
export type Migration = { name: string; up(knex: Knex): Promise<void> };

export async function migrate(knex: Knex, migrations: Migration[]): Promise<string[]> {
  const sorted = [...migrations].sort((a, b) => a.name.localeCompare(b.name));
  const source: Knex.MigrationSource<Migration> = {
    getMigrations: async () => sorted,
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({ up: (k: Knex) => m.up(k), down: async () => {} }),
  };
  const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}
