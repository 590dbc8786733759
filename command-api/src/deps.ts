import type {
  Config,
  Database,
  EventStore,
  Pseudonyms,
  RebuildRunner,
  TokenService,
  UnitsOfWork,
} from '@pawhaven/platform';
import type { GoogleVerifier } from './accounts/google';
import type { CodeHasher } from './accounts/secrets';
import type { Mailer } from './mail/mailer';

/** Everything the command side needs, built once by the gateway (or a test). */
export type CommandDeps = {
  config: Config;
  db: Database;
  store: EventStore;
  tokens: TokenService;
  codes: CodeHasher;
  /** Keyed hashes of what claims are stored under (username keys: accounts/username-keys.ts). */
  pseudonyms: Pseudonyms;
  mailer: Mailer;
  /** Absent when GOOGLE_CLIENT_ID is not configured. */
  google?: GoogleVerifier;
  /** The dashboard's rebuilds: the app stops them (`stop`) before it closes the database. */
  rebuilds: RebuildRunner;
  /**
   * Where requests with an Idempotency-Key run as one transaction (`http/idempotency.ts`); the command app needs it,
   * routes mounted on their own (tests) do not. Closed by whoever made it.
   */
  units?: UnitsOfWork;
  now?: () => Date;
};
