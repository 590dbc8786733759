import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { logger, noteIfDatabaseUnavailable, type Config, type Database } from '@pawhaven/platform';
import { PostgresRateLimitStore } from './rate-limit-store';

export const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';
/** An account whose failed sign-ins reached RATE_LIMIT_SIGNIN_ACCOUNT; its owner can still reset the password. */
export const SIGN_IN_LOCKED =
  'Too many failed sign-ins for this account. Please wait a few minutes, or reset your password.';

/** Settings that hold a number of requests per window (README, "Settings"). */
type LimitSetting = Exclude<Extract<keyof Config, `RATE_LIMIT_${string}`>, 'RATE_LIMIT_WINDOW_SECONDS'>;

type LimitDefinition = {
  setting: LimitSetting;
  /**
   * `address`: the client address, always, so a token cannot buy an anonymous flow more attempts.
   * `user`: the signed-in user (the client address when nobody is signed in).
   */
  key: 'address' | 'user';
  /** Requests the limit does not count. */
  skip?: (req: Request) => boolean;
};

const isUpload = (req: Request) => typeof req.is('multipart/form-data') === 'string';
/** Sending a message and its receipts count against `messages` instead of `write`. */
const isChat = (req: Request) =>
  req.method === 'POST' && /^\/api\/(messages\/?$|conversations\/[^/]+\/(read|delivered)\/?$)/.test(req.path);
const isRead = (req: Request) => req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
/** Administrators' deletions count against `moderation` instead of `write`. */
const isModeration = (req: Request) => req.method === 'DELETE' && req.path.startsWith('/api/admin/');
/** Sign-ins count their failures instead (signInAttempts), never the sign-ins themselves. */
const isSignIn = (req: Request) =>
  req.method === 'POST' && /^\/api\/auth\/(signin|login-google)\/?$/.test(req.path);

/**
 * Every rate limit of the write side, in one place. Each counts requests per RATE_LIMIT_WINDOW_SECONDS in PostgreSQL,
 * shared by every process and kept across restarts; past its number a request gets 429 before any work is done.
 */
const RATE_LIMITS = {
  /** Sign-ups, by form and by Google. */
  register: { setting: 'RATE_LIMIT_REGISTER', key: 'address' },
  /** Verification-code checks and resends. */
  otp: { setting: 'RATE_LIMIT_OTP', key: 'address' },
  /** Password-reset requests, code checks and resets. */
  reset: { setting: 'RATE_LIMIT_RESET', key: 'address' },
  /** Changing the password while signed in (guesses at the current one). */
  changePassword: { setting: 'RATE_LIMIT_CHANGE_PASSWORD', key: 'user' },
  /** Every request that carries an image (profile image, ad image, proof image): one budget. */
  upload: { setting: 'RATE_LIMIT_UPLOADS', key: 'user', skip: (req) => !isUpload(req) },
  /** New adoption ads. */
  newAd: { setting: 'RATE_LIMIT_NEW_ADS', key: 'user' },
  /** Adoption requests sent. */
  adoptionRequest: { setting: 'RATE_LIMIT_ADOPTION_REQUESTS', key: 'user' },
  /** Chat messages and their receipts, sent over HTTP or the socket: a budget of their own, chat is chatty. */
  messages: { setting: 'RATE_LIMIT_MESSAGES', key: 'user' },
  /** Contact-form messages: per client address, signed in or not (each one mails a confirmation). */
  contact: { setting: 'RATE_LIMIT_CONTACT', key: 'address' },
  /** Administrators' deletions: a clean-up after a spam wave must not use up the admin's other writes. */
  moderation: { setting: 'RATE_LIMIT_MODERATION', key: 'user', skip: (req) => !isModeration(req) },
  /** Every other write (POST, PUT, PATCH, DELETE) of the command side, on top of the limits above. */
  write: {
    setting: 'RATE_LIMIT_WRITES',
    key: 'user',
    skip: (req) => isRead(req) || isChat(req) || isModeration(req) || isSignIn(req),
  },
} as const satisfies Record<string, LimitDefinition>;

export type RateLimitName = keyof typeof RATE_LIMITS;

const clientAddress = (req: Request) => `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;

/** One limiter middleware, its counters in the `rate_limits` table under its name. */
export function rateLimiter(deps: { config: Config; db: Database }, name: RateLimitName): RequestHandler {
  const definition: LimitDefinition = RATE_LIMITS[name];
  return rateLimit({
    windowMs: deps.config.RATE_LIMIT_WINDOW_SECONDS * 1000,
    limit: deps.config[definition.setting],
    identifier: name,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new PostgresRateLimitStore(deps.db.pool, name),
    keyGenerator: (req) =>
      definition.key === 'user' && req.auth ? `user:${req.auth.userId}` : clientAddress(req),
    ...(definition.skip ? { skip: definition.skip } : {}),
    handler: (_req, res) => {
      res.status(429).json({ message: TOO_MANY, error: TOO_MANY });
    },
  });
}

/**
 * The same limit for work that counts only when it is done (a chat message, sent over HTTP or the socket): one use is
 * taken before `work` runs, so racing requests cannot overdraw it, and given back when the limit is already used up
 * (`tooMany` is thrown) or the work fails: a refused or failed send does not use up the budget.
 */
export function rateLimitCounter(deps: { config: Config; db: Database }, name: RateLimitName) {
  const definition: LimitDefinition = RATE_LIMITS[name];
  const store = new PostgresRateLimitStore(deps.db.pool, name);
  store.init({ windowMs: deps.config.RATE_LIMIT_WINDOW_SECONDS * 1000 } as Parameters<typeof store.init>[0]);
  return async <T>(userId: string, tooMany: () => Error, work: () => Promise<T>): Promise<T> => {
    const key = `user:${userId}`;
    const { totalHits } = await store.increment(key);
    const giveBack = () =>
      store.decrement(key).catch((error: unknown) => {
        // Only ever one use too many, until the window ends; the answer stays the work's.
        if (!noteIfDatabaseUnavailable(error, 'rate limit'))
          logger.warn({ err: error }, 'rate limit not given back');
      });
    if (totalHits > deps.config[definition.setting]) {
      await giveBack();
      throw tooMany();
    }
    try {
      return await work();
    } catch (error) {
      await giveBack();
      throw error;
    }
  };
}

/** Every limiter, by name, for a router to place in front of its handlers. */
export function rateLimits(deps: { config: Config; db: Database }): Record<RateLimitName, RequestHandler> {
  return Object.fromEntries(
    (Object.keys(RATE_LIMITS) as RateLimitName[]).map((name) => [name, rateLimiter(deps, name)]),
  ) as Record<RateLimitName, RequestHandler>;
}

/** What an attempt reserved: one use of each budget it was charged to. */
type Reservation = { store: PostgresRateLimitStore; key: string }[];

export type SignInAttempts = {
  /**
   * Charges the attempt to its client address and, when `accountOf` names one, to that account; answers 429 when
   * either budget of failures is used up. The charge is taken before the attempt runs, so a burst of concurrent
   * guesses cannot get past the limit, and given back when the attempt turns out not to be a failure (any answer
   * but 401; an attempt cut off before its answer stays counted).
   */
  limit: RequestHandler;
  /** The attempt succeeded: give its charge back now, before the answer, so the next attempt already sees it. */
  succeeded(req: Request): Promise<void>;
  /** Forget an account's failures: its owner proved themselves another way (a password reset). */
  forgive(accountKey: string): Promise<void>;
};

/**
 * The sign-in limit counts failures, never successes: per client address (RATE_LIMIT_SIGNIN), so one address
 * cannot guess across many accounts, and per account (RATE_LIMIT_SIGNIN_ACCOUNT, keyed by `accountOf`: a keyed
 * hash of the typed e-mail, known or not), so guesses spread over many addresses are bounded too. An office
 * behind one address signs in as often as it likes. `accountOf` answers null for a browser exempt from the
 * account's budget (one that signed into it before; see accounts/trusted-devices.ts).
 */
export function signInAttempts(
  deps: { config: Config; db: Database },
  accountOf: (req: Request) => string | null,
): SignInAttempts {
  const windowMs = deps.config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  /** `policy` names it in the RateLimit headers; its counters are kept under `policy`-failures. */
  const budget = (policy: string, limit: number, message: string) => {
    const store = new PostgresRateLimitStore(deps.db.pool, `${policy}-failures`);
    store.init({ windowMs } as Parameters<typeof store.init>[0]);
    return { policy, store, limit, message };
  };
  const byAddress = budget('signin', deps.config.RATE_LIMIT_SIGNIN, TOO_MANY);
  const byAccount = budget('signin-account', deps.config.RATE_LIMIT_SIGNIN_ACCOUNT, SIGN_IN_LOCKED);
  const reserved = new WeakMap<Request, Reservation>();

  const release = async (req: Request) => {
    const taken = reserved.get(req);
    reserved.delete(req);
    await Promise.all((taken ?? []).map((r) => r.store.decrement(r.key)));
  };

  const limit: RequestHandler = async (req, res, next) => {
    try {
      const account = accountOf(req);
      const charged = [
        { ...byAddress, key: clientAddress(req) },
        ...(account ? [{ ...byAccount, key: `account:${account}` }] : []),
      ];
      const hits = await Promise.all(charged.map((b) => b.store.increment(b.key)));
      reserved.set(req, charged);
      const over = charged.findIndex((b, i) => hits[i]!.totalHits > b.limit);
      if (over >= 0) {
        // Refused before any work: not an attempt, so it counts for nothing.
        await release(req);
        const b = charged[over]!;
        const seconds = Math.max(
          1,
          Math.ceil(((hits[over]!.resetTime?.getTime() ?? Date.now()) - Date.now()) / 1000),
        );
        res.setHeader(
          'RateLimit-Policy',
          `"${b.policy}"; q=${b.limit}; w=${deps.config.RATE_LIMIT_WINDOW_SECONDS}`,
        );
        res.setHeader('RateLimit', `"${b.policy}"; r=0; t=${seconds}`);
        res.setHeader('Retry-After', String(seconds));
        res.status(429).json({ message: b.message, error: b.message });
        return;
      }
      res.on('finish', () => {
        if (res.statusCode !== 401) void release(req).catch(() => {});
      });
      next();
    } catch (err) {
      next(err);
    }
  };

  return {
    limit,
    succeeded: release,
    forgive: (accountKey) => byAccount.store.resetKey(`account:${accountKey}`),
  };
}
