import { readFileSync } from 'node:fs';
import os from 'node:os';
import { round } from './measure';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux the bench runs on

/** A process's CPU time so far (user + system), in seconds; 0 once it is gone or where /proc is not there. */
function processSeconds(pid: number): number {
  try {
    // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The whole machine's busy CPU time so far (every core; idle and I/O wait excluded), in seconds; null without /proc. */
function machineBusySeconds(): number | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = cpu;
    void idle;
    void iowait;
    return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU seconds used by named groups of processes between `start` and `stop`, beside the machine's: on a machine the
 * services share, where the cores went (the rest: the kernel, anything else running). `groups` is asked at both ends:
 * a process that started in between counts from zero (PostgreSQL's backends come and go). Linux only.
 */
export function cpuUse(groups: () => Record<string, number[]>) {
  const at = () => ({
    wall: performance.now(),
    machine: machineBusySeconds(),
    groups: Object.fromEntries(
      Object.entries(groups()).map(([name, pids]) => [
        name,
        new Map(pids.map((p) => [p, processSeconds(p)] as const)),
      ]),
    ),
  });
  const start = at();
  return {
    /** One line: each group's CPU seconds, the rest of the machine's, out of cores × seconds. */
    stop(): string {
      const end = at();
      if (start.machine === null || end.machine === null) return 'CPU use: unknown (no /proc)';
      const seconds = (end.wall - start.wall) / 1000;
      const used = Object.entries(end.groups).map(([name, pids]) => {
        let s = 0;
        for (const [pid, t] of pids) s += t - (start.groups[name]?.get(pid) ?? 0);
        return [name, s] as const;
      });
      const ours = used.reduce((s, [, v]) => s + v, 0);
      const machine = end.machine - start.machine;
      const parts = used.map(([name, s]) => `${name} ${round(s, 1)}`);
      parts.push(`everything else ${round(Math.max(0, machine - ours), 1)}`);
      const cores = os.cpus().length;
      return `CPU s over ${round(seconds, 1)} s (${cores} cores: ${round(cores * seconds, 1)} available, ${round(machine, 1)} busy): ${parts.join(', ')}`;
    },
  };
}

/** The bench's PostgreSQL server (the postgres process this one started) and its backends. */
export function benchPostgresPids(): number[] {
  const servers = childPids(process.pid).filter((p) => commandName(p) === 'postgres');
  return servers.flatMap((p) => [p, ...childPids(p)]);
}

/** The children of a process (nginx's workers), from Linux's /proc; empty when unknown. */
export function childPids(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** The command name of a process (/proc/pid/comm), or ''. */
export function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Every process under `pid` (its children, theirs…), from /proc. */
export function descendantPids(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    for (const child of childPids(stack.pop())) {
      out.push(child);
      stack.push(child);
    }
  }
  return out;
}

/**
 * How busy the machine was with anything but the bench (this process and every process under it: its PostgreSQL,
 * the apps and services a section starts), from `otherLoad()` until `stop()`, as a share of every core's time.
 * The bench's processes are sampled every 250 ms, so services a section starts and stops in between count as ours.
 * Null where /proc is not there.
 */
export function otherLoad() {
  const seen = new Map<number, { first: number; last: number }>();
  const sample = (initial: boolean) => {
    for (const pid of [process.pid, ...descendantPids(process.pid)]) {
      const s = processSeconds(pid);
      const known = seen.get(pid);
      if (known) known.last = Math.max(known.last, s);
      else seen.set(pid, { first: initial ? s : 0, last: s });
    }
  };
  const startWall = performance.now();
  const startMachine = machineBusySeconds();
  sample(true);
  const timer = setInterval(() => sample(false), 250);
  timer.unref();
  return {
    stop(): { otherPercent: number; otherSeconds: number } | null {
      clearInterval(timer);
      sample(false);
      const endMachine = machineBusySeconds();
      if (startMachine === null || endMachine === null) return null;
      let ours = 0;
      for (const { first, last } of seen.values()) ours += last - first;
      const other = Math.max(0, endMachine - startMachine - ours);
      const available = (os.cpus().length * (performance.now() - startWall)) / 1000;
      return { otherPercent: round((100 * other) / available, 1), otherSeconds: round(other, 1) };
    },
  };
}
