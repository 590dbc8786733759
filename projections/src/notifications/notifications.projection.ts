import { defineProjection } from '@pawhaven/platform';

/** Notifications built from the log (TODO). */
export const notificationsProjection = defineProjection({
  name: 'notifications',
  tables: [],
  handles: [],
  async apply() {},
});
