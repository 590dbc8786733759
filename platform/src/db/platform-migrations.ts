import type { Migration } from './migrations';

/** Tables owned by the platform: the event log, projection checkpoints, stored images, secrets, dev mailbox. */
export const platformMigrations: Migration[] = [
  {
    name: '0001_platform_event_store',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE events (
          position        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
          stream_id       text NOT NULL,
          stream_revision bigint NOT NULL,
          event_id        uuid NOT NULL,
          type            text NOT NULL,
          data            jsonb NOT NULL,
          metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
          created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
          CONSTRAINT events_stream_revision_unique UNIQUE (stream_id, stream_revision),
          CONSTRAINT events_event_id_unique UNIQUE (event_id)
        );
        -- The one global order: readers order, page and checkpoint by (transaction_id, position).
        CREATE INDEX events_global_order ON events (transaction_id, position);

        CREATE TABLE projection_checkpoints (
          name           text PRIMARY KEY,
          transaction_id xid8 NOT NULL DEFAULT '0'::xid8,
          position       bigint NOT NULL DEFAULT 0,
          events_processed bigint NOT NULL DEFAULT 0,
          updated_at     timestamptz NOT NULL DEFAULT now()
        );
      `);
    },
  },
  {
    name: '0002_platform_support_tables',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE images (
          id           text PRIMARY KEY,
          content_type text NOT NULL,
          bytes        bytea NOT NULL,
          width        int NOT NULL,
          height       int NOT NULL,
          created_at   timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE runtime_secrets (
          name  text PRIMARY KEY,
          value text NOT NULL
        );
        CREATE TABLE dev_mailbox (
          id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          "to"      text NOT NULL,
          subject   text NOT NULL,
          text      text NOT NULL,
          html      text,
          sent_at   timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX dev_mailbox_to ON dev_mailbox (lower("to"), id DESC);
      `);
    },
  },
];
