import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { watch } from './watched';

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
  /** As the start named it ('query-api 2'), or the service's name. */
  name: string;
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
  const watched = watch(child);
  const what = opts.name ?? service;
  const until = Date.now() + (opts.timeoutMs ?? 60_000);
  let port = 0;
  for (;;) {
    const said = /(?:listening on port|health on port) (\d+)/.exec(watched.output());
    if (said) {
      port = Number(said[1]);
      break;
    }
    if (watched.ended()) throw new Error(`${what} exited with ${child.exitCode}:\n${watched.output()}`);
    if (Date.now() > until) {
      await watched.kill();
      throw new Error(`${what} did not start in time:\n${watched.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    service,
    name: what,
    child,
    output: watched.output,
    port,
    url: `http://localhost:${port}`,
    stop: (ms = 20_000) => watched.stop('SIGTERM', ms),
    kill: () => watched.kill(),
  };
}
