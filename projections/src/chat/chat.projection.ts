import { defineProjection } from '@pawhaven/platform';

/** Conversations and messages (TODO). */
export const chatProjection = defineProjection({
  name: 'chat',
  tables: [],
  handles: [],
  async apply() {},
});
