import { defineProjection } from '@pawhaven/platform';
import { IMAGE_RELEASING_EVENTS, releaseImagesAfter } from './released-images';

/**
 * Deletes the pictures a deletion, replacement or removal left unshown, following the log: whichever route, admin
 * screen or script recorded it, in the same transaction as its checkpoint, so a crash neither skips it nor half does
 * it (after a restart it picks up from its checkpoint). Like the shredder it owns no table, so it is not among the
 * read models a rebuild rebuilds; the app runs it beside them.
 */
export const releasedImagesReactor = defineProjection({
  name: 'released-images',
  tables: [],
  handles: IMAGE_RELEASING_EVENTS,
  async apply(tx, event) {
    await releaseImagesAfter(tx, event);
  },
});
