import { SingleBar, Presets } from 'cli-progress';
import {
  connectDatabase,
  databaseFromConfig,
  describeHeldBack,
  DomainError,
  ensureLogOrder,
  heldBackStatus,
  loadConfig,
  logger,
  migrate,
  PostgresEventStore,
  projectionStatus,
  RebuildRunner,
  withPersonalDataEncryption,
} from '@pawhaven/platform';
import { allMigrations } from './migrations';
import { allProjections } from './index';

const usage = `Usage:
  npm run projections -- rebuild <name|all>   rebuild read models from every event, writing only the rows that differ
  npm run projections -- status               checkpoint and lag of each projection
Projections: ${allProjections.map((p) => p.name).join(', ')}`;

async function main() {
  // Its own output says how a rebuild went: the app's structured lines only for what went wrong.
  logger.level = process.env.LOG_LEVEL ?? 'warn';
  const [command, target] = process.argv.slice(2);
  if (command !== 'rebuild' && command !== 'status') {
    console.log(usage);
    process.exit(command ? 1 : 0);
  }
  const chosen =
    command === 'status' || target === 'all'
      ? allProjections
      : allProjections.filter((p) => p.name === target || p.name.startsWith(`${target}`));
  if (chosen.length === 0) {
    console.error(`Unknown projection '${target ?? ''}'.\n${usage}`);
    process.exit(1);
  }
  const config = loadConfig();
  const handle = await databaseFromConfig(config, { reuseRunning: true });
  const db = connectDatabase(handle.connectionString);
  const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool);
  try {
    await migrate(db.knex, allMigrations);
    // A log restored from another server must be put in order before anyone reads it (the app does this at start).
    const order = await ensureLogOrder(db.knex, allProjections, { log: quietLog });
    if (order.status === 'repaired')
      console.log(
        `The event log had been restored from another server; its order was repaired: ${order.renumbered} event(s) renumbered, ` +
          `checkpoints moved: ${order.moved.flatMap((m) => m.names).join(', ') || 'none'}, reset for a rebuild: ${order.reset.flatMap((r) => r.names).join(', ') || 'none'}.`,
      );
    if (command === 'status') {
      const status = await projectionStatus(db.knex, chosen);
      console.table(
        status.map((p) => ({
          name: p.name,
          position: p.position,
          transactionId: p.transactionId,
          eventsProcessed: p.eventsProcessed,
          lag: p.lag,
          heldBack: p.heldBack,
          heldBackSince: p.heldBackSince?.toISOString() ?? '',
          updatedAt: p.updatedAt?.toISOString() ?? '',
        })),
      );
      const names = chosen.map((p) => p.name);
      console.log(describeHeldBack(await heldBackStatus(db.knex, names)));
      return;
    }
    // The same run as the dashboard's Rebuild button: one lock for both, so they never overlap; an admin watching the
    // Projections screen sees this one's progress, and its end, as if started there.
    const bar = new SingleBar(
      {
        format: `{current} [{bar}] {percentage}% | {value}/{total} events | {speed} events/s | {timeLeft} left`,
        hideCursor: true,
        noTTYOutput: true,
        notTTYSchedule: 1000,
      },
      Presets.shades_classic,
    );
    let startedBar = false;
    try {
      const runner = new RebuildRunner(db, store);
      const results = await runner.run(
        target === 'all' ? 'all' : chosen.map((p) => p.name).join(', '),
        chosen,
        CLI,
        (p) => {
          // The run's own ETA (cli-progress's prints NULL until it has a rate of its own).
          const payload = {
            current: `${p.current} (${p.index}/${p.count})`,
            speed: p.eventsPerSecond,
            timeLeft: p.etaSeconds === null ? '…' : `${Math.ceil(p.etaSeconds)} s`,
          };
          if (!startedBar) {
            bar.start(Math.max(p.total, 1), 0, payload);
            startedBar = true;
          }
          bar.setTotal(Math.max(p.total, 1));
          bar.update(Math.min(p.processed, Math.max(p.total, 1)), payload);
        },
      );
      bar.stop();
      for (const result of results)
        console.log(
          `${result.name}${result.foldThread ? ' (second thread)' : ''}: ${result.processed} events processed in ${result.seconds.toFixed(2)} s (${Math.round(result.eventsPerSecond)} events/s)`,
        );
    } catch (error) {
      bar.stop();
      if (error instanceof DomainError && error.status === 409) {
        console.error(error.message);
        process.exitCode = 1;
        return;
      }
      throw error;
    }
  } finally {
    await store.close();
    await db.close();
    await handle.stop();
  }
}

/** Who started a rebuild, as the dashboard shows it. */
const CLI = 'command line';

/** The CLI prints its own summary of a repair; the structured log line is for the app. */
const quietLog = { warn: () => {}, info: () => {} };

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
