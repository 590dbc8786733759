import type { Migration } from '../db/migrations';

/**
 * Personal-data keys, kept outside the event log (crypto-shredding, docs/decisions.md). One 256-bit key per user,
 * created on first need; destroying it leaves the row as a tombstone (key NULL) so no key is ever made again for
 * that user. The progress of the one-time encryption of events recorded before the keys existed is kept too.
 */
export const personalDataMigration: Migration = {
  name: '0006_platform_personal_data_keys',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE personal_data_keys (
        user_id      text PRIMARY KEY,
        key_id       uuid NOT NULL UNIQUE,
        key          bytea,
        created_at   timestamptz NOT NULL DEFAULT now(),
        destroyed_at timestamptz,
        CONSTRAINT personal_data_keys_tombstone CHECK ((key IS NULL) = (destroyed_at IS NOT NULL)),
        CONSTRAINT personal_data_keys_length CHECK (key IS NULL OR octet_length(key) = 32)
      );
      CREATE TABLE personal_data_migrations (
        name        text PRIMARY KEY,
        position    bigint NOT NULL DEFAULT 0,
        events      bigint NOT NULL DEFAULT 0,
        finished_at timestamptz
      );
    `);
  },
};
