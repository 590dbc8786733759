import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, realpath, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  processAlive,
  processesWorkingIn,
  processInfo,
  processStartTime,
  shortCommand,
  waitUntil,
  type ProcessInfo,
} from './processes';
import { StartError } from './start-error';

/**
 * Who owns a data folder: the process that started its embedded PostgreSQL writes DATA_DIR/pawhaven.lock (pid, the
 * pid's start time, PostgreSQL's port) and removes it when it stops. A lock whose process is gone (kill -9, a closed
 * terminal, a power cut) or whose pid now belongs to another process (a different start time) is stale.
 */
export const LOCK_FILE = 'pawhaven.lock';

type DataDirOwner = {
  pid: number;
  /** See ProcessInfo.startTime; guards against a reused pid. */
  startTime?: string;
  startedAt: string;
  pgPort: number;
  command?: string;
  host?: string;
};

/** A live process using a data folder: its lock's owner, or (no lock) the live Node process that started its server. */
export type RunningOwner = { pid: number; command?: string; since?: string; pgPort?: number };

/** Locks this process wrote (a pid equal to ours in another lock is a previous life of this pid). */
const claimedHere = new Set<string>();

async function readOwner(dataDir: string): Promise<DataDirOwner | undefined> {
  const text = await readFile(path.join(dataDir, LOCK_FILE), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseOwner(text);
}

function parseOwner(text: string): DataDirOwner | undefined {
  try {
    const o = JSON.parse(text) as DataDirOwner;
    return Number.isInteger(o.pid) && o.pid > 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

async function ownerAlive(owner: DataDirOwner, lockFile: string): Promise<boolean> {
  if (!(await processAlive(owner.pid))) return false;
  const now = owner.startTime === undefined ? undefined : await processStartTime(owner.pid);
  if (now !== undefined) return now === owner.startTime;
  // No start time to compare: our own pid in a lock we did not write is a previous life of this pid.
  return owner.pid !== process.pid || claimedHere.has(lockFile);
}

/** The live process using this data folder, if any. */
export async function findRunningOwner(dataDir: string): Promise<RunningOwner | undefined> {
  const lockFile = path.join(dataDir, LOCK_FILE);
  const owner = await readOwner(dataDir);
  if (owner && (await ownerAlive(owner, lockFile)))
    return { pid: owner.pid, command: owner.command, since: owner.startedAt, pgPort: owner.pgPort };
  const postmaster = await runningPostmaster(path.join(dataDir, 'pg'));
  const starter = postmaster && (await liveStarter(postmaster));
  if (postmaster && starter) return { pid: starter.pid, command: starter.command, pgPort: postmaster.port };
  return undefined;
}

export function alreadyRunning(dataDir: string, owner: RunningOwner): StartError {
  const command = shortCommand(owner.command);
  const since = owner.since ? `, running since ${new Date(owner.since).toLocaleString()}` : '';
  return new StartError(
    `PawHaven's data in ${dataDir} is already in use by process ${owner.pid}${command ? ` (${command})` : ''}${since}.`,
    `That is PawHaven running already: use it, or stop it first (Ctrl-C in its terminal, or \`kill ${owner.pid}\`) ` +
      'and run `npm start` again. To run a second copy at the same time, give it its own DATA_DIR, PORT and ' +
      'EMBEDDED_PG_PORT.',
    { reason: 'already-running' },
  );
}

export type DataDirClaim = {
  /** The stale lock this claim replaced (its process had ended without stopping). */
  previous?: DataDirOwner;
  release(): Promise<void>;
  releaseSync(): void;
};

/**
 * Takes the data folder for this process, or fails naming the live process that has it. The lock is written to a
 * temporary file and hard-linked into place, so it appears complete and only one of two racing starts gets it.
 */
export async function claimDataDir(dataDir: string, pgPort: number): Promise<DataDirClaim> {
  const lockFile = path.join(dataDir, LOCK_FILE);
  const me: DataDirOwner = {
    pid: process.pid,
    startTime: await processStartTime(process.pid),
    startedAt: new Date().toISOString(),
    pgPort,
    command: process.argv.join(' '),
    host: hostname(),
  };
  const content = `${JSON.stringify(me, null, 2)}\n`;
  let previous: DataDirOwner | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusively(lockFile, content)) {
      claimedHere.add(lockFile);
      const mine = () => {
        try {
          return parseOwner(readFileSync(lockFile, 'utf8'))?.pid === process.pid;
        } catch {
          return false;
        }
      };
      const releaseSync = () => {
        claimedHere.delete(lockFile);
        if (mine()) unlinkSyncQuietly(lockFile);
      };
      return { previous, releaseSync, release: async () => releaseSync() };
    }
    let current = await readOwner(dataDir);
    if (!current) {
      // Being written by a racing start (without hard links), or garbage: look again once.
      await new Promise((r) => setTimeout(r, 200));
      current = await readOwner(dataDir);
    }
    if (current && (await ownerAlive(current, lockFile)))
      throw alreadyRunning(dataDir, { pid: current.pid, command: current.command, since: current.startedAt });
    previous = current ?? previous;
    await unlink(lockFile).catch(ignoreMissing);
  }
  throw new StartError(
    `Could not take the lock ${lockFile}: another start keeps replacing it.`,
    'Make sure only one `npm start` runs with this DATA_DIR, then run it again.',
    { reason: 'already-running' },
  );
}

async function createExclusively(file: string, content: string): Promise<boolean> {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, content, { mode: 0o644 });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // A file system without hard links: exclusive create (a racing reader may briefly see it empty).
    try {
      await writeFile(file, content, { flag: 'wx', mode: 0o644 });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    await unlink(temp).catch(ignoreMissing);
  }
}

function unlinkSyncQuietly(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function ignoreMissing(error: NodeJS.ErrnoException) {
  if (error.code !== 'ENOENT') throw error;
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL left behind by a start that ended without stopping it

type Postmaster = { pid: number; port?: number; info: ProcessInfo };

/** PostgreSQL's own lock, DATA_DIR/pg/postmaster.pid: pid, data directory, start time, port, … */
async function readPostmasterPid(clusterDir: string): Promise<{ pid: number; port?: number } | undefined> {
  const text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return {
    pid: Number.isInteger(pid) ? pid : 0,
    port: Number.isInteger(port) && port > 0 ? port : undefined,
  };
}

/** The PostgreSQL server running on this cluster directory, per postmaster.pid, if that process really is it. */
async function runningPostmaster(clusterDir: string): Promise<Postmaster | undefined> {
  const pm = await readPostmasterPid(clusterDir);
  if (!pm || pm.pid <= 0) return undefined;
  const info = await processInfo(pm.pid);
  if (!info || info.zombie) return undefined;
  const real = await realpath(clusterDir).catch(() => clusterDir);
  // A postmaster works in its data directory. Without /proc, fall back on the command name.
  const isIt = info.cwd
    ? info.cwd === real
    : info.command
      ? /(^|\/)postgres(\s|$)/.test(info.command)
      : await processAlive(pm.pid);
  return isIt ? { pid: pm.pid, port: pm.port, info } : undefined;
}

/**
 * The process that started this server, while it lives: a postmaster's parent is the Node process that spawned it
 * until that process dies; then the postmaster is re-parented to init (pid 1) or a sub-reaper, never a Node process.
 */
async function liveStarter(postmaster: { info: ProcessInfo }): Promise<ProcessInfo | undefined> {
  const ppid = postmaster.info.ppid;
  if (!ppid || ppid <= 1) return undefined;
  const parent = await processInfo(ppid);
  if (!parent || parent.zombie) return undefined;
  const program = path.basename(parent.command?.split(' ')[0] ?? '');
  return /^(node|nodejs|bun|deno)/.test(program) ? parent : undefined;
}

const isPostgresProcess = (p: ProcessInfo) => /(^|\/)postgres(:|\s|$)/.test(p.command ?? '');
/** The server itself runs the binary (`…/bin/postgres -D …`); its children retitle themselves `postgres: …`. */
const isPostmasterProcess = (p: ProcessInfo) => /(^|\/)postgres(\s|$)/.test(p.command ?? '');

/**
 * Makes the cluster directory startable after a crash: stops a server whose starter is gone (fast shutdown, then
 * immediate, then SIGKILL), waits for server processes outliving a killed postmaster, and removes a postmaster.pid
 * whose process is gone. Fails naming the starter when the server still belongs to a live process.
 */
export async function clearLeftoverServer(
  dataDir: string,
  clusterDir: string,
  notice: (message: string) => void,
): Promise<void> {
  const real = await realpath(clusterDir).catch(() => clusterDir);
  const postmaster = await runningPostmaster(clusterDir);
  // Also a server whose postmaster.pid was deleted: found by its working directory.
  const unlisted = (await processesWorkingIn(real)).filter(
    (p) => isPostmasterProcess(p) && p.pid !== postmaster?.pid,
  );
  const servers = [...(postmaster ? [postmaster] : []), ...unlisted.map((info) => ({ pid: info.pid, info }))];
  for (const server of servers) {
    const starter = await liveStarter(server);
    if (starter) throw alreadyRunning(dataDir, { pid: starter.pid, command: starter.command });
  }
  for (const server of servers) {
    notice(
      `PostgreSQL (pid ${server.pid}) was still running for this data folder: the run that started it ended ` +
        'without stopping it (a crash, kill -9 or a closed terminal). Stopping it cleanly…',
    );
    await stopPostmaster(dataDir, server.pid);
    notice('The leftover PostgreSQL has stopped; starting a fresh one on the same data.');
  }
  const leftovers = async () => (await processesWorkingIn(real)).filter(isPostgresProcess);
  const rest = await leftovers();
  if (rest.length > 0) {
    notice(
      `Waiting for ${rest.length} process(es) of a PostgreSQL that was killed to end (pid ${rest.map((p) => p.pid).join(', ')})…`,
    );
    if (!(await waitUntil(async () => (await leftovers()).length === 0, 5000))) {
      for (const p of await leftovers()) sendSignal(p.pid, 'SIGKILL');
      await waitUntil(async () => (await leftovers()).length === 0, 5000);
    }
  }
  const stale = await readPostmasterPid(clusterDir);
  if (stale && !(await runningPostmaster(clusterDir))) {
    if (servers.length === 0)
      notice(
        `PostgreSQL was killed or the computer stopped while it ran (its process ${stale.pid} is gone): ` +
          'removing its stale postmaster.pid; it will recover its data from its write-ahead log.',
      );
    await unlink(path.join(clusterDir, 'postmaster.pid')).catch(ignoreMissing);
  }
}

async function stopPostmaster(dataDir: string, pid: number): Promise<void> {
  // SIGINT: fast shutdown (roll back open transactions, checkpoint); SIGQUIT: immediate; SIGKILL: last resort.
  const steps: [NodeJS.Signals, number][] = [
    ['SIGINT', 20_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ];
  for (const [signal, ms] of steps) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ESRCH') return;
      if (code === 'EPERM')
        throw new StartError(
          `PostgreSQL (pid ${pid}) is still running for ${dataDir}, left by an earlier run, but belongs to another user.`,
          `Stop it as that user (or \`sudo kill ${pid}\`) and run \`npm start\` again.`,
          { reason: 'already-running', cause: error },
        );
      throw error;
    }
    if (await waitUntil(async () => !(await processAlive(pid)), ms)) return;
  }
  throw new StartError(
    `PostgreSQL (pid ${pid}) left running for ${dataDir} by an earlier run does not stop.`,
    `Stop it yourself (\`kill -9 ${pid}\`) and run \`npm start\` again.`,
    { reason: 'already-running' },
  );
}

function sendSignal(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already, or not ours to signal
  }
}
