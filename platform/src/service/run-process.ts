import { describeStartFailure } from '../embedded/start-error';
import { logger } from '../logger';

export type RunningProcess = {
  /** Stops what the start started, in order; the process then exits 0. */
  stop(): Promise<void>;
};

/**
 * The life of one of PawHaven's processes (`npm start`'s gateway, or a service of the distributed deployment):
 * `start` runs; a failed start says what went wrong and what to do, stops what it had started (`thenStop`) and
 * exits 1. Once started, an error nothing else handled is logged and the process keeps serving: every part handles its
 * own failures (a lost database connection, a bad socket frame), and ending here would drop every user's connection.
 * Ctrl-C, kill or a closed terminal (SIGHUP) stop it: one line before, one after, exit code 0.
 */
export function runProcess(
  name: string,
  start: () => Promise<RunningProcess>,
  opts: {
    /** Called once a stop begins (before anything is stopped). */
    onStopping?: () => void;
    /** What lives beside the started part (the embedded database): stopped after it, on a stop and a failed start. */
    thenStop?: () => Promise<void>;
    databaseUrl?: () => string | undefined;
  } = {},
): void {
  let running: RunningProcess | undefined;
  let stopping = false;

  // A closed terminal makes writes fail (EIO/EPIPE): that must not crash a clean stop.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

  const keepRunning = (error: unknown) =>
    logger.error({ err: error }, `unexpected error; ${name} keeps running`);

  const failToStart = async (error: unknown) => {
    if (stopping) return;
    stopping = true;
    const failure = describeStartFailure(error, { databaseUrl: opts.databaseUrl?.() });
    console.error(`\n${name} could not start: ${failure.message}`);
    console.error(`What to do: ${failure.hint}`);
    if (failure.details.length > 0) console.error(`\n${failure.details.join('\n')}`);
    await running?.stop().catch(() => {});
    await opts.thenStop?.().catch(() => {});
    process.exit(1);
  };

  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    opts.onStopping?.();
    console.log(`\n${why}: stopping ${name}…`);
    const force = setTimeout(() => process.exit(1), 40_000);
    force.unref();
    await running?.stop().catch((e: unknown) => logger.error(e));
    await opts.thenStop?.().catch((e: unknown) => logger.error(e));
    console.log('Stopped.');
    process.exit(running ? 0 : 130);
  };

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  process.on('uncaughtException', failToStart);
  process.on('unhandledRejection', failToStart);

  start()
    .then((started) => {
      running = started;
      if (stopping) return;
      process.removeListener('uncaughtException', failToStart);
      process.removeListener('unhandledRejection', failToStart);
      process.on('uncaughtException', keepRunning);
      process.on('unhandledRejection', keepRunning);
    })
    .catch(failToStart);
}
