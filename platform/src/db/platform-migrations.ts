import { sessionIndexesMigration } from '../auth/sessions';
import { personalDataMigration } from '../personal-data/migration';
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
  {
    name: '0003_platform_rate_limits_and_staged_images',
    async up(knex) {
      await knex.raw(`
        -- An image kept before its command was appended is staged: staged_for names the stream whose event must
        -- reference it. NULL once that event is known to exist (all earlier images are referenced).
        ALTER TABLE images ADD COLUMN staged_for text;
        CREATE INDEX images_staged ON images (created_at) WHERE staged_for IS NOT NULL;

        -- Rate-limit counters shared by every process: one fixed window per (limit, client key).
        CREATE TABLE rate_limits (
          limiter  text NOT NULL,
          key      text NOT NULL,
          hits     int NOT NULL,
          reset_at timestamptz NOT NULL,
          PRIMARY KEY (limiter, key)
        );
        CREATE INDEX rate_limits_reset_at ON rate_limits (reset_at);
      `);
    },
  },
  {
    name: '0004_platform_idempotency_keys',
    async up(knex) {
      await knex.raw(`
        -- Idempotency-Key: the first answer to a mutating request, replayed to a retry with the same key.
        -- status IS NULL while the first request runs (until locked_until, after which a retry may take over).
        CREATE TABLE idempotency_keys (
          scope        text NOT NULL,
          key          text NOT NULL,
          fingerprint  text NOT NULL,
          status       int,
          body         jsonb,
          locked_until timestamptz NOT NULL,
          created_at   timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (scope, key)
        );
        CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
      `);
    },
  },
  {
    name: '0005_platform_socket_io_attachments',
    async up(knex) {
      await knex.raw(`
        -- @socket.io/postgres-adapter: packets too large for a NOTIFY between query-api processes.
        CREATE TABLE socket_io_attachments (
          id         bigserial UNIQUE,
          created_at timestamptz DEFAULT now(),
          payload    bytea
        );
      `);
    },
  },
  personalDataMigration,
  {
    name: '0007_platform_event_browser_indexes',
    async up(knex) {
      // The admin event browser lists streams (each stream's first event) newest first and finds them by a
      // substring of their id. Both indexes cover first events only, so an append to an existing stream pays nothing.
      // The stream id rides along, so a filtered page or count reads the index alone.
      await knex.raw(
        `CREATE INDEX events_stream_starts ON events (position) INCLUDE (stream_id) WHERE stream_revision = 0`,
      );
      await knex.raw(`
        DO $$ BEGIN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
        EXCEPTION WHEN OTHERS THEN
          RAISE NOTICE 'pg_trgm is not available: the event browser scans streams to find one by id';
        END $$;
        DO $$ BEGIN
          IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
            CREATE INDEX events_stream_id_trgm ON events USING gin (stream_id gin_trgm_ops) WHERE stream_revision = 0;
          END IF;
        END $$;
      `);
    },
  },
  {
    // The Projections screen's 'last error': the live projector's failures as well as a rebuild's, kept where every
    // process (and a restarted one) reads them. A successful rebuild of the projection clears it.
    name: '0008_platform_projection_errors',
    async up(knex) {
      await knex.raw(`
        ALTER TABLE projection_checkpoints ADD COLUMN last_error text, ADD COLUMN last_error_at timestamptz;
      `);
    },
  },
  {
    // The dashboard's rebuilds, as they started and ended: a query-api process started after a rebuild (or one that
    // missed its notices) still shows the last one on the Projections screen. Progress in between goes by notices.
    name: '0009_platform_rebuild_runs',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE rebuild_runs (
          rebuild_id uuid PRIMARY KEY,
          started_at timestamptz NOT NULL,
          state      jsonb NOT NULL
        );
        CREATE INDEX rebuild_runs_started ON rebuild_runs (started_at DESC);
      `);
    },
  },
  sessionIndexesMigration,
  {
    // An idempotent answer is recorded in the transaction of the request's events (a row exists only once it is
    // final: no lease to run out after a crash), sealed with the keys of the people whose data it holds (`persons`,
    // empty when it holds none) and deleted with them. The answers kept until now were plaintext: they go (a retry
    // of one runs again; a create is still refused by its key-derived id).
    name: '0011_platform_idempotent_answers_sealed',
    async up(knex) {
      await knex.raw(`
        DELETE FROM idempotency_keys;
        ALTER TABLE idempotency_keys
          DROP COLUMN locked_until,
          ALTER COLUMN status SET NOT NULL,
          ADD COLUMN persons text[] NOT NULL DEFAULT '{}';
        CREATE INDEX idempotency_keys_persons ON idempotency_keys USING gin (persons);
      `);
    },
  },
  {
    // Change notices as sent, kept a few minutes: a listener that lost its connection (a database restart) reads
    // what was sent meanwhile instead of missing it (platform/src/projections/notices.ts).
    name: '0012_platform_change_notices',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE change_notices (
          id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          sent_at timestamptz NOT NULL DEFAULT now(),
          payload text NOT NULL
        );
        CREATE INDEX change_notices_sent_at ON change_notices (sent_at);
      `);
    },
  },
  {
    // Where each consumer group stands in each partition of the bus (Kafka), written in the same transaction as what
    // the consumed events did to the read models (platform/src/event-bus/kafka-projections.ts).
    name: '0013_platform_bus_partitions',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE bus_partitions (
          group_id       text NOT NULL,
          topic          text NOT NULL,
          partition      int NOT NULL,
          next_offset    bigint NOT NULL DEFAULT 0,
          applied_tx     xid8 NOT NULL DEFAULT '0'::xid8,
          applied_pos    bigint NOT NULL DEFAULT 0,
          watermark_tx   xid8 NOT NULL DEFAULT '0'::xid8,
          watermark_pos  bigint NOT NULL DEFAULT 0,
          updated_at     timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (group_id, topic, partition)
        );
      `);
    },
  },
  {
    // How far the copy of a KurrentDB log in the events table has come, in KurrentDB's positions (EVENT_STORE=kurrentdb;
    // platform/src/event-store/log-mirror/log-mirror.ts). Written in the same transaction as the copied events.
    name: '0014_platform_log_mirror',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE log_mirror (
          name              text PRIMARY KEY,
          source_commit     numeric(20) NOT NULL,
          source_prepare    numeric(20) NOT NULL,
          events_copied     bigint NOT NULL DEFAULT 0,
          updated_at        timestamptz NOT NULL DEFAULT now()
        );
      `);
    },
  },
];
