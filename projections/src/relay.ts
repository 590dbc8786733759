import { listenOnPort, openStandaloneService, runProcess } from '@pawhaven/platform';
import { allMigrations, allProjections } from './index';
import { startKafkaRelay } from './service';

/**
 * The relay on its own (`npm run start:relay`, with EVENT_BUS=kafka): publishes the log to Kafka. Several may run;
 * one publishes at a time. Its port answers only GET /healthz.
 */
runProcess('relay', async () => {
  const { config, context } = await openStandaloneService('relay', {
    migrations: allMigrations,
    projections: allProjections,
  });
  if (config.EVENT_BUS !== 'kafka')
    throw new Error('Invalid configuration: EVENT_BUS: the relay needs EVENT_BUS=kafka');
  const relay = startKafkaRelay(context)!;
  const http = await listenOnPort(config.PORT, (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('The relay serves no pages.');
  });
  console.log(`relay running (publishing to ${config.KAFKA_TOPIC}; health on port ${http.port})`);
  return {
    async stop() {
      await http.close();
      await relay.stop();
      await context.close();
    },
  };
});
