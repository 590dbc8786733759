import type { Server as HttpServer } from 'node:http';
import {
  ConsistencyWaiter,
  sessionChecks,
  type Projection,
  type ServiceContext,
  type SessionCheck,
} from '@pawhaven/platform';
import { createQueryApp } from './app';
import { Presence } from './realtime/presence';
import { attachRealtime, type RealtimeDeps } from './realtime/socket';

export type QueryService = {
  app: ReturnType<typeof createQueryApp>;
  /** Serves the sockets on `server` (chat, typing, notifications); closed with the service. */
  attachSockets(server: HttpServer): Promise<Awaited<ReturnType<typeof attachRealtime>>>;
  stop(): Promise<void>;
};

/**
 * query-api: every read of the product and the sockets. Reads that carry X-Consistent-After wait for the read models
 * named in `projections` (the consistency waiter listens for their commits, whichever process makes them).
 */
export async function startQueryService(
  context: ServiceContext,
  opts: {
    projections: readonly Projection[];
    /** SendMessage for a message that arrives over a socket (command-api's chat commands). */
    sendMessage: RealtimeDeps['sendMessage'];
    sessionIsOpen?: SessionCheck;
  },
): Promise<QueryService> {
  const { config, db, store, tokens } = context;
  const sessionIsOpen = opts.sessionIsOpen ?? sessionChecks(db.pool).fromLog;
  const consistency = new ConsistencyWaiter(
    db.knex,
    context.databaseUrl,
    opts.projections.map((p) => p.name),
  );
  await consistency.start();
  const presence = new Presence();
  const app = createQueryApp(
    { config, db, store, tokens, consistency, projections: opts.projections, presence },
    sessionIsOpen,
  );
  let realtime: Awaited<ReturnType<typeof attachRealtime>> | undefined;
  return {
    app,
    async attachSockets(server) {
      realtime = await attachRealtime(server, {
        tokens,
        sessionIsOpen,
        presence,
        pool: db.pool,
        connectionString: context.databaseUrl,
        sendMessage: opts.sendMessage,
      });
      return realtime;
    },
    async stop() {
      // Sockets first: their goodbyes (presence) still need the database.
      await realtime?.close();
      await consistency.stop();
    },
  };
}
