import { printFirstStart } from '@pawhaven/command-api';
import {
  ensurePortFree,
  HTTP_PORT_USE,
  loadConfig,
  ownedDatabase,
  portError,
  runProcess,
} from '@pawhaven/platform';
import { startApp } from './app';

const database = ownedDatabase();

/** `npm start`: the whole product on one machine, with an embedded PostgreSQL unless DATABASE_URL is set. */
runProcess(
  'PawHaven',
  async () => {
    const config = loadConfig();
    // Before the database: a busy HTTP port should not cost a PostgreSQL start to find out.
    await ensurePortFree(config.PORT, HTTP_PORT_USE);
    const db = await database.start(config);
    const app = await startApp({
      databaseUrl: db.connectionString,
      port: config.PORT,
      demoData: db.embedded,
    }).catch(async (error: NodeJS.ErrnoException) => {
      // Taken between the check above and now.
      if (error.syscall === 'listen' && error.code)
        throw await portError(config.PORT, HTTP_PORT_USE, error.code);
      throw error;
    });

    console.log(`\n  PawHaven is running at ${app.url}\n`);
    printFirstStart(app);
    if (app.config.devMailbox)
      console.log(`  E-mails (verification codes) are kept at ${app.url}/dev/mailbox\n`);
    console.log('  Press Ctrl-C to stop.\n');
    return app;
  },
  database.processOptions,
);
