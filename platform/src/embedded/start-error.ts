import { inspect } from 'node:util';

export type StartErrorReason =
  'already-running' | 'port' | 'data-dir' | 'initdb' | 'postgres' | 'database' | 'config' | 'unexpected';

/**
 * A start-up failure a user can act on: `message` says what went wrong, `hint` what to do about it, `details` are
 * supporting lines (PostgreSQL's last messages, a stack) printed after them.
 */
export class StartError extends Error {
  override readonly name = 'StartError';
  readonly hint: string;
  readonly reason: StartErrorReason;
  readonly details: string[];

  constructor(
    message: string,
    hint: string,
    opts: { reason?: StartErrorReason; details?: string[]; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.hint = hint;
    this.reason = opts.reason ?? 'unexpected';
    this.details = opts.details ?? [];
  }
}

export type StartFailure = { message: string; hint: string; details: string[] };

type Errno = Error & { code?: string; syscall?: string; path?: string; port?: number; errors?: unknown[] };

/**
 * Turns whatever a start threw into what to print: never empty, never "undefined". StartErrors pass through; known
 * system and database errors get a hint; anything else is reported as unexpected with its stack.
 */
export function describeStartFailure(error: unknown, ctx: { databaseUrl?: string } = {}): StartFailure {
  if (error instanceof StartError)
    return { message: error.message, hint: error.hint, details: error.details };
  const text = errorText(error);
  if (text.startsWith('Invalid configuration:'))
    return {
      message: text,
      hint: 'Correct or unset the environment variable(s) named above (README.md → Settings lists each one with its default).',
      details: [],
    };
  const e = (error instanceof Error ? error : {}) as Errno;
  const code = errnoCode(error);
  if ((code === 'EADDRINUSE' || code === 'EACCES') && e.syscall === 'listen') {
    const port = e.port ?? '?';
    return code === 'EADDRINUSE'
      ? {
          message: `Port ${port} is in use by another program.`,
          hint: `Stop that program, or choose another port, e.g. \`PORT=${Number(port) + 1 || 3001} npm start\`.`,
          details: [],
        }
      : {
          message: `PawHaven may not listen on port ${port}: ports below 1024 need administrator rights.`,
          hint: 'Choose a port above 1023, e.g. `PORT=3000 npm start`.',
          details: [],
        };
  }
  const database = databaseProblem(code, text);
  if (database) {
    const where = ctx.databaseUrl
      ? `the PostgreSQL at DATABASE_URL (${redactUrl(ctx.databaseUrl)})`
      : 'the embedded PostgreSQL';
    return {
      message: `Cannot use ${where}: ${database.what}.`,
      hint: ctx.databaseUrl
        ? `${database.fix} Without DATABASE_URL, PawHaven starts its own embedded PostgreSQL.`
        : 'Run `npm start` again; if it fails the same way, report it with the lines below.',
      details: stackLines(error),
    };
  }
  if (e.path && code && FILE_PROBLEMS[code]) {
    return {
      message: `Cannot use ${e.path}: ${FILE_PROBLEMS[code]} (${code}${e.syscall ? ` in ${e.syscall}` : ''}).`,
      hint: fileHint(code, e.path),
      details: [],
    };
  }
  return {
    message: text,
    hint:
      'This was not expected. Running `npm start` again is safe (the data in DATA_DIR is kept); if it fails the ' +
      'same way, report it with the lines below.',
    details: stackLines(error),
  };
}

/** A one-line description of any thrown value; never empty. */
export function errorText(error: unknown): string {
  if (error === undefined || error === null)
    return 'the start failed without any description (an internal step gave up without saying why)';
  if (error instanceof Error) {
    if (error.message) return error.message;
    const inner = (error as Errno).errors;
    if (Array.isArray(inner) && inner.length > 0) return [...new Set(inner.map(errorText))].join('; ');
    const code = (error as Errno).code;
    return code ? `${error.name} (${code})` : `${error.name} without a message`;
  }
  if (typeof error === 'string') return error || 'an empty error message';
  return inspect(error, { depth: 2, breakLength: Infinity });
}

function errnoCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const e = error as Errno;
  if (typeof e.code === 'string') return e.code;
  const first = e.errors?.find(
    (x): x is Errno => x instanceof Error && typeof (x as Errno).code === 'string',
  );
  return first?.code;
}

export const FILE_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of that path is a file, not a folder',
  EEXIST: 'a file is in the way',
  ENOENT: 'it does not exist',
  EISDIR: 'it is a folder, not a file',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

export function fileHint(code: string, where: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `Make ${where} writable for the user running PawHaven (e.g. \`sudo chown -R "$(id -un)" ${where}\`), or set DATA_DIR to a folder you can write to.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return 'Free some disk space and run `npm start` again.';
    default:
      return 'Set DATA_DIR to a folder you can write to (it is created when missing), or fix the path named above.';
  }
}

function databaseProblem(code: string | undefined, text: string): { what: string; fix: string } | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return {
        what: 'nothing answers there (connection refused)',
        fix: 'Start that server or correct DATABASE_URL.',
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { what: 'its host name cannot be resolved', fix: 'Correct the host in DATABASE_URL.' };
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { what: 'the server cannot be reached', fix: 'Check the network and the host in DATABASE_URL.' };
    case '28P01':
    case '28000':
      return {
        what: `it refuses the login (${text})`,
        fix: 'Correct the user and password in DATABASE_URL.',
      };
    case '3D000':
      return {
        what: text,
        fix: 'Create that database (`createdb <name>`) or correct its name in DATABASE_URL.',
      };
    case '57P03':
      return { what: 'it is still starting up', fix: 'Wait a moment and run `npm start` again.' };
  }
  if (/Connection terminated|server closed the connection/i.test(text))
    return {
      what: `the connection was closed (${text})`,
      fix: 'Check that the server is running and healthy.',
    };
  return undefined;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

function stackLines(error: unknown): string[] {
  if (error instanceof Error) {
    const lines = (error.stack ?? `${error.name}: ${error.message}`).split('\n');
    if (error.cause !== undefined) lines.push(`Caused by: ${stackLines(error.cause).join('\n')}`);
    return lines;
  }
  return [inspect(error, { depth: 3 })];
}
