import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from '../config';
import { StartError } from '../embedded/start-error';
import { ensurePortFree, HTTP_PORT_USE, portError } from '../embedded/ports';
import { openServiceContext, type ServiceContext } from './context';

/** A service started on its own shares its database with the others: it must be told where it is. */
export function sharedDatabaseUrl(config: Config, service: string): string {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  throw new StartError(
    `${service} on its own needs DATABASE_URL: the PostgreSQL every service of the deployment shares.`,
    'Set DATABASE_URL (npm run cluster sets it for every service), or run `npm start` for everything in one process with an embedded PostgreSQL.',
    { reason: 'config' },
  );
}

/**
 * An HTTP server for `handler` listening on PORT, with `GET /healthz` answered before it (what the cluster script,
 * nginx and compose healthchecks ask: the process is up and serving). A port in use fails with what to do.
 */
export async function listenOnPort(
  port: number,
  handler: RequestListener,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  await ensurePortFree(port, HTTP_PORT_USE);
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.syscall === 'listen' && error.code)
        portError(port, HTTP_PORT_USE, error.code).then(reject, reject);
      else reject(error);
    });
    server.listen(port, resolve);
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The start of a service on its own (command-api, query-api, a projection worker): its settings, a free port, then
 * the shared database and event store (`openServiceContext`, with the service's `firstStart` work).
 */
export async function openStandaloneService<T = void>(
  service: string,
  opts: Omit<Parameters<typeof openServiceContext<T>>[0], 'config' | 'databaseUrl'>,
): Promise<{ config: Config; context: ServiceContext; started: T }> {
  const config = loadConfig();
  const databaseUrl = sharedDatabaseUrl(config, service);
  // Before the database: a busy HTTP port should not cost a migration to find out.
  await ensurePortFree(config.PORT, HTTP_PORT_USE);
  const { context, started } = await openServiceContext<T>({ ...opts, config, databaseUrl });
  return { config, context, started };
}
