import { listenOnPort, openStandaloneService, runProcess } from '@pawhaven/platform';
import { allMigrations, allProjections } from './index';
import { startProjectionWorker } from './service';

/**
 * A projection worker on its own (`npm run start:projections`): keeps every read model up to date. Several may run;
 * one projects at a time and the others stand by (service.ts). Its port answers only GET /healthz.
 */
runProcess('projections', async () => {
  const { config, context } = await openStandaloneService('projections', {
    migrations: allMigrations,
    projections: allProjections,
  });
  const worker = startProjectionWorker(context, {
    onStandingBy: () => console.log('Another worker is projecting: this one stands by to take over.'),
    onTakingOver: () => console.log('This worker takes over the projecting.'),
  });
  const http = await listenOnPort(config.PORT, (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('A projection worker serves no pages.');
  });
  console.log(`projection worker running (health on port ${http.port})`);
  return {
    async stop() {
      await http.close();
      await worker.stop();
      await context.close();
    },
  };
});
