import type { Projection } from '@pawhaven/platform';
import { sessionsProjection } from './accounts/sessions.projection';
import { usersProjection } from './accounts/users.projection';

export { allMigrations, readModelMigrations } from './migrations';

/** Every read model of the product, by name (`npm run projections -- rebuild <name|all>`). */
export const allProjections: readonly Projection[] = [usersProjection, sessionsProjection];
