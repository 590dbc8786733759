import { defineProjection } from '../projections/projection';
import { destroyPersonalDataKey } from './key-store';

/**
 * Who forgets a person: this reactor, following the log. When `UserDeleted` is recorded it destroys the user's key
 * in the same transaction as its checkpoint, so a crash neither skips nor half-does it, and any process that
 * replays the log repeats it harmlessly (a tombstone stays a tombstone). It owns no tables: a rebuild only
 * replays the destructions.
 */
export const personalDataShredderProjection = defineProjection({
  name: 'personal-data-shredder',
  tables: [],
  handles: ['UserDeleted'],
  async apply(tx, event) {
    const userId = (event.data as { userId?: unknown }).userId;
    if (typeof userId === 'string' && userId !== '') await destroyPersonalDataKey(tx, userId);
  },
});
