import { platformMigrations, type Migration } from '@pawhaven/platform';
import { chatMigration, chatSenderCountsMigration } from './chat/migration';
import { notificationsMigration, vetPostBroadcastsMigration } from './notifications/migration';
import { landingStatsListedAdsMigration, publicPagesMigration } from './directory/migration';

/** Read-model tables. Each projection owns its tables; a rebuild replays the log into copies and swaps them in. */
export const readModelMigrations: Migration[] = [
  {
    name: '0100_read_models_accounts',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE users (
          id              text PRIMARY KEY,
          username        text NOT NULL,
          email           text NOT NULL,
          phone           text NOT NULL DEFAULT '',
          city            text NOT NULL DEFAULT '',
          about           text NOT NULL DEFAULT '',
          profile_image   text,
          is_veterinarian boolean NOT NULL DEFAULT false,
          is_admin        boolean NOT NULL DEFAULT false,
          verified        boolean NOT NULL DEFAULT false,
          joined_date     timestamptz NOT NULL,
          last_active     timestamptz
        );
        CREATE INDEX users_username ON users (lower(username));
        CREATE INDEX users_email ON users (lower(email));

        CREATE TABLE sessions (
          id          text PRIMARY KEY,
          user_id     text NOT NULL,
          started_at  timestamptz NOT NULL,
          expires_at  timestamptz NOT NULL,
          revoked_at  timestamptz
        );
        CREATE INDEX sessions_user ON sessions (user_id);
      `);
    },
  },
  {
    name: '0110_read_models_adoption',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE adoption_ads (
          id                 text PRIMARY KEY,
          owner_id           text NOT NULL,
          name               text NOT NULL,
          age                text NOT NULL,
          age_unit           text NOT NULL,
          pet_type           text NOT NULL,
          breed              text NOT NULL,
          gender             text,
          size               text,
          vaccinated         boolean,
          spayed_neutered    boolean,
          good_with_children boolean,
          good_with_dogs     boolean,
          good_with_cats     boolean,
          description        text NOT NULL,
          location           text NOT NULL,
          image_url          text NOT NULL,
          status             text NOT NULL,
          request_count      int NOT NULL DEFAULT 0,
          created_at         timestamptz NOT NULL,
          updated_at         timestamptz NOT NULL,
          deleted_at         timestamptz,
          search             tsvector GENERATED ALWAYS AS (
            to_tsvector('simple', name || ' ' || breed || ' ' || pet_type || ' ' || location || ' ' || description)
          ) STORED
        );
        CREATE INDEX adoption_ads_listing ON adoption_ads (created_at DESC, id) WHERE deleted_at IS NULL;
        CREATE INDEX adoption_ads_owner ON adoption_ads (owner_id, created_at DESC);
        CREATE INDEX adoption_ads_search ON adoption_ads USING gin (search);
        CREATE INDEX adoption_ads_location ON adoption_ads (lower(location));

        CREATE TABLE adoption_requests (
          id                text PRIMARY KEY,
          ad_id             text NOT NULL,
          requester_id      text NOT NULL,
          name              text NOT NULL,
          email             text NOT NULL,
          phone             text NOT NULL,
          message           text NOT NULL,
          pet_history_image text,
          status            text NOT NULL,
          reason            text,
          requested_at      timestamptz NOT NULL,
          responded_at      timestamptz
        );
        CREATE INDEX adoption_requests_ad ON adoption_requests (ad_id, requested_at);
        CREATE INDEX adoption_requests_requester ON adoption_requests (requester_id, requested_at DESC);

        CREATE TABLE adoption_audit (
          position    bigint PRIMARY KEY,
          ad_id       text NOT NULL,
          request_id  text,
          subject     text NOT NULL,
          event_type  text NOT NULL,
          from_status text,
          to_status   text,
          actor_id    text,
          at          timestamptz NOT NULL,
          details     jsonb NOT NULL DEFAULT '{}'::jsonb
        );
        CREATE INDEX adoption_audit_ad ON adoption_audit (ad_id, position);

        CREATE TABLE user_adoption_stats (
          user_id  text PRIMARY KEY,
          ads      int NOT NULL DEFAULT 0,
          requests int NOT NULL DEFAULT 0
        );
        CREATE TABLE user_adoption_stats_ads (
          ad_id    text PRIMARY KEY,
          owner_id text NOT NULL
        );
      `);
    },
  },
  {
    name: '0120_read_models_community',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE posts (
          id                     uuid PRIMARY KEY,
          author_id              text NOT NULL,
          caption                text NOT NULL,
          image_url              text NOT NULL,
          author_is_veterinarian boolean NOT NULL,
          like_count             int NOT NULL DEFAULT 0,
          comment_count          int NOT NULL DEFAULT 0,
          created_at             timestamptz NOT NULL,
          updated_at             timestamptz NOT NULL
        );
        CREATE INDEX posts_feed ON posts (created_at DESC, id DESC);
        CREATE INDEX posts_author ON posts (author_id, created_at DESC, id DESC);
        -- The feed's X-Total-Count, kept rather than counted on every page.
        CREATE TABLE community_totals (
          id    boolean PRIMARY KEY DEFAULT true CHECK (id),
          posts int NOT NULL DEFAULT 0
        );

        CREATE TABLE post_likes (
          post_id  uuid NOT NULL,
          user_id  text NOT NULL,
          liked_at timestamptz NOT NULL,
          PRIMARY KEY (post_id, user_id)
        );

        -- thread_id / thread_created_at: the top-level comment a comment belongs to (itself at top level), so the
        -- feed can take the newest threads whole. live_replies: live comments below it, at any depth; a deleted
        -- comment is shown (content '') while it has any, so its thread keeps its shape.
        CREATE TABLE post_comments (
          id                uuid PRIMARY KEY,
          post_id           uuid NOT NULL,
          author_id         text NOT NULL,
          content           text NOT NULL,
          parent_comment_id uuid,
          deleted           boolean NOT NULL DEFAULT false,
          created_at        timestamptz NOT NULL,
          deleted_at        timestamptz,
          thread_id         uuid NOT NULL,
          thread_created_at timestamptz NOT NULL,
          live_replies      int NOT NULL DEFAULT 0
        );
        CREATE INDEX post_comments_threads
          ON post_comments (post_id, thread_created_at DESC, thread_id DESC, created_at, id);

        CREATE TABLE user_community_stats (
          user_id        text PRIMARY KEY,
          posts          int NOT NULL DEFAULT 0,
          comments       int NOT NULL DEFAULT 0,
          likes_given    int NOT NULL DEFAULT 0,
          likes_received int NOT NULL DEFAULT 0
        );

        CREATE TABLE user_activity (
          user_id     text PRIMARY KEY,
          last_active timestamptz NOT NULL
        );
      `);
    },
  },
  chatMigration,
  notificationsMigration,
  publicPagesMigration,
  {
    // Deleting users and adoption requests (issue 10). `user_adoption_stats_requests`: which request counts for
    // whom, so a deleted request or a deleted owner's ad takes it away from its requester; filled from the log up to
    // the projection's checkpoint (later events insert their own). `notification_users.deleted`: a tombstone (id
    // only, name blanked) so nobody is notified of anything after their account was deleted.
    name: '0160_read_models_deletions',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE user_adoption_stats_requests (
          request_id   text PRIMARY KEY,
          ad_id        text NOT NULL,
          requester_id text NOT NULL
        );
        CREATE INDEX user_adoption_stats_requests_ad ON user_adoption_stats_requests (ad_id);
        CREATE INDEX user_adoption_stats_requests_requester ON user_adoption_stats_requests (requester_id);
        CREATE INDEX user_adoption_stats_ads_owner ON user_adoption_stats_ads (owner_id);

        INSERT INTO user_adoption_stats_requests (request_id, ad_id, requester_id)
        SELECT e.data->>'requestId', substring(e.stream_id FROM length('adoption-') + 1), e.data->>'requesterId'
          FROM events e
          JOIN projection_checkpoints c ON c.name = 'user-adoption-stats'
         WHERE e.type = 'AdoptionRequested' AND (e.transaction_id, e.position) <= (c.transaction_id, c.position)
           AND e.data->>'requestId' IS NOT NULL AND e.data->>'requesterId' IS NOT NULL
        ON CONFLICT (request_id) DO NOTHING;

        ALTER TABLE notification_users ADD COLUMN deleted boolean NOT NULL DEFAULT false;
      `);
    },
  },
  {
    // The admin dashboard's lists (issue 10): each default order and per-user list is an index scan, so a page of
    // 100,000 rows costs milliseconds. Indexes only; the tables and their projections are unchanged.
    name: '0175_read_models_admin_list_indexes',
    async up(knex) {
      await knex.raw(`
        CREATE INDEX users_joined ON users (joined_date DESC, id DESC);
        CREATE INDEX users_kind_joined ON users (is_admin, is_veterinarian, joined_date DESC, id DESC);
        CREATE INDEX adoption_requests_recent ON adoption_requests (requested_at DESC, id DESC);
        CREATE INDEX post_comments_recent ON post_comments (created_at DESC, id DESC) WHERE NOT deleted;
        CREATE INDEX post_comments_author ON post_comments (author_id, created_at DESC, id DESC) WHERE NOT deleted;
        CREATE INDEX adoption_ads_status ON adoption_ads (status, created_at DESC, id);
        CREATE INDEX adoption_ads_by_name ON adoption_ads (lower(name), created_at DESC, id) WHERE deleted_at IS NULL;
        CREATE INDEX adoption_ads_by_type ON adoption_ads (pet_type, created_at DESC, id) WHERE deleted_at IS NULL;
        CREATE INDEX adoption_ads_by_age ON adoption_ads (age, created_at DESC, id) WHERE deleted_at IS NULL;
        CREATE INDEX adoption_requests_status ON adoption_requests (status, requested_at DESC, id DESC);
        CREATE INDEX adoption_requests_by_name ON adoption_requests (lower(name), requested_at DESC, id DESC);
        CREATE INDEX posts_comment_count ON posts (comment_count, created_at, id);
      `);
      // Manage Users' search (a substring of name or e-mail) through trigrams where the server has pg_trgm (the
      // embedded one does); without it the search scans, and nothing else changes.
      await knex.raw(`
        DO $$ BEGIN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
        EXCEPTION WHEN OTHERS THEN
          RAISE NOTICE 'pg_trgm is not available: the admin user search scans the users table';
        END $$;
        DO $$ BEGIN
          IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
            CREATE INDEX users_search_trgm ON users USING gin ((lower(username) || ' ' || lower(email)) gin_trgm_ops);
          END IF;
        END $$;
      `);
    },
  },
  vetPostBroadcastsMigration,
  {
    // A pet's name is its owner's text, sealed in the log with their key: the audit timeline no longer copies it
    // (the history screen shows the ad's own name), so a deleted owner's pet is not named there either.
    name: '0180_adoption_audit_without_pet_names',
    async up(knex) {
      await knex.raw(
        `UPDATE adoption_audit SET details = details - 'name' WHERE details->'name' IS NOT NULL`,
      );
    },
  },
  {
    // The public listing shows available pets first, then the rest (adopted), newest first within each: an index in
    // that order lets a page stop after its rows instead of sorting every live ad.
    name: '0190_adoption_listing_available_first',
    async up(knex) {
      await knex.raw(`
        CREATE INDEX adoption_ads_listing_available_first
          ON adoption_ads ((status <> 'available'), created_at DESC, id DESC) WHERE deleted_at IS NULL;
      `);
    },
  },
  landingStatsListedAdsMigration,
  chatSenderCountsMigration,
  {
    // A column a read model finds rows by (`lookups`) or asks ranges of (`ranges`) leads an index, or each such
    // lookup of the live projector reads the whole table (checked for every model by lookup-indexes.int.test.ts).
    name: '0220_read_models_lookup_indexes',
    async up(knex) {
      await knex.raw(`
        CREATE INDEX post_likes_user ON post_likes (user_id);
        CREATE INDEX notifications_actor ON notifications (actor_id);
        CREATE INDEX notifications_request ON notifications (request_id);
        CREATE INDEX notification_posts_author ON notification_posts (author_id);
        CREATE INDEX notification_ads_owner ON notification_ads (owner_id);
        CREATE INDEX notification_adoption_requests_requester ON notification_adoption_requests (requester_id);
        CREATE INDEX notification_adoption_requests_ad ON notification_adoption_requests (ad_id);
        CREATE INDEX notification_vet_terms_until ON notification_vet_terms (until);
        CREATE INDEX contact_messages_user ON contact_messages (user_id);
      `);
    },
  },
  {
    // Sessions have streams of their own: a session names the user stream's revision it was decided on, and the
    // resets and deletion that end sessions decided before them are kept (sessions.projection.ts).
    name: '0230_read_models_session_streams',
    async up(knex) {
      await knex.raw(`
        ALTER TABLE sessions ADD COLUMN user_revision integer;
        CREATE TABLE session_ends (
          user_id       text NOT NULL,
          user_revision integer NOT NULL,
          ended_at      timestamptz NOT NULL,
          deleted       boolean NOT NULL,
          PRIMARY KEY (user_id, user_revision)
        );
      `);
    },
  },
  {
    // The listing's total without counting every ad per page: counts per owner and kind, kept by the adoption-ads
    // projection (filled here from the ads already listed). A city is a substring: trigrams find it without
    // reading every ad (where the server has pg_trgm; without it the city filter scans, and nothing else changes).
    name: '0240_adoption_listing_counts',
    async up(knex) {
      await knex.raw(`
        CREATE TABLE adoption_listing_counts (
          owner_id text NOT NULL,
          bucket   text NOT NULL,
          n        integer NOT NULL,
          PRIMARY KEY (owner_id, bucket)
        );
        WITH listed AS (
          SELECT owner_id,
                 CASE pet_type WHEN 'Dog' THEN 'dog' WHEN 'Cat' THEN 'cat' ELSE 'other' END AS bucket
          FROM adoption_ads WHERE deleted_at IS NULL)
        INSERT INTO adoption_listing_counts (owner_id, bucket, n)
          SELECT owner_id, bucket, count(*) FROM listed GROUP BY owner_id, bucket
          UNION ALL
          SELECT '', bucket, count(*) FROM listed GROUP BY bucket;
        DO $$ BEGIN
          IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
            CREATE INDEX adoption_ads_location_trgm ON adoption_ads USING gin (lower(location) gin_trgm_ops)
              WHERE deleted_at IS NULL;
          END IF;
        END $$;
      `);
    },
  },
];

/** Every schema change of the product: the platform's tables first, then the read models. */
export const allMigrations: Migration[] = [...platformMigrations, ...readModelMigrations];
