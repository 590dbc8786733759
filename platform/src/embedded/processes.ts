import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';

/**
 * What the start-up checks need to know about another process: whether it is alive, when it started (a pid can be
 * reused), its parent, its command line and its working directory. Linux reads /proc; elsewhere `ps` answers what it
 * can (no working directory).
 */
export type ProcessInfo = {
  pid: number;
  ppid?: number;
  /** Opaque, only compared for equality: clock ticks since boot on Linux, `ps -o lstart` elsewhere. */
  startTime?: string;
  command?: string;
  cwd?: string;
  zombie: boolean;
};

const run = promisify(execFile);
const hasProc = process.platform === 'linux';

/** The process, or undefined when there is none with this pid (or it cannot be inspected at all). */
export async function processInfo(pid: number): Promise<ProcessInfo | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (hasProc) {
    let stat: string;
    try {
      stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    // "pid (comm) state ppid … starttime(22nd) …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8')
      .then((c) => c.split('\0').filter(Boolean).join(' ') || undefined)
      .catch(() => undefined);
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    return {
      pid,
      ppid: Number(fields[1]),
      startTime: fields[19],
      command,
      cwd,
      zombie: fields[0] === 'Z' || fields[0] === 'X',
    };
  }
  try {
    const { stdout } = await run('ps', ['-o', 'ppid=,stat=,lstart=,command=', '-p', String(pid)], {
      timeout: 5000,
    });
    const m = /^\s*(\d+)\s+(\S+)\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.*)$/.exec(stdout.trim());
    if (!m) return undefined;
    return { pid, ppid: Number(m[1]), zombie: m[2]!.startsWith('Z'), startTime: m[3], command: m[4] };
  } catch {
    return undefined;
  }
}

/** True when the process exists and is not a zombie (one owned by another user counts as alive). */
export async function processAlive(pid: number): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const info = await processInfo(pid);
  // kill(0) saw it; if it cannot be inspected, trust that.
  return info ? !info.zombie : true;
}

/** The start time to record for `pid` (see ProcessInfo.startTime). */
export async function processStartTime(pid: number): Promise<string | undefined> {
  return (await processInfo(pid))?.startTime;
}

/** Live processes whose working directory is `dir` (PostgreSQL's processes all work in their data directory). */
export async function processesWorkingIn(dir: string): Promise<ProcessInfo[]> {
  if (!hasProc) return [];
  const found: ProcessInfo[] = [];
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => undefined);
    if (cwd !== dir) continue;
    const info = await processInfo(Number(entry));
    if (info && !info.zombie) found.push(info);
  }
  return found;
}

/** Polls `check` every 100 ms until it answers true (→ true) or `ms` have passed (→ false). */
export async function waitUntil(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Short form of a command line for messages. */
export function shortCommand(command: string | undefined, max = 120): string | undefined {
  if (!command) return undefined;
  return command.length > max ? `${command.slice(0, max - 1)}…` : command;
}
