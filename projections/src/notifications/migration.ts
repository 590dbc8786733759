import type { Migration } from '@pawhaven/platform';

/**
 * Read-model tables of the notifications projection.
 *
 * `notifications`: one row per notification, as its recipient sees it. The ids it points at (post, comment, ad,
 * request, actor) are kept as columns too, so a deleted post or comment and an unlike find the rows they remove.
 * The list and the counts are served by (user_id, created_at DESC, id DESC) and a partial index of the unread.
 *
 * The other tables are this projection's own lookups, written from the log as it goes (never another projection's
 * tables: a rebuild replays one projection alone): who is who (usernames, veterinarians), which posts are live,
 * which ad belongs to whom and is called what, which request was sent by whom on which ad.
 */
export const notificationsMigration: Migration = {
  name: '0140_read_models_notifications',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE notifications (
        id         uuid PRIMARY KEY,
        user_id    text NOT NULL,
        type       text NOT NULL,
        title      text NOT NULL,
        message    text NOT NULL,
        data       jsonb NOT NULL,
        actor_id   text,
        post_id    text,
        comment_id text,
        ad_id      text,
        request_id text,
        read       boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX notifications_user ON notifications (user_id, created_at DESC, id DESC);
      CREATE INDEX notifications_unread ON notifications (user_id) WHERE NOT read;
      CREATE INDEX notifications_post ON notifications (post_id) WHERE post_id IS NOT NULL;
      CREATE INDEX notifications_comment ON notifications (comment_id) WHERE comment_id IS NOT NULL;

      CREATE TABLE notification_users (
        id              text PRIMARY KEY,
        username        text NOT NULL,
        is_veterinarian boolean NOT NULL,
        verified        boolean NOT NULL
      );
      CREATE INDEX notification_users_vets ON notification_users (id) WHERE is_veterinarian AND verified;

      CREATE TABLE notification_posts (
        id        text PRIMARY KEY,
        author_id text NOT NULL
      );

      CREATE TABLE notification_ads (
        id       text PRIMARY KEY,
        owner_id text NOT NULL,
        name     text NOT NULL
      );

      CREATE TABLE notification_adoption_requests (
        id           text PRIMARY KEY,
        ad_id        text NOT NULL,
        requester_id text NOT NULL
      );
    `);
  },
};
