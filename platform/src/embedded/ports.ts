import { readdir, readFile, readlink } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { processInfo, shortCommand, type ProcessInfo } from './processes';
import { StartError } from './start-error';

/** Which setting a port comes from and where PawHaven binds it (undefined host: every interface, as the gateway). */
export type PortUse = { setting: string; purpose: string; hosts: (string | undefined)[] };

export const EMBEDDED_PG_PORT_USE: PortUse = {
  setting: 'EMBEDDED_PG_PORT',
  purpose: 'the embedded PostgreSQL',
  hosts: ['127.0.0.1', '::1'],
};
export const HTTP_PORT_USE: PortUse = { setting: 'PORT', purpose: 'the web server', hosts: [undefined] };

/** Fails with what to do when `port` cannot be bound as `use` binds it. Port 0 (any free port) always passes. */
export async function ensurePortFree(port: number, use: PortUse): Promise<void> {
  if (port === 0) return;
  const problem = await portProblem(port, use.hosts);
  if (problem) throw await portError(port, use, problem);
}

/** 'EADDRINUSE', 'EACCES' (or another bind error code) when the port cannot be bound; undefined when it is free. */
async function portProblem(port: number, hosts: (string | undefined)[]): Promise<string | undefined> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) return 'ERANGE';
  for (const host of hosts) {
    const code = await tryListen(port, host);
    // No IPv6 loopback on this machine: PostgreSQL skips it too.
    if (code && !(host === '::1' && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT'))) return code;
  }
  return undefined;
}

/** The StartError for a port that cannot be used, naming the program holding it when it can be found. */
export async function portError(port: number, use: PortUse, code = 'EADDRINUSE'): Promise<StartError> {
  const label = `Port ${port} (${use.setting}, for ${use.purpose})`;
  if (code === 'EACCES')
    return new StartError(
      `${label} needs administrator rights: ports below 1024 are reserved.`,
      `Choose a port above 1023, e.g. \`${use.setting}=${use.setting === 'PORT' ? 3000 : 54329} npm start\`.`,
      { reason: 'port' },
    );
  if (code === 'ERANGE')
    return new StartError(
      `${label} is not a valid port number.`,
      `Set ${use.setting} to a number from 1024 to 65535.`,
      {
        reason: 'port',
      },
    );
  if (code !== 'EADDRINUSE')
    return new StartError(
      `${label} cannot be opened (${code}).`,
      `Choose another port, e.g. \`${use.setting}=${(await freePortNear(port, use.hosts)) ?? port + 1} npm start\`.`,
      { reason: 'port' },
    );
  const holder = await whoListens(port);
  const free = await freePortNear(port, use.hosts);
  return new StartError(
    `${label} is in use by another program${holder ? `: ${describeHolder(holder)}` : ''}.`,
    `Stop that program, or choose another port, e.g. \`${use.setting}=${free ?? port + 1} npm start\`.`,
    { reason: 'port' },
  );
}

function describeHolder(p: ProcessInfo): string {
  const command = shortCommand(p.command) ?? 'unknown command';
  if (/gateway\/src\/main\.ts/.test(p.command ?? ''))
    return `process ${p.pid}, a PawHaven that is already running (${command})`;
  if (/(^|\/)postgres(\s|:|$)/.test(p.command ?? '') && p.cwd)
    return `process ${p.pid}, a PostgreSQL with its data in ${p.cwd} (a PawHaven with DATA_DIR=${path.dirname(p.cwd)}?)`;
  return `process ${p.pid} (${command})`;
}

/** The next port after `port` that can be bound on every host, if one of the next 50 can. */
async function freePortNear(port: number, hosts: (string | undefined)[]): Promise<number | undefined> {
  for (let p = port + 1; p <= Math.min(port + 50, 65535); p++) if (!(await portProblem(p, hosts))) return p;
  return undefined;
}

function tryListen(port: number, host: string | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'EADDRINUSE'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

/** Linux: the process listening on a TCP port (from /proc/net/tcp* and the processes' socket fds). */
async function whoListens(port: number): Promise<ProcessInfo | undefined> {
  if (process.platform !== 'linux') return undefined;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // sl local_address rem_address st … inode; st 0A is LISTEN.
      if (cols.length < 10 || cols[3] !== '0A') continue;
      if (parseInt(cols[1]!.split(':').pop()!, 16) === port && cols[9] !== '0') inodes.add(cols[9]!);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    for (const fd of await readdir(`/proc/${entry}/fd`).catch(() => [] as string[])) {
      const link = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!)) return processInfo(Number(entry));
    }
  }
  return undefined;
}

/** A port nobody listens on right now (on 127.0.0.1), for test servers and scratch clusters. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
