import { allMigrations, allProjections } from '@pawhaven/projections';
import {
  listenOnPort,
  oneAtATime,
  openStandaloneService,
  runProcess,
  runProjector,
} from '@pawhaven/platform';
import { commandReactors, prepareCommandSide, printFirstStart, startCommandService } from './service';

/**
 * command-api on its own (`npm run start:command-api`; the distributed deployment runs several behind nginx):
 * every POST/PUT/PATCH/DELETE of the product, and the write side's reactors, followed by one node at a time.
 */
runProcess('command-api', async () => {
  const { config, context, started } = await openStandaloneService('command-api', {
    migrations: allMigrations,
    projections: allProjections,
    firstStart: (c) => prepareCommandSide(c, { demoData: c.config.DEMO_DATA }),
  });
  const command = await startCommandService(context);
  const abort = new AbortController();
  const reactors = oneAtATime(
    context.databaseUrl,
    'command-reactors',
    (signal) => runProjector(context.db.knex, context.store, commandReactors, signal),
    abort.signal,
  );
  const http = await listenOnPort(config.PORT, command.app);
  console.log(`command-api listening on port ${http.port}`);
  printFirstStart(started);
  return {
    async stop() {
      await http.close();
      abort.abort();
      await reactors;
      await command.stop();
      await context.close();
    },
  };
});
