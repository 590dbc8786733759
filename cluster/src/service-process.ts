import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The repository's root, where every service's entry point is found. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export type Service = 'command-api' | 'query-api' | 'projections' | 'relay';

/** Each service's entry point. */
const MAIN: Record<Service, string> = {
  'command-api': 'command-api/src/main.ts',
  'query-api': 'query-api/src/main.ts',
  projections: 'projections/src/main.ts',
  relay: 'projections/src/relay.ts',
};

export type ServiceProcess = {
  service: Service;
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** The port it listens on, once it said so. */
  port: number;
  url: string;
  /** SIGTERM, then the exit code (SIGKILL after `ms`). */
  stop(ms?: number): Promise<number | null>;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
};

/**
 * Starts one service of PawHaven as its own process (`MAIN`) with `env` over this process's
 * environment, on a free port unless PORT is given, and waits until it listens (or fails with what it printed).
 */
export async function startService(
  service: Service,
  env: Record<string, string>,
  opts: { timeoutMs?: number; name?: string } = {},
): Promise<ServiceProcess> {
  // One process (node with tsx's loader), not tsx's CLI, which runs the service in a child of its own: a SIGKILL
  // must reach the service itself.
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=64', '--import', 'tsx', path.join(ROOT, MAIN[service])],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${opts.name ?? service} did not start in time:\n${text}`)),
      opts.timeoutMs ?? 60_000,
    );
    const look = () => {
      const m = /(?:listening on port|health on port) (\d+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${opts.name ?? service} exited with ${code}:\n${text}`));
    });
  });
  return {
    service,
    child,
    output: () => text,
    port,
    url: `http://localhost:${port}`,
    async stop(ms = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
