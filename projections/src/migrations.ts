import { platformMigrations, type Migration } from '@pawhaven/platform';

/** Read-model tables. Each projection owns its tables; a rebuild empties and refills them from the log. */
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
];

/** Every schema change of the product: the platform's tables first, then the read models. */
export const allMigrations: Migration[] = [...platformMigrations, ...readModelMigrations];
