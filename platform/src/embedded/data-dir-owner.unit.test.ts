import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDataDir, findRunningOwner, LOCK_FILE } from './data-dir-owner';
import { processStartTime } from './processes';
import { StartError } from './start-error';

let dataDir: string;
let others: ChildProcess[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pawhaven-owner-'));
});
afterEach(async () => {
  for (const p of others) p.kill('SIGKILL');
  others = [];
  await rm(dataDir, { recursive: true, force: true });
});

/** Another live process (stands in for a running PawHaven). */
async function otherProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  others.push(child);
  await new Promise((r) => child.once('spawn', r));
  return child.pid!;
}

const writeLock = (owner: object) => writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify(owner));

describe.skipIf(process.platform === 'win32')('the data folder lock', () => {
  it('is taken when free and released on stop', async () => {
    const claim = await claimDataDir(dataDir, 54329);
    const lock = JSON.parse(await readFile(path.join(dataDir, LOCK_FILE), 'utf8'));
    expect(lock).toMatchObject({ pid: process.pid, pgPort: 54329 });
    expect(await findRunningOwner(dataDir)).toMatchObject({ pid: process.pid, pgPort: 54329 });
    await claim.release();
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('refuses while its owner lives, naming the pid', async () => {
    const pid = await otherProcess();
    await writeLock({
      pid,
      startTime: await processStartTime(pid),
      startedAt: new Date().toISOString(),
      pgPort: 1,
    });
    const error = await claimDataDir(dataDir, 54329).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartError);
    expect((error as StartError).reason).toBe('already-running');
    expect((error as StartError).message).toContain(`already in use by process ${pid}`);
    expect((error as StartError).hint).toContain(`kill ${pid}`);
  });

  it('takes over a lock whose owner died, whose pid now belongs to another process, or that is garbage', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    const reused = await otherProcess();
    for (const stale of [
      { pid: dead.pid, startedAt: '2026-01-01T00:00:00Z', pgPort: 1 },
      { pid: reused, startTime: '1', startedAt: '2026-01-01T00:00:00Z', pgPort: 1 },
      { pid: process.pid, startTime: '1', startedAt: '2026-01-01T00:00:00Z', pgPort: 1 },
    ]) {
      await writeLock(stale);
      expect(await findRunningOwner(dataDir)).toBeUndefined();
      const claim = await claimDataDir(dataDir, 54329);
      expect(claim.previous?.pid).toBe(stale.pid);
      await claim.release();
    }
    await writeFile(path.join(dataDir, LOCK_FILE), '{"pi');
    await (await claimDataDir(dataDir, 54329)).release();
  });

  it('lets only one of two racing claims win', async () => {
    const results = await Promise.allSettled([claimDataDir(dataDir, 1), claimDataDir(dataDir, 2)]);
    // Same process: the loser sees a live owner (itself) and is refused.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'fulfilled') await r.value.release();
  });
});
