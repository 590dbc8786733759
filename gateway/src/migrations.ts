import { platformMigrations, type Migration } from '@pawhaven/platform';
import { readModelMigrations } from '@pawhaven/projections/migrations';

export const allMigrations: Migration[] = [...platformMigrations, ...readModelMigrations];
