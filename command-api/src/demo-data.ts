import { allMigrations, allProjections } from '@pawhaven/projections';
import { loadConfig, openServiceContext, sharedDatabaseUrl } from '@pawhaven/platform';
import { prepareCommandSide, printFirstStart } from './service';

/**
 * Loads the demo accounts, ads, posts and chats into the database at DATABASE_URL, once (a second run finds the demo
 * accounts and adds nothing), then exits: `docker compose run --rm command-api npm run demo-data`.
 */
const config = loadConfig();
if (config.NODE_ENV === 'production') {
  console.error('Demo data is never loaded in production (NODE_ENV=production).');
  process.exit(1);
}
const { context, started } = await openServiceContext({
  config,
  databaseUrl: sharedDatabaseUrl(config, 'Loading the demo data'),
  migrations: allMigrations,
  projections: allProjections,
  firstStart: (c) => prepareCommandSide(c, { demoData: true }),
});
printFirstStart(started);
console.log(started.demoUsers.length > 0 ? 'Demo data loaded.' : 'The demo data was there already.');
await context.close();
