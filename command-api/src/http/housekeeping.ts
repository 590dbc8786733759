import type { Knex } from 'knex';
import { deleteOldChangeNotices, logger, noteIfDatabaseUnavailable } from '@pawhaven/platform';
import { sweepStagedImages } from '../images/image-store';
import { deleteExpiredRateLimits } from './rate-limit-store';

export type Housekeeping = { stop(): Promise<void> };

/**
 * The write side's clean-up, at start-up and then every `intervalMs`: settles staged images a crash left behind
 * (kept when an event names them, deleted otherwise), drops expired rate-limit counters and old change notices. All
 * are safe to run from several processes at once. A failed round is logged and tried again next time.
 */
export async function startHousekeeping(
  knex: Knex,
  opts: { intervalMs?: number; stagedImageMaxAgeSeconds?: number } = {},
): Promise<Housekeeping> {
  const round = async () => {
    try {
      const images = await sweepStagedImages(knex, opts.stagedImageMaxAgeSeconds);
      const counters = await deleteExpiredRateLimits(knex);
      const notices = await deleteOldChangeNotices(knex);
      if (images.kept + images.deleted + counters + notices > 0)
        logger.debug({ images, expiredRateLimits: counters, changeNotices: notices }, 'housekeeping');
    } catch (err) {
      if (!noteIfDatabaseUnavailable(err, 'housekeeping'))
        logger.warn({ err }, 'housekeeping failed; trying again later');
    }
  };
  let running: Promise<void> = round();
  await running;
  const timer = setInterval(
    () => {
      running = running.then(round);
    },
    opts.intervalMs ?? 5 * 60_000,
  );
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
