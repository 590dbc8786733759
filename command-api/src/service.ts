import type { JWTVerifyGetKey } from 'jose';
import {
  encryptLegacyPersonalData,
  personalDataShredderProjection,
  RebuildRunner,
  sessionChecks,
  type Projection,
  type ServiceContext,
  type SessionCheck,
  UnitsOfWork,
} from '@pawhaven/platform';
import { ensureAdmin } from './accounts/bootstrap-admin';
import { DEMO_PASSWORD, ensureDemoUsers } from './accounts/demo-users';
import { CodeHasher } from './accounts/secrets';
import { googleVerifier } from './accounts/google';
import { pseudonymiseUsernameKeys } from './accounts/username-keys';
import { seedDemoAds } from './adoption/demo-ads';
import { createCommandApp } from './app';
import { chatCommands } from './chat/routes';
import { seedDemoChat } from './chat/demo-chat';
import { seedDemoPosts } from './community/demo-posts';
import type { CommandDeps } from './deps';
import { seedPublicContent } from './directory/seed';
import { startHousekeeping } from './http/housekeeping';
import { idempotentAnswersShredder } from './http/idempotency';
import { releasedImagesReactor } from './images/released-images.reactor';
import { createMailer } from './mail/mailer';

export type FirstStart = {
  /** Set only when this start created the admin account. */
  adminCredentials: { email: string; password: string } | null;
  /** Demo accounts created by this start (first start only). */
  demoUsers: { email: string; username: string }[];
};

/**
 * The write side's work at start, run once at a time across every service (`openServiceContext`'s `firstStart`):
 * the one-time sealing of events from before personal fields were sealed, the admin account, the directory/FAQ/team
 * content, and — with `demoData`, outside production — the demo accounts with their ads, posts and chats.
 */
export async function prepareCommandSide(
  context: ServiceContext,
  opts: { demoData?: boolean } = {},
): Promise<FirstStart> {
  const { config, db, store, pseudonyms } = context;
  await encryptLegacyPersonalData(db.pool, store.keys, {
    pseudonyms,
    rewrite: pseudonymiseUsernameKeys(pseudonyms),
  });
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
  return { adminCredentials, demoUsers };
}

/**
 * Reactors of the write side: they follow the log but own no read model (so are never rebuilt). The shredders
 * destroy a deleted user's key and kept answers as the log records UserDeleted; the released-images reactor deletes
 * the pictures deletions leave unshown.
 */
export const commandReactors: readonly Projection[] = [
  personalDataShredderProjection,
  idempotentAnswersShredder,
  releasedImagesReactor,
];

export type CommandService = {
  app: ReturnType<typeof createCommandApp>;
  deps: CommandDeps & { units: UnitsOfWork };
  /** SendMessage as the socket calls it: the same rules and limits as POST /api/messages. */
  chat: ReturnType<typeof chatCommands>;
  stop(): Promise<void>;
};

/** Says what a first start created: the admin login (shown only this once) and the demo accounts. */
export function printFirstStart(started: FirstStart): void {
  if (started.adminCredentials) {
    console.log('  ┌─ Admin login (shown only this once: note it now) ─────────────');
    console.log(`  │ email:    ${started.adminCredentials.email}`);
    console.log(`  │ password: ${started.adminCredentials.password}`);
    console.log('  └────────────────────────────────────────────────────────────────\n');
  }
  if (started.demoUsers.length > 0) {
    console.log(`  Demo accounts (password ${DEMO_PASSWORD}):`);
    for (const u of started.demoUsers) console.log(`    ${u.email}  (${u.username})`);
    console.log('');
  }
}

/** Everything a command needs, for `context`. */
function commandDeps(context: ServiceContext, googleKeys?: JWTVerifyGetKey): CommandDeps {
  const { config, db, store, tokens, pseudonyms, secret } = context;
  return {
    config,
    db,
    store,
    tokens,
    codes: new CodeHasher(`${secret}:codes`),
    pseudonyms,
    mailer: createMailer(config, db.knex),
    google: config.GOOGLE_CLIENT_ID ? googleVerifier(config.GOOGLE_CLIENT_ID, googleKeys) : undefined,
    rebuilds: new RebuildRunner(db, store),
  };
}

/**
 * SendMessage for a query-api node of the distributed deployment: a message sent over a socket is appended by the
 * node holding the socket, through the same chat commands (rules, limits) as POST /api/messages, not forwarded.
 */
export const socketChatCommands = (context: ServiceContext) => chatCommands(commandDeps(context));

/** command-api: the Express app of every command, with what it runs beside (housekeeping, the dashboard's rebuilds). */
export async function startCommandService(
  context: ServiceContext,
  opts: { googleKeys?: JWTVerifyGetKey; sessionIsOpen?: SessionCheck } = {},
): Promise<CommandService> {
  const deps = { ...commandDeps(context, opts.googleKeys), units: new UnitsOfWork(context.databaseUrl) };
  const { db } = context;
  const app = createCommandApp(deps, opts.sessionIsOpen ?? sessionChecks(db.pool).fromLog);
  // Settles staged images a crash left behind and drops expired rate-limit counters, now and every few minutes.
  const housekeeping = await startHousekeeping(db.knex);
  return {
    app,
    deps,
    chat: chatCommands(deps),
    async stop() {
      await deps.rebuilds.stop();
      await housekeeping.stop();
      await deps.units.close();
    },
  };
}
