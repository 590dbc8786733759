import type { ChildProcess } from 'node:child_process';
import { listening } from './ports';

export type Watched = {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  ended(): boolean;
  /** Until it listens on `port`; fails with what it printed if it exits first or takes longer than `ms`. */
  untilListening(port: number, ms: number, what: string): Promise<void>;
  /** `signal` (a clean stop), then SIGKILL after `ms`; its exit code. */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<number | null>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
};

/** A child process started with piped output, kept and stopped the same way whatever it runs. */
export function watch(child: ChildProcess): Watched {
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => text,
    ended,
    async untilListening(port, ms, what) {
      const until = Date.now() + ms;
      while (!(await listening(port))) {
        if (ended()) throw new Error(`${what} exited while starting:\n${text}`);
        if (Date.now() > until) {
          child.kill('SIGKILL');
          throw new Error(`${what} did not listen on port ${port} within ${ms / 1000} s:\n${text}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop(signal = 'SIGTERM', ms = 20_000) {
      if (ended()) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (ended()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
