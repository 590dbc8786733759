import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { JWTVerifyGetKey } from 'jose';
import {
  commandReactors,
  directoryImageOrigins,
  prepareCommandSide,
  startCommandService,
} from '@pawhaven/command-api';
import {
  listRoutes,
  loadConfig,
  logger,
  openServiceContext,
  sessionChecks,
  type Config,
  type RouteEntry,
} from '@pawhaven/platform';
import { allMigrations, allProjections } from '@pawhaven/projections';
import { startKafkaRelay, startProjectionWorker } from '@pawhaven/projections/service';
import { frontendPages, POST_QUERIES, startQueryService, type QueryService } from '@pawhaven/query-api';

export type StartOptions = {
  databaseUrl: string;
  port: number;
  /** Settings that win over the environment (tests use them). */
  config?: Partial<Config>;
  /** Google's key set; tests pass a local one so no network is needed. */
  googleKeys?: JWTVerifyGetKey;
  frontendDir?: string;
  /** Seed the demo accounts (the embedded default does; tests and production do not). */
  demoData?: boolean;
};

export type RunningApp = {
  url: string;
  port: number;
  config: Config;
  /** Set only when this start created the admin account. */
  adminCredentials: { email: string; password: string } | null;
  /** Demo accounts created by this start (first start only). */
  demoUsers: { email: string; username: string }[];
  /** Every API route the gateway serves (method, Express path), each from the app that answers it. */
  routes: RouteEntry[];
  /** The socket.io server (tests read the events its sockets answer). */
  io: Awaited<ReturnType<QueryService['attachSockets']>>['io'];
  stop(): Promise<void>;
};

/** The gateway's routing rule: reads go to query-api, everything else to command-api. */
export const isQuery = (method: string, path: string) =>
  method === 'GET' || method === 'HEAD' || (method === 'POST' && POST_QUERIES.includes(path));

/**
 * The embedded runtime: command-api, the projection worker, query-api, socket.io and the built frontend in one
 * process, behind one gateway that routes by method (`isQuery`). The distributed deployment runs the same services
 * as separate processes (each workspace's `src/main.ts`) behind nginx, which routes by the same rule.
 */
export async function startApp(opts: StartOptions): Promise<RunningApp> {
  const config = loadConfig(process.env, opts.config ?? {});
  const { context, started } = await openServiceContext({
    config,
    databaseUrl: opts.databaseUrl,
    migrations: allMigrations,
    projections: allProjections,
    firstStart: (c) => prepareCommandSide(c, { demoData: opts.demoData }),
  });
  // One process: the write side's reactors follow the log in the same projector as the read models.
  const worker = startProjectionWorker(context, { reactors: commandReactors });
  const relay = startKafkaRelay(context); // EVENT_BUS=kafka only
  const sessions = sessionChecks(context.db.pool);
  const command = await startCommandService(context, {
    googleKeys: opts.googleKeys,
    sessionIsOpen: sessions.fromLog,
  });
  const query = await startQueryService(context, {
    projections: allProjections,
    sessionIsOpen: sessions.fromLog,
    sendMessage: (userId, body) => command.chat.send(userId, body),
  });

  const gateway = express();
  gateway.disable('x-powered-by');
  const frontend = frontendPages({
    frontendDir: opts.frontendDir,
    imageOrigins: await directoryImageOrigins(context.db.knex),
    production: config.NODE_ENV === 'production',
  });
  gateway.use(frontend.security);
  gateway.use(['/api', '/dev'], (req, res, next) => {
    const target = isQuery(req.method, req.originalUrl.split('?')[0]!) ? query.app : command.app;
    req.url = req.originalUrl;
    target(req, res, next);
  });
  gateway.use(frontend.pages);

  const server = createServer(gateway);
  const realtime = await query.attachSockets(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  logger.debug({ port }, 'gateway listening');

  return {
    url: `http://localhost:${port}`,
    port,
    config,
    adminCredentials: started.adminCredentials,
    demoUsers: started.demoUsers,
    routes: [
      ...listRoutes(command.app).filter((r) => !isQuery(r.method, r.path)),
      ...listRoutes(query.app).filter((r) => isQuery(r.method, r.path)),
    ],
    io: realtime.io,
    async stop() {
      // Sockets first: their goodbyes (presence) still need the database.
      await realtime.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await worker.stop();
      await relay?.stop();
      await command.stop();
      await query.stop();
      await context.close();
    },
  };
}
