import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import type { JWTVerifyGetKey } from 'jose';
import {
  chatCommands,
  CodeHasher,
  type CommandDeps,
  createCommandApp,
  createMailer,
  directoryImageOrigins,
  ensureAdmin,
  ensureDemoUsers,
  googleVerifier,
  idempotentAnswersShredder,
  pseudonymiseUsernameKeys,
  releasedImagesReactor,
  seedDemoAds,
  seedDemoChat,
  seedPublicContent,
  seedDemoPosts,
  startHousekeeping,
} from '@pawhaven/command-api';
import {
  ConsistencyWaiter,
  connectDatabase,
  encryptLegacyPersonalData,
  ensureLogOrder,
  loadConfig,
  logger,
  migrate,
  PostgresEventStore,
  personalDataShredderProjection,
  listRoutes,
  RebuildRunner,
  resolveJwtSecret,
  resolvePseudonyms,
  runProjector,
  startHeldBackMonitor,
  sessionChecks,
  type RouteEntry,
  TokenService,
  type Config,
  UnitsOfWork,
  withPersonalDataEncryption,
} from '@pawhaven/platform';
import { allMigrations, allProjections } from '@pawhaven/projections';
import { attachRealtime, createQueryApp, POST_QUERIES, Presence } from '@pawhaven/query-api';
import { contentSecurity } from './csp';

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
  io: Awaited<ReturnType<typeof attachRealtime>>['io'];
  stop(): Promise<void>;
};

/** The gateway's routing rule: reads go to query-api, everything else to command-api. */
const isQuery = (method: string, path: string) =>
  method === 'GET' || method === 'HEAD' || (method === 'POST' && POST_QUERIES.includes(path));

const defaultFrontendDir = path.resolve(import.meta.dirname, '../../frontend/dist');

/**
 * The embedded runtime: command-api, projections, query-api, socket.io and the built frontend behind one gateway
 * that routes by method. The distributed deployment runs the same apps as separate services.
 */
export async function startApp(opts: StartOptions): Promise<RunningApp> {
  const config = loadConfig(process.env, opts.config ?? {});
  const db = connectDatabase(opts.databaseUrl, { max: 20 });
  await migrate(db.knex, allMigrations);
  await ensureLogOrder(db.knex, allProjections); // a log restored from another server: repair its order first
  // Personal fields are sealed with per-user keys (crypto-shredding), claims kept under keyed hashes; events from
  // before are sealed and claims renamed once, here.
  const pseudonyms = await resolvePseudonyms(db.pool, config.PSEUDONYM_SECRET);
  const store = withPersonalDataEncryption(new PostgresEventStore(db.pool), db.pool, pseudonyms);
  await encryptLegacyPersonalData(db.pool, store.keys, {
    pseudonyms,
    rewrite: pseudonymiseUsernameKeys(pseudonyms),
  });
  const secret = await resolveJwtSecret(db.knex, config.JWT_SECRET);
  const tokens = new TokenService(secret, config.ACCESS_TOKEN_TTL_SECONDS);
  const codes = new CodeHasher(`${secret}:codes`);
  // Every event committed before this start, whatever transactions other databases of the server hold open.
  const { rows: last } = await db.pool.query<{ transaction_id: string; position: string }>(
    'SELECT transaction_id, position FROM events ORDER BY transaction_id DESC, position DESC LIMIT 1',
  );
  const logEnd = last[0]
    ? { transactionId: BigInt(last[0].transaction_id), position: BigInt(last[0].position) }
    : undefined;
  const adminCredentials = await ensureAdmin(store, config, pseudonyms, logEnd);
  // Directory, FAQ and team content: the seed files, appended once (every deployment, not only the demo).
  await seedPublicContent(store, db.knex);
  const demoUsers =
    opts.demoData && config.NODE_ENV !== 'production' ? await ensureDemoUsers(store, pseudonyms) : [];
  // Demo ads only alongside freshly created demo accounts, so a restart never adds them twice.
  if (demoUsers.length > 0) {
    await seedDemoAds(store, db.knex);
    await seedDemoPosts(store, db.knex);
    await seedDemoChat(store, db.knex);
  }

  const abort = new AbortController();
  // Reactors following the log, not read models (so not rebuilt): the shredders destroy a deleted user's key and
  // kept answers as the log records UserDeleted; the released-images reactor deletes the pictures deletions leave
  // unshown.
  const projector = runProjector(
    db.knex,
    store,
    [...allProjections, personalDataShredderProjection, idempotentAnswersShredder, releasedImagesReactor],
    abort.signal,
  );
  const heldBack = startHeldBackMonitor(
    db.knex,
    allProjections.map((p) => p.name),
    { thresholdMs: config.HELD_BACK_WARN_SECONDS * 1000 },
  );
  const consistency = new ConsistencyWaiter(
    db.knex,
    opts.databaseUrl,
    allProjections.map((p) => p.name),
  );
  await consistency.start();

  const sessions = sessionChecks(db.pool);
  const presence = new Presence();
  const commandDeps: CommandDeps & { units: UnitsOfWork } = {
    config,
    db,
    store,
    tokens,
    codes,
    pseudonyms,
    mailer: createMailer(config, db.knex),
    google: config.GOOGLE_CLIENT_ID ? googleVerifier(config.GOOGLE_CLIENT_ID, opts.googleKeys) : undefined,
    rebuilds: new RebuildRunner(db, store),
    units: new UnitsOfWork(opts.databaseUrl),
  };
  const commandApp = createCommandApp(commandDeps, sessions.fromLog);
  const queryApp = createQueryApp(
    { config, db, store, tokens, consistency, projections: allProjections, presence },
    sessions.fromLog,
  );

  const gateway = express();
  gateway.disable('x-powered-by');
  const frontendDir = opts.frontendDir ?? defaultFrontendDir;
  // The Content-Security-Policy (csp.ts): a nonce per response for <style> elements, nothing else inline.
  const security = contentSecurity({
    frontendDir,
    imageOrigins: await directoryImageOrigins(db.knex),
    production: config.NODE_ENV === 'production',
  });
  gateway.use(security.handlers);
  gateway.use(['/api', '/dev'], (req, res, next) => {
    const target = isQuery(req.method, req.originalUrl.split('?')[0]!) ? queryApp : commandApp;
    req.url = req.originalUrl;
    target(req, res, next);
  });
  const indexPage = (res: express.Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(security.page(res));
  };
  if (existsSync(path.join(frontendDir, 'index.html'))) {
    // The frontend's files go compressed (a phone on a slow network gets a fifth of the bytes); API answers do not:
    // they are small, mostly built by PostgreSQL, and their CPU is better spent answering.
    gateway.use(compression());
    gateway.use(
      '/assets',
      express.static(path.join(frontendDir, 'assets'), { immutable: true, maxAge: '1y' }),
    );
    // index.html carries each response's nonce: never served as a plain file.
    gateway.get('/index.html', (_req, res) => indexPage(res));
    gateway.use(express.static(frontendDir, { index: false, maxAge: '1h' }));
    // Every other path is a route of the single-page app.
    gateway.get('/{*path}', (_req, res) => indexPage(res));
  } else {
    gateway.get('/', (_req, res) => {
      res.type('text').send('The frontend is not built yet: run `npm run build`.');
    });
  }

  // Settles staged images a crash left behind and drops expired rate-limit counters, now and every few minutes.
  const housekeeping = await startHousekeeping(db.knex);

  const server = createServer(gateway);
  // A message sent over the socket is command-api's SendMessage, with the same rules and limit as POST /api/messages.
  const chat = chatCommands(commandDeps);
  const realtime = await attachRealtime(server, {
    tokens,
    sessionIsOpen: sessions.fromLog,
    presence,
    pool: db.pool,
    connectionString: opts.databaseUrl,
    sendMessage: (userId, body) => chat.send(userId, body),
  });
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
    adminCredentials,
    demoUsers,
    routes: [
      ...listRoutes(commandApp).filter((r) => !isQuery(r.method, r.path)),
      ...listRoutes(queryApp).filter((r) => isQuery(r.method, r.path)),
    ],
    io: realtime.io,
    async stop() {
      abort.abort();
      // Sockets first: their goodbyes (presence) still need the database.
      await realtime.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await projector.catch(() => {});
      await commandDeps.rebuilds.stop();
      await heldBack.stop();
      await housekeeping.stop();
      await consistency.stop();
      await commandDeps.units.close();
      await store.close();
      await db.close();
    },
  };
}
