import { DEMO_PASSWORD } from '@pawhaven/command-api';
import {
  databaseFromConfig,
  describeStartFailure,
  ensurePortFree,
  expectDatabaseShutdown,
  HTTP_PORT_USE,
  loadConfig,
  logger,
  portError,
  type Config,
  type DatabaseHandle,
} from '@pawhaven/platform';
import { startApp, type RunningApp } from './app';

let config: Config | undefined;
let database: DatabaseHandle | undefined;
let app: RunningApp | undefined;
let stopping = false;

// A closed terminal makes writes fail (EIO/EPIPE): that must not crash a clean stop.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

/** `npm start`: the whole product on one machine, with an embedded PostgreSQL unless DATABASE_URL is set. */
async function main() {
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
  try {
    app = await startApp({
      databaseUrl: database.connectionString,
      port: config.PORT,
      demoData: database.embedded,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Taken between the check above and now.
    if ((error as NodeJS.ErrnoException).syscall === 'listen' && code)
      throw await portError(config.PORT, HTTP_PORT_USE, code);
    throw error;
  }
  if (stopping) return;

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
  process.removeListener('uncaughtException', failToStart);
  process.removeListener('unhandledRejection', failToStart);
  process.on('uncaughtException', keepRunning);
  process.on('unhandledRejection', keepRunning);
}

/**
 * The last net once PawHaven runs: an error nothing else handled is logged and the app keeps serving. Every part
 * handles its own failures (a lost database connection, a bad socket frame); ending the process here would take the
 * embedded PostgreSQL and every user's session down with it.
 */
function keepRunning(error: unknown) {
  logger.error({ err: error }, 'unexpected error; PawHaven keeps running');
}

/**
 * Ctrl-C, kill or a closed terminal (SIGHUP): stop the app (HTTP and sockets, then projectors and background loops,
 * then its pools), then the database; one line before and one after, exit code 0.
 */
async function stop(why: string) {
  if (stopping) return;
  stopping = true;
  // A terminal's Ctrl-C reaches the embedded PostgreSQL too (same process group): it shuts down while we stop,
  // ending our connections (57P01). Expected from here on: not news to log, nor a crash to restart it from.
  expectDatabaseShutdown();
  database?.expectStop();
  console.log(`\n${why}: stopping PawHaven…`);
  const force = setTimeout(() => process.exit(1), 40_000);
  force.unref();
  await app?.stop().catch((e) => logger.error(e));
  await database?.stop().catch((e) => logger.error(e));
  console.log('Stopped.');
  process.exit(app ? 0 : 130);
}

/** Every failed start says what went wrong and what to do, stops what it had started and exits 1. */
async function failToStart(error: unknown) {
  if (stopping) return;
  stopping = true;
  const failure = describeStartFailure(error, { databaseUrl: config?.DATABASE_URL });
  console.error(`\nPawHaven could not start: ${failure.message}`);
  console.error(`What to do: ${failure.hint}`);
  if (failure.details.length > 0) console.error(`\n${failure.details.join('\n')}`);
  await app?.stop().catch(() => {});
  await database?.stop().catch(() => {});
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
process.on('uncaughtException', failToStart);
process.on('unhandledRejection', failToStart);

main().catch(failToStart);
