import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One V8 collection in the app's main isolate: when this process heard of it (performance.now()), the heap after. */
export type Gc = { atMs: number; full: boolean; usedMb: number; committedMb: number };

/**
 * The per-user limits meant for people, lifted: a few bench users make thousands of writes, requests, ads, uploads
 * and messages.
 */
export const BENCH_USER_LIMITS = {
  RATE_LIMIT_WRITES: '1000000',
  RATE_LIMIT_ADOPTION_REQUESTS: '1000000',
  RATE_LIMIT_NEW_ADS: '1000000',
  RATE_LIMIT_UPLOADS: '1000000',
  RATE_LIMIT_MESSAGES: '1000000',
};

export type AppProcess = {
  pid: number;
  port: number;
  url: string;
  /** The collections seen so far (from V8's --trace-gc lines). */
  gcs(): Gc[];
  /** Warnings and errors it logged (pino lines at level warn or above), and anything it printed to stderr. */
  problems(): string[];
  stop(): Promise<void>;
};

// `[pid:0xisolate]   1234 ms: Mark-Compact (reduce) 85.3 (92.1) -> 60.2 (93.4) MB, …`: used (committed) before -> after.
const GC_LINE =
  /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (Mark-Compact|Scavenge|Minor Mark-Sweep)[^0-9]*[\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\)/;

/**
 * The whole app as `npm start` runs it (gateway/src/main.ts: one node process with tsx's loader, not tsx's CLI, so the
 * pid is the app's own), on `DATABASE_URL` with `env` over this process's environment, on a free port. Started with
 * V8's --trace-gc, which prints each collection's heap sizes: the app's heap is read from V8 itself, with no code of
 * the bench inside the app. Resolves once it says it is running; rejects with what it printed if it exits first.
 */
export async function startAppProcess(env: Record<string, string>, timeoutMs = 120_000): Promise<AppProcess> {
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=64', '--trace-gc', '--import', 'tsx', path.join(ROOT, 'gateway/src/main.ts')],
    { cwd: ROOT, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const gcs = new Map<string, Gc[]>();
  const problems: string[] = [];
  let head = ''; // what it printed before it said it runs, for a failed start
  let port = 0;
  const onLine = (line: string, fromStderr: boolean) => {
    const gc = GC_LINE.exec(line);
    if (gc) {
      const [, isolate, kind, used, committed] = gc;
      const of = gcs.get(isolate!) ?? [];
      gcs.set(isolate!, of);
      of.push({
        atMs: performance.now(),
        full: kind === 'Mark-Compact',
        usedMb: Number(used),
        committedMb: Number(committed),
      });
      return;
    }
    if (port === 0) {
      head += line + '\n';
      const running = /PawHaven is running at http:\/\/[^:]+:(\d+)/.exec(line);
      if (running) port = Number(running[1]);
      return;
    }
    const level = /^\{"level":(\d+)/.exec(line)?.[1];
    if (fromStderr || (level !== undefined && Number(level) >= 40)) problems.push(line);
  };
  for (const [stream, fromStderr] of [
    [child.stdout, false],
    [child.stderr, true],
  ] as const) {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line.trim()) onLine(line, fromStderr);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A bench that ends on its own (Ctrl-C, a crash) takes the app with it: synchronous, sent before this process is gone.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const until = Date.now() + timeoutMs;
  while (port === 0) {
    if (ended()) {
      process.off('exit', killOnExit);
      throw new Error(`the app exited with ${child.exitCode ?? child.signalCode}:\n${head}`);
    }
    if (Date.now() > until) {
      process.off('exit', killOnExit);
      child.kill('SIGKILL');
      throw new Error(`the app did not start within ${timeoutMs / 1000} s:\n${head}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    gcs() {
      // tsx's loader runs on a thread of its own, with an isolate of its own: the app's is the one with the larger heap.
      const heap = (of: Gc[]) => of[of.length - 1]?.committedMb ?? 0;
      return [...gcs.values()].reduce<Gc[]>((main, of) => (heap(of) > heap(main) ? of : main), []);
    },
    problems: () => problems,
    async stop() {
      process.off('exit', killOnExit);
      if (ended()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
