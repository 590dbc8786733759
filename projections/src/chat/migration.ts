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

/**
 * Each message knows its sender's how-many-th message of the conversation it is (`sender_count`), so a receipt
 * counts the messages of the other member after what is read from two messages (the one read up to and the last)
 * instead of counting over the conversation. Existing messages are numbered here, in the order of `seq`.
 */
export const chatSenderCountsMigration: Migration = {
  name: '0210_read_models_chat_sender_counts',
  async up(knex) {
    await knex.raw(`
      ALTER TABLE chat_messages ADD COLUMN sender_count int;
      UPDATE chat_messages m SET sender_count = n.sender_count
        FROM (SELECT id, row_number() OVER (PARTITION BY conversation_id, sender_id ORDER BY seq) AS sender_count
                FROM chat_messages) n
       WHERE n.id = m.id;
      ALTER TABLE chat_messages ALTER COLUMN sender_count SET NOT NULL;
    `);
  },
};
