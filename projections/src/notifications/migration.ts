import type { Migration } from '@pawhaven/platform';

/** Read-model tables of the notifications projection. */
export const notificationsMigration: Migration = {
  name: '0140_read_models_notifications',
  async up(knex) {
    await knex.raw(`SELECT 1`); // TODO(notifications): tables
  },
};
