import { printFirstStart } from '@pawhaven/command-api';
import {
  databaseFromConfig,
  ensurePortFree,
  expectDatabaseShutdown,
  HTTP_PORT_USE,
  loadConfig,
  portError,
  runProcess,
  type Config,
  type DatabaseHandle,
} from '@pawhaven/platform';
import { startApp } from './app';

let config: Config | undefined;
let database: DatabaseHandle | undefined;

/** `npm start`: the whole product on one machine, with an embedded PostgreSQL unless DATABASE_URL is set. */
async function start() {
  config = loadConfig();
  // Before the database: a busy HTTP port should not cost a PostgreSQL start to find out.
  await ensurePortFree(config.PORT, HTTP_PORT_USE);
  console.log(
    config.DATABASE_URL
      ? 'Using the PostgreSQL at DATABASE_URL…'
      : `Starting the embedded PostgreSQL (data in ${config.DATA_DIR})…`,
  );
  database = await databaseFromConfig(config, {
    reuseRunning: false,
    onNotice: (message) => console.log(`  ${message}`),
  });
  const app = await startApp({
    databaseUrl: database.connectionString,
    port: config.PORT,
    demoData: database.embedded,
  }).catch(async (error: NodeJS.ErrnoException) => {
    // Taken between the check above and now.
    if (error.syscall === 'listen' && error.code)
      throw await portError(config!.PORT, HTTP_PORT_USE, error.code);
    throw error;
  });

  console.log(`\n  PawHaven is running at ${app.url}\n`);
  printFirstStart(app);
  if (app.config.devMailbox)
    console.log(`  E-mails (verification codes) are kept at ${app.url}/dev/mailbox\n`);
  console.log('  Press Ctrl-C to stop.\n');
  return app;
}

runProcess('PawHaven', start, {
  // A terminal's Ctrl-C reaches the embedded PostgreSQL too (same process group): it shuts down while we stop,
  // ending our connections (57P01). Expected from here on: not news to log, nor a crash to restart it from.
  onStopping: () => {
    expectDatabaseShutdown();
    database?.expectStop();
  },
  thenStop: async () => database?.stop(),
  databaseUrl: () => config?.DATABASE_URL,
});
