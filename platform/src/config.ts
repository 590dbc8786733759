import { z } from 'zod';

/** A public https address, or unset (an empty variable counts as unset). */
const httpsUrl = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.url({ protocol: /^https$/, error: 'must be an https:// address' }).optional(),
);

/** Every setting the services read, parsed once from the environment with safe embedded defaults. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** When unset, an embedded PostgreSQL is started under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(54329),
  /** Signing key for access tokens; when unset one is generated once and kept in the database. */
  JWT_SECRET: z.string().min(32).optional(),
  /**
   * Key of the keyed hashes that e-mail and username claims are stored under (so a copy of the log cannot confirm a
   * guessed address or name); when unset one is generated once and kept in the database. Never change it: claims
   * made under another secret are not found (the start refuses a different one).
   */
  PSEUDONYM_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  REMEMBER_ME_DAYS: z.coerce.number().int().positive().default(30),
  ADMIN_EMAIL: z.string().email().default('admin@pawhaven.local'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  ADMIN_USERNAME: z.string().min(2).default('admin'),
  ACCEPTED_EMAIL_DOMAIN: z.string().min(3).default('gmail.com'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  /** PawHaven's own accounts, linked from the footer's icons; an icon whose account is unset is not shown. */
  SOCIAL_FACEBOOK_URL: httpsUrl,
  SOCIAL_INSTAGRAM_URL: httpsUrl,
  SOCIAL_X_URL: httpsUrl,
  SOCIAL_YOUTUBE_URL: httpsUrl,
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('PawHaven <no-reply@pawhaven.local>'),
  /** Rate limits: requests per window; the auth flows per client address. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  /** Failed sign-ins per client address per window (successful ones never count). */
  RATE_LIMIT_SIGNIN: z.coerce.number().int().positive().default(20),
  /** Failed sign-ins per account (e-mail address) per window, from every address together. */
  RATE_LIMIT_SIGNIN_ACCOUNT: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_REGISTER: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_OTP: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_RESET: z.coerce.number().int().positive().default(10),
  /** Per signed-in user (the client address when anonymous); see command-api/src/http/rate-limits.ts. */
  RATE_LIMIT_CHANGE_PASSWORD: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_UPLOADS: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_NEW_ADS: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_ADOPTION_REQUESTS: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_WRITES: z.coerce.number().int().positive().default(300),
  /** Administrators' deletions (DELETE /api/admin/...) per admin per window: moderation has a budget of its own. */
  RATE_LIMIT_MODERATION: z.coerce.number().int().positive().default(1000),
  /** Chat messages and receipts per user per window (over HTTP and the socket alike). */
  RATE_LIMIT_MESSAGES: z.coerce.number().int().positive().default(600),
  /** Contact-form messages per client address per window. */
  RATE_LIMIT_CONTACT: z.coerce.number().int().positive().default(5),
  /**
   * Behind a reverse proxy (the distributed deployment's nginx), how many proxy hops to trust for the client address
   * that rate limits key on; 0 trusts none (the embedded default, where clients connect directly).
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Bound on how long a read waits for X-Consistent-After. */
  CONSISTENCY_WAIT_MS: z.coerce.number().int().positive().default(3000),
  /** How many answers of hot reads (feed pages, posts) each process keeps until their read models change; 0: none. */
  READ_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(256),
  /**
   * After how long committed events held back behind an open transaction (projections cannot see them) turn health
   * to 'held back' and log a warning naming the blocking session.
   */
  HELD_BACK_WARN_SECONDS: z.coerce.number().positive().default(10),
  /**
   * Where the log is kept. `postgres` (the default): the events table of DATABASE_URL. `kurrentdb`: a KurrentDB
   * (EventStoreDB) server at KURRENTDB_URL; its adapter passes the event store contract, but the services still read
   * the log table in PostgreSQL for rebuilds, the admin's history and held-back events, so they refuse to start on it
   * and say so (docs/decisions.md, "KurrentDB").
   */
  EVENT_STORE: z.enum(['postgres', 'kurrentdb']).default('postgres'),
  /** The KurrentDB connection string, e.g. kurrentdb://kurrentdb:2113?tls=false. */
  KURRENTDB_URL: z
    .string()
    .regex(
      /^(kurrentdb|kurrent|esdb|eventstoredb)(\+discover)?:\/\/\S+$/,
      'must be a kurrentdb:// connection string',
    )
    .default('kurrentdb://localhost:2113?tls=false'),
  /**
   * How projection workers learn of events: `none` follows the event store; `kafka` has a relay publish the log to
   * KAFKA_TOPIC and the read models that need only each stream's order consume it (the others follow the store).
   */
  EVENT_BUS: z.enum(['none', 'kafka']).default('none'),
  /** Comma-separated host:port list of Kafka brokers. */
  KAFKA_BROKERS: z
    .string()
    .default('localhost:9092')
    .transform((v) =>
      v
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port')).min(1)),
  KAFKA_TOPIC: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,249}$/, 'letters, digits, . _ - only')
    .default('pawhaven.events'),
  /** Partitions of KAFKA_TOPIC when the relay creates it (streams are spread over them by id). */
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(1000).default(4),
  /**
   * command-api on its own: create the demo accounts, ads, posts and chats on a first start, as `npm start` does with
   * its embedded database (never in production).
   */
  DEMO_DATA: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema> & { devMailbox: boolean };

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const base = { ...parsed.data, devMailbox: parsed.data.NODE_ENV !== 'production' && !parsed.data.SMTP_URL };
  return { ...base, ...overrides };
}
