import express from 'express';
import { directoryImageOrigins, socketChatCommands } from '@pawhaven/command-api';
import { allMigrations, allProjections } from '@pawhaven/projections';
import { listenOnPort, openStandaloneService, runProcess } from '@pawhaven/platform';
import { frontendPages } from './pages/frontend';
import { startQueryService } from './service';

/**
 * query-api on its own (`npm run start:query-api`; the distributed deployment runs several behind nginx): every read
 * of the product, the sockets (shared between nodes through the database), and the frontend's pages.
 */
runProcess('query-api', async () => {
  const { config, context } = await openStandaloneService('query-api', {
    migrations: allMigrations,
    projections: allProjections,
  });
  const chat = socketChatCommands(context);
  const query = await startQueryService(context, {
    projections: allProjections,
    sendMessage: (userId, body) => chat.send(userId, body),
  });
  const frontend = frontendPages({
    imageOrigins: await directoryImageOrigins(context.db.knex),
    production: config.NODE_ENV === 'production',
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(frontend.security);
  app.use((req, res, next) => (/^\/(api|dev)(\/|$)/.test(req.path) ? query.app(req, res, next) : next()));
  app.use(frontend.pages);
  const http = await listenOnPort(config.PORT, app);
  const realtime = await query.attachSockets(http.server);
  console.log(`query-api listening on port ${http.port}`);
  return {
    async stop() {
      await realtime.close();
      await http.close();
      await query.stop();
      await context.close();
    },
  };
});
