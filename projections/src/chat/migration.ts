import type { Migration } from '@pawhaven/platform';

/** Read-model tables of the chat projection. */
export const chatMigration: Migration = {
  name: '0130_read_models_chat',
  async up(knex) {
    await knex.raw(`SELECT 1`); // TODO(chat): tables
  },
};
