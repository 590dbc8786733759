import type { Migration } from '@pawhaven/platform';

/**
 * Read-model tables of the public pages.
 *
 * - `directory` projection: `ngos`, `clinics`, `faq_items`, `team_members`, one row per entry, in the order of
 *   `sort_order` (the entry's place in its seed file). Lists and nested records are jsonb, as the pages show them.
 * - `landing-stats` projection: `landing_stats`, one row with the figures of the landing page's stats strip, kept
 *   rather than counted on every visit; `landing_stats_users` and `landing_stats_ads`, its own lookups of what each
 *   user and ad contributes, so every event moves the figures by exactly its own change.
 * - `contact-messages` projection: `contact_messages`, the messages of the contact form, newest first.
 */
export const publicPagesMigration: Migration = {
  name: '0150_read_models_public_pages',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE ngos (
        id          uuid PRIMARY KEY,
        sort_order  int NOT NULL,
        name        text NOT NULL,
        description text NOT NULL,
        phone       text NOT NULL,
        email       text NOT NULL,
        image       text NOT NULL,
        mission     text NOT NULL,
        services    jsonb NOT NULL,
        listed_at   timestamptz NOT NULL
      );
      CREATE INDEX ngos_order ON ngos (sort_order, name, id);

      CREATE TABLE clinics (
        id               uuid PRIMARY KEY,
        sort_order       int NOT NULL,
        name             text NOT NULL,
        location         text NOT NULL,
        image            text NOT NULL,
        veterinarians    jsonb NOT NULL,
        services_offered jsonb NOT NULL,
        phone            text NOT NULL,
        email            text,
        listed_at        timestamptz NOT NULL
      );
      CREATE INDEX clinics_order ON clinics (sort_order, name, id);

      CREATE TABLE faq_items (
        id           uuid PRIMARY KEY,
        sort_order   int NOT NULL,
        question     text NOT NULL,
        answer       text NOT NULL,
        published_at timestamptz NOT NULL
      );
      CREATE INDEX faq_items_order ON faq_items (sort_order, id);

      CREATE TABLE team_members (
        id         uuid PRIMARY KEY,
        sort_order int NOT NULL,
        name       text NOT NULL,
        role       text NOT NULL,
        image      text NOT NULL,
        summary    text NOT NULL,
        details    jsonb NOT NULL,
        contact    jsonb NOT NULL,
        added_at   timestamptz NOT NULL
      );
      CREATE INDEX team_members_order ON team_members (sort_order, name, id);

      CREATE TABLE landing_stats (
        id                boolean PRIMARY KEY DEFAULT true CHECK (id),
        ads_published     bigint NOT NULL DEFAULT 0,
        pets_adopted      bigint NOT NULL DEFAULT 0,
        registered_vets   bigint NOT NULL DEFAULT 0,
        community_members bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE landing_stats_users (
        id              text PRIMARY KEY,
        is_veterinarian boolean NOT NULL,
        is_admin        boolean NOT NULL,
        verified        boolean NOT NULL
      );
      CREATE TABLE landing_stats_ads (
        id      text PRIMARY KEY,
        counted boolean NOT NULL,
        adopted boolean NOT NULL
      );

      CREATE TABLE contact_messages (
        id          uuid PRIMARY KEY,
        name        text NOT NULL,
        email       text NOT NULL,
        message     text NOT NULL,
        user_id     text,
        received_at timestamptz NOT NULL
      );
      CREATE INDEX contact_messages_inbox ON contact_messages (received_at DESC, id DESC);
    `);
  },
};

/**
 * The landing page's 'Rescued' figure counts the ads listed now: an ad its owner deleted, or whose owner's account
 * was deleted, no longer counts (it counted every ad ever published but those an administrator removed). Each ad
 * now knows its owner; the projection's tables are emptied and its checkpoint removed, so the projector replays the
 * log into them on the next start.
 */
export const landingStatsListedAdsMigration: Migration = {
  name: '0200_read_models_landing_stats_listed_ads',
  async up(knex) {
    await knex.raw(`
      TRUNCATE landing_stats, landing_stats_users, landing_stats_ads;
      ALTER TABLE landing_stats_ads ADD COLUMN owner_id text NOT NULL;
      CREATE INDEX landing_stats_ads_owner ON landing_stats_ads (owner_id);
      DELETE FROM projection_checkpoints WHERE name = 'landing-stats';
    `);
  },
};
