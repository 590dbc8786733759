import type { Knex } from 'knex';
import { afterCommit, loadState, logger, type EventStore } from '@pawhaven/platform';
import { userDecider } from './accounts/user';
import { releaseImagesAfter, releasesImages } from './images/released-images';
import { forgetDevMailsTo } from './mail/dev-mailbox';

/**
 * The command side's store, cleaning up after deletions as it appends them: every route appends through it, so a
 * new one needs nothing of its own.
 * - Once an append that leaves a picture unshown is committed (a post, an ad or a request deleted, a picture replaced or removed,
 *   an account deleted), the picture is deleted before the request answers. The `released-images` reactor does the
 *   same from the log, so a crash in between, or an append made elsewhere, is finished there; doing it here too
 *   makes it immediate even while the projections are held back.
 * - Before an account's deletion is appended, the dev mailbox forgets the mails to its address: it must be read
 *   while the person's key still opens it (the shredder destroys it as soon as the deletion is in the log), and
 *   forgetting first means no crash can leave them behind (a deletion that then fails has only lost dev mails).
 * Everything else is the inner store's, untouched.
 */
export function cleaningUpAfterDeletions<S extends EventStore>(
  store: S,
  knex: Knex,
  opts: { devMailbox: boolean },
): S {
  const append: EventStore['append'] = async (...args) => {
    const [streamId, events] = args;
    if (opts.devMailbox && events.some((e) => e.type === 'UserDeleted')) {
      await loadState(store, streamId, userDecider)
        .then(({ state }) => forgetDevMailsTo(knex, state.email))
        .catch((err: unknown) => logger.warn({ err, streamId }, 'dev mailbox not cleared'));
    }
    const result = await store.append(...args);
    // Once the append is committed (a keyed request commits with its answer): a request that fails after it
    // must not have taken the pictures of content that is still there.
    for (const event of events.filter(releasesImages)) {
      await afterCommit(() =>
        releaseImagesAfter(knex, { streamId, type: event.type, data: event.data }).catch((err: unknown) =>
          logger.warn({ err, streamId }, 'unshown pictures left for the released-images reactor'),
        ),
      );
    }
    return result;
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
