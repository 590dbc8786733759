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

/**
 * A veterinarian's post told every verified veterinarian, one `notifications` row each: most of the read model's
 * rows (3.5 million of 4.7 on a million-event log), and most of a rebuild's time. It is now kept once:
 *
 * - `notification_broadcasts`: the post's notification, once, keyed by the event that caused it, with its position
 *   in the log;
 * - `notification_vet_terms`: when each user was a verified veterinarian (from the event that made them one to the
 *   one that ended it, `until` NULL while they are): a broadcast reaches those who were, except its author;
 * - `notification_receipts`: one row where a recipient read (`deleted` false) or deleted one broadcast;
 * - `notification_marks`: a user's last 'mark all read' / 'delete all' as log positions: every broadcast before it
 *   is read / deleted for them.
 *
 * Each recipient still sees their own notification with its own id: `notification_id(event, recipient)` computes
 * the id the projection always gave (SHA-1 in UUID version 5 layout, pgcrypto's `digest`), so the reads and
 * deletes recorded in the log against the old rows still apply. `user_notifications(userId)` is what every reader
 * reads: a user's notifications, personal rows and broadcasts alike, with their read flags.
 *
 * The projection's tables are emptied and its checkpoint removed: the projector replays the log into the new
 * shape on the next start (`npm run projections -- rebuild notifications` does it faster on a large log).
 */
export const vetPostBroadcastsMigration: Migration = {
  name: '0180_read_models_notification_broadcasts',
  async up(knex) {
    await knex.raw(`
      CREATE EXTENSION IF NOT EXISTS pgcrypto;

      CREATE FUNCTION notification_id(event_id uuid, recipient_id text) RETURNS uuid
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE d bytea := digest(event_id::text || E'\\n' || recipient_id, 'sha1');
      BEGIN
        -- The first 16 bytes; byte 6's high digit 5 (the version), byte 8's two high bits 10 (the variant).
        RETURN encode(set_byte(set_byte(substring(d FROM 1 FOR 16), 6, (get_byte(d, 6) & 15) | 80),
                               8, (get_byte(d, 8) & 63) | 128), 'hex')::uuid;
      END $$;

      CREATE TABLE notification_broadcasts (
        id         uuid PRIMARY KEY,
        position   bigint NOT NULL,
        type       text NOT NULL,
        title      text NOT NULL,
        message    text NOT NULL,
        data       jsonb NOT NULL,
        actor_id   text NOT NULL,
        post_id    text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX notification_broadcasts_position ON notification_broadcasts (position);
      CREATE INDEX notification_broadcasts_post ON notification_broadcasts (post_id);
      CREATE INDEX notification_broadcasts_actor ON notification_broadcasts (actor_id);

      CREATE TABLE notification_vet_terms (
        user_id text NOT NULL,
        since   bigint NOT NULL,
        until   bigint,
        PRIMARY KEY (user_id, since)
      );
      CREATE INDEX notification_vet_terms_open ON notification_vet_terms (user_id) WHERE until IS NULL;

      CREATE TABLE notification_receipts (
        broadcast_id uuid NOT NULL,
        user_id      text NOT NULL,
        deleted      boolean NOT NULL,
        PRIMARY KEY (user_id, broadcast_id)
      );
      CREATE INDEX notification_receipts_broadcast ON notification_receipts (broadcast_id);

      CREATE TABLE notification_marks (
        user_id        text PRIMARY KEY,
        read_before    bigint NOT NULL DEFAULT 0,
        deleted_before bigint NOT NULL DEFAULT 0
      );

      -- Not a view: a view is bound to the live tables, while a rebuild's catch-up runs this projection's own
      -- statements against its temporary copies (a SQL function's body is resolved where it is called). Inlined
      -- into the calling statement (STABLE, not STRICT), so a page or a count is planned as a whole.
      CREATE FUNCTION user_notifications(recipient text)
      RETURNS TABLE (id uuid, type text, title text, message text, data jsonb, read boolean,
                     created_at timestamptz, broadcast_id uuid)
      LANGUAGE sql STABLE PARALLEL SAFE AS $$
        SELECT n.id, n.type, n.title, n.message, n.data, n.read, n.created_at, NULL::uuid
          FROM notifications n
         WHERE n.user_id = recipient
        UNION ALL
        SELECT notification_id(b.id, t.user_id), b.type, b.title, b.message, b.data,
               b.position < coalesce(m.read_before, 0) OR r.user_id IS NOT NULL, b.created_at, b.id
          FROM notification_vet_terms t
          JOIN notification_broadcasts b
            ON b.position > t.since AND (t.until IS NULL OR b.position < t.until) AND b.actor_id <> t.user_id
          LEFT JOIN notification_marks m ON m.user_id = t.user_id
          LEFT JOIN notification_receipts r ON r.user_id = t.user_id AND r.broadcast_id = b.id
         WHERE t.user_id = recipient AND b.position > coalesce(m.deleted_before, 0) AND r.deleted IS NOT TRUE
      $$;

      TRUNCATE notifications, notification_users, notification_posts, notification_ads,
               notification_adoption_requests;
      DELETE FROM projection_checkpoints WHERE name = 'notifications';
    `);
  },
};
