import type { Migration } from '@pawhaven/platform';

/**
 * Read-model tables of the chat projection. Conversation, message and user ids are text: message ids are UUIDs
 * made by the server, but user ids come from the accounts context and the projector must never stop on one.
 */
export const chatMigration: Migration = {
  name: '0130_read_models_chat',
  async up(knex) {
    await knex.raw(`
      CREATE TABLE conversations (
        id              text PRIMARY KEY,
        started_by      text NOT NULL,
        ad_id           text,
        created_at      timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL,
        last_message_id text,
        last_text       text,
        last_sender_id  text,
        last_at         timestamptz,
        message_count   int NOT NULL DEFAULT 0
      );

      -- One row per member: what they have received and read of the other member's messages.
      CREATE TABLE conversation_members (
        user_id         text NOT NULL,
        conversation_id text NOT NULL,
        other_id        text NOT NULL,
        delivered_seq   int NOT NULL DEFAULT 0,
        read_seq        int NOT NULL DEFAULT 0,
        unread_count    int NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, conversation_id)
      );
      CREATE INDEX conversation_members_conversation ON conversation_members (conversation_id);

      CREATE TABLE chat_messages (
        id                text PRIMARY KEY,
        conversation_id   text NOT NULL,
        seq               int NOT NULL,
        sender_id         text NOT NULL,
        recipient_id      text NOT NULL,
        text              text NOT NULL,
        client_message_id text NOT NULL,
        created_at        timestamptz NOT NULL,
        UNIQUE (conversation_id, seq)
      );
    `);
  },
};
