import type { Migration } from '@pawhaven/platform';

/** Read-model tables. Each projection owns its tables; a rebuild empties and refills them from the log. */
export const readModelMigrations: Migration[] = [];
