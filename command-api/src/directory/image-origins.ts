import type { Knex } from 'knex';
import { postgresReadModels } from '../ports/read-models';
import { SEED_DIR, seedFileImages } from './seed';

/**
 * The origins of the https pictures of directory and team entries (a seed entry's picture may be an https address),
 * for the Content-Security-Policy's img-src: those the read models show, and those of the seed files (on a first
 * start the entries are appended a moment before the read models have them). Pictures on this site need none.
 * Entries only enter the log at start, so the list is exact until the next start.
 */
export async function directoryImageOrigins(knex: Knex, dir = SEED_DIR): Promise<string[]> {
  const shown = await postgresReadModels({ knex }).directoryImages();
  const origins = new Set<string>();
  for (const image of [...shown, ...(await seedFileImages(dir))]) {
    if (!image.startsWith('https://')) continue;
    try {
      origins.add(new URL(image).origin);
    } catch {
      // Not an address: nothing to allow.
    }
  }
  return [...origins].sort();
}
