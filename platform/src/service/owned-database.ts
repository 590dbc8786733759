import type { Config } from '../config';
import { expectDatabaseShutdown } from '../db/availability';
import { databaseFromConfig, type DatabaseHandle } from '../embedded/database-from-config';
import type { runProcess } from './run-process';

/**
 * The database of a process that brings its own (`npm start`, `npm run cluster`): DATABASE_URL's, or an embedded
 * PostgreSQL under DATA_DIR started with it; `processOptions` has `runProcess` stop it after everything else.
 */
export function ownedDatabase() {
  let config: Config | undefined;
  let handle: DatabaseHandle | undefined;
  const processOptions: NonNullable<Parameters<typeof runProcess>[2]> = {
    // A terminal's Ctrl-C reaches the embedded PostgreSQL too (same process group): it shuts down while we stop,
    // ending our connections (57P01). Expected from here on: not news to log, nor a crash to restart it from.
    onStopping: () => {
      expectDatabaseShutdown();
      handle?.expectStop();
    },
    thenStop: async () => handle?.stop(),
    databaseUrl: () => config?.DATABASE_URL,
  };
  return {
    processOptions,
    async start(settings: Config): Promise<DatabaseHandle> {
      config = settings;
      console.log(
        settings.DATABASE_URL
          ? 'Using the PostgreSQL at DATABASE_URL…'
          : `Starting the embedded PostgreSQL (data in ${settings.DATA_DIR})…`,
      );
      handle = await databaseFromConfig(settings, {
        reuseRunning: false,
        onNotice: (message) => console.log(`  ${message}`),
      });
      return handle;
    },
  };
}
