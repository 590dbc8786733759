import { DEMO_PASSWORD } from '@pawhaven/command-api';
import { databaseFromConfig, loadConfig, logger } from '@pawhaven/platform';
import { startApp } from './app';

/** `npm start`: the whole product on one machine, with an embedded PostgreSQL unless DATABASE_URL is set. */
async function main() {
  const config = loadConfig();
  console.log(
    config.DATABASE_URL
      ? 'Using the PostgreSQL at DATABASE_URL…'
      : `Starting the embedded PostgreSQL (data in ${config.DATA_DIR})…`,
  );
  const database = await databaseFromConfig(config, { reuseRunning: false });
  const app = await startApp({
    databaseUrl: database.connectionString,
    port: config.PORT,
    demoData: database.embedded,
  });

  console.log(`\n  PawHaven is running at ${app.url}\n`);
  if (app.adminCredentials) {
    console.log('  ┌─ Admin login (shown only this once: note it now) ─────────────');
    console.log(`  │ email:    ${app.adminCredentials.email}`);
    console.log(`  │ password: ${app.adminCredentials.password}`);
    console.log('  └────────────────────────────────────────────────────────────────\n');
  }
  if (app.demoUsers.length > 0) {
    console.log(`  Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const u of app.demoUsers) console.log(`    ${u.email}  (${u.username})`);
    console.log('');
  }
  if (app.config.devMailbox)
    console.log(`  E-mails (verification codes) are kept at ${app.url}/dev/mailbox\n`);
  console.log('  Press Ctrl-C to stop.\n');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping PawHaven…`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.stop().catch((e) => logger.error(e));
    await database.stop().catch((e) => logger.error(e));
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(`PawHaven could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
