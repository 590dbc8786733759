import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Schemathesis, the schema-driven API fuzzer from PyPI, in a virtual environment of the project's own under
 * node_modules/.cache (so `npm ci` starts it afresh, and nothing is installed system-wide). Pinned: a new release
 * may generate different cases, and a fuzz run should change only when we change it.
 */
export const SCHEMATHESIS_VERSION = '4.32.5';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const venv = path.join(repoRoot, 'node_modules/.cache/schemathesis');
const bin = path.join(venv, 'bin', 'st');

export type Fuzzer = { bin: string } | { missing: string };

/** `st`, installed on first use; `missing` says why it cannot be had here (no Python, no network…). */
export function findSchemathesis(): Fuzzer {
  if (process.env.SCHEMATHESIS_BIN) return { bin: process.env.SCHEMATHESIS_BIN };
  if (existsSync(bin) && versionOf(bin) === SCHEMATHESIS_VERSION) return { bin };
  const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (python.error || python.status !== 0) return { missing: 'Python 3 is not installed on this machine' };
  const steps: string[][] = [
    ['python3', '-m', 'venv', '--clear', venv],
    [
      path.join(venv, 'bin', 'pip'),
      'install',
      '--quiet',
      '--disable-pip-version-check',
      `schemathesis==${SCHEMATHESIS_VERSION}`,
    ],
  ];
  for (const [command, ...args] of steps) {
    const run = spawnSync(command!, args, { encoding: 'utf8', timeout: 300_000 });
    if (run.error || run.status !== 0)
      return {
        missing: `could not install schemathesis ${SCHEMATHESIS_VERSION} from PyPI (${command} ${args[0]}): ${(
          run.error?.message ?? run.stderr
        )
          .trim()
          .split('\n')
          .slice(-3)
          .join(' ')}`,
      };
  }
  return versionOf(bin) === SCHEMATHESIS_VERSION
    ? { bin }
    : { missing: `schemathesis installed but \`st --version\` does not say ${SCHEMATHESIS_VERSION}` };
}

function versionOf(st: string): string | null {
  const run = spawnSync(st, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? (run.stdout.match(/(\d+\.\d+\.\d+)/)?.[1] ?? null) : null;
}

export type FuzzRun = { exitCode: number | null; output: string; seed: string | null };

/** One `st run` against the app's OpenAPI document, checking only that no answer is a server error. */
export function fuzz(
  st: string,
  o: { baseUrl: string; seconds: number; headers?: Record<string, string>; excludePaths?: string[] },
): Promise<FuzzRun> {
  const args = [
    'run',
    `${o.baseUrl}/api/docs`,
    '--url',
    o.baseUrl,
    '--checks',
    'not_a_server_error',
    '--phases',
    'coverage,fuzzing,stateful',
    '--max-time',
    String(o.seconds),
    // One thread: Python 3.11 before 3.11.8 may fail parsing source in two threads at once ("SystemError: AST
    // constructor recursion depth mismatch", CPython gh-106905), which hypothesis does to describe its filters:
    // a crash of the fuzzer, not a finding.
    '--workers',
    '1',
    '--request-timeout',
    '20',
    '--suppress-health-check',
    'all',
    '--warnings',
    'off',
    '--no-color',
    '--generation-database',
    'none',
    ...Object.entries(o.headers ?? {}).flatMap(([name, value]) => ['--header', `${name}: ${value}`]),
    ...(o.excludePaths ?? []).flatMap((p) => ['--exclude-path', p]),
  ];
  return new Promise((resolve, reject) => {
    // In a scratch folder: the fuzzer keeps caches and reports in its working directory.
    const child = spawn(st, args, { cwd: tmpdir(), env: { ...process.env, PYTHONUNBUFFERED: '1' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // The time budget bounds generation; a hung request is bounded by --request-timeout. Past both, something is
    // wrong with the run itself.
    const guard = setTimeout(() => child.kill('SIGKILL'), (o.seconds + 120) * 1000);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(guard);
      resolve({ exitCode, output, seed: output.match(/Seed: (\d+)/)?.[1] ?? null });
    });
  });
}
