import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';
import type { Config } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';
import { startApp, type RunningApp } from '@pawhaven/gateway';

/**
 * A shared harness for HTTP integration tests: a fresh migrated database on the real embedded PostgreSQL and the
 * whole product (gateway, command-api, projections, query-api) on a free port. No mocks: tests talk HTTP.
 */

export type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/** Response bodies are whatever JSON the server sent; tests assert on their shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export type ApiResponse<B = Json> = { status: number; body: B; headers: Headers; text: string };

export type RequestOptions = {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Sent as multipart/form-data instead of JSON. */
  form?: FormData;
  /** Sent as-is (e.g. malformed JSON); give the content type in `headers`. */
  raw?: string;
};

export type RegisteredUser = {
  token: string;
  user: {
    _id: string;
    id: string;
    username: string;
    email: string;
    isVeterinarian: boolean;
    isAdmin: boolean;
    [k: string]: unknown;
  };
  /** `ph_session=…`, ready for a Cookie header. */
  cookie: string;
  email: string;
  password: string;
  username: string;
  /** The position of the sign-in, for X-Consistent-After. */
  position: string;
};

export type TestApi = ReturnType<typeof createApi>;

/** `N` users: a tuple when `N` is a literal (so `[a, b] = …` is typed), an array otherwise. */
type Users<N extends number, R extends RegisteredUser[] = []> = number extends N
  ? RegisteredUser[]
  : R['length'] extends N
    ? R
    : Users<N, [RegisteredUser, ...R]>;

export type TestApp = {
  url: string;
  db: TestDatabase;
  app: RunningApp;
  api: TestApi;
  adminCredentials: RunningApp['adminCredentials'];
  /** Signs the administrator the app created in; fails the test setup when that is refused. */
  signInAdmin(): Promise<{ token: string; id: string }>;
  stop(): Promise<void>;
};

export type StartTestAppOptions = {
  /** Settings that win over the defaults below (rate limits of 1000, so tests are not throttled). */
  config?: Partial<Config>;
  googleKeys?: JWTVerifyGetKey;
  /** Reuse a database (it is then not dropped on stop). */
  db?: TestDatabase;
  /** Serve a built frontend from here (by default none is served: API tests only). */
  frontendDir?: string;
  /** Seed the demo accounts (off by default). */
  demoData?: boolean;
};

const GENEROUS_LIMITS: Partial<Config> = {
  RATE_LIMIT_SIGNIN: 1000,
  RATE_LIMIT_SIGNIN_ACCOUNT: 1000,
  RATE_LIMIT_REGISTER: 1000,
  RATE_LIMIT_OTP: 1000,
  RATE_LIMIT_RESET: 1000,
  RATE_LIMIT_CHANGE_PASSWORD: 1000,
  RATE_LIMIT_UPLOADS: 1000,
  RATE_LIMIT_NEW_ADS: 1000,
  RATE_LIMIT_ADOPTION_REQUESTS: 1000,
  RATE_LIMIT_WRITES: 100_000,
  RATE_LIMIT_MESSAGES: 100_000,
};

export const TEST_PASSWORD = 'Str0ng!Passw0rd';

export async function startTestApp(opts: StartTestAppOptions = {}): Promise<TestApp> {
  const db = opts.db ?? (await createTestDatabase({ max: 5 }));
  const ownsDb = !opts.db;
  let app: RunningApp;
  try {
    app = await startApp({
      databaseUrl: db.connectionString,
      port: 0,
      config: { ...GENEROUS_LIMITS, ...opts.config },
      googleKeys: opts.googleKeys,
      frontendDir: opts.frontendDir ?? '/nonexistent',
      demoData: opts.demoData ?? false,
    });
  } catch (e) {
    if (ownsDb) await db.drop();
    throw e;
  }
  const api = createApi(app.url);
  return {
    url: app.url,
    db,
    app,
    api,
    adminCredentials: app.adminCredentials,
    async signInAdmin() {
      if (!app.adminCredentials) throw new Error('the app created no administrator');
      const signin = await api.post('/api/auth/signin', app.adminCredentials);
      if (signin.status !== 200) throw new Error(`admin signin answered ${signin.status}: ${signin.text}`);
      return { token: signin.body.token as string, id: signin.body.user._id as string };
    },
    async stop() {
      await app.stop();
      if (ownsDb) await db.drop();
    },
  };
}

/** A small real image (a solid colour) for upload tests, encoded as `format`. */
export const testImage = (
  width = 40,
  height = 30,
  format: 'png' | 'jpeg' | 'gif' | 'webp' | 'tiff' = 'png',
) => {
  const blank = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });
  return blank[format]().toBuffer();
};

let counter = 0;
/** A unique lower-case name for this test run (usernames, e-mail local parts). */
export const uniqueName = (prefix = 'user') =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The `name=value` pair of a Set-Cookie header, or null. */
export function sessionCookie(headers: Headers, name = 'ph_session'): string | null {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line ? line.split(';')[0]! : null;
}

/**
 * HTTP helpers for the app at `baseUrl`; or, for services run apart, `baseUrl` gives each request's address by its
 * method and path (as nginx routes: writes to command-api, reads to query-api).
 */
export function createApi(baseUrl: string | ((method: string, path: string) => string)) {
  const base = typeof baseUrl === 'string' ? () => baseUrl : baseUrl;
  async function request<B = Json>(
    method: string,
    path: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<B>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: FormData | string | undefined;
    if (opts.form) body = opts.form;
    else if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base(method, path.split('?')[0]!) + path, {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, body: parsed as B, headers: res.headers, text };
  }

  const api = {
    request,
    post: <B = Json>(path: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
      request<B>('POST', path, { body: body ?? {}, token, headers }),
    get: <B = Json>(path: string, token?: string, headers?: Record<string, string>) =>
      request<B>('GET', path, { token, headers }),
    del: <B = Json>(path: string, token?: string, headers?: Record<string, string>) =>
      request<B>('DELETE', path, { token, headers }),
    put: <B = Json>(path: string, body?: unknown, token?: string) =>
      request<B>('PUT', path, { body: body ?? {}, token }),
    /** multipart/form-data with one file (and optional extra fields). */
    upload: <B = Json>(
      path: string,
      file: { field: string; bytes: Uint8Array; filename: string; type: string },
      token?: string,
      fields: Record<string, string> = {},
    ) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
      return request<B>('POST', path, { form, token });
    },

    /** The newest six-digit code mailed to `email`, read from the dev mailbox. */
    async readCode(email: string): Promise<string> {
      const mails = await api.get<{ to: string; subject: string; text: string }[]>(
        `/dev/mailbox?to=${encodeURIComponent(email)}`,
      );
      if (mails.status !== 200) throw new Error(`GET /dev/mailbox answered ${mails.status}`);
      const code = mails.body[0]?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code mailed to ${email}`);
      return code;
    },

    /** Registers, verifies (with the mailed code) and signs in a user. */
    async registerVerifiedUser(
      input: {
        username?: string;
        email?: string;
        password?: string;
        isVeterinarian?: boolean;
        rememberMe?: boolean;
      } = {},
    ): Promise<RegisteredUser> {
      const username = input.username ?? uniqueName();
      const email = input.email ?? `${username.toLowerCase().replace(/[^a-z0-9]/g, '')}@gmail.com`;
      const password = input.password ?? TEST_PASSWORD;
      const reg = await api.post('/api/auth/register', {
        username,
        email,
        password,
        isVeterinarian: input.isVeterinarian ?? false,
      });
      if (reg.status !== 201) throw new Error(`register answered ${reg.status}: ${reg.text}`);
      const otp = await api.readCode(email);
      const ver = await api.post('/api/auth/verify-registration', {
        email,
        otp,
        registrationToken: reg.body.registrationToken,
      });
      if (ver.status !== 200) throw new Error(`verify-registration answered ${ver.status}: ${ver.text}`);
      const signin = await api.post('/api/auth/signin', {
        email,
        password,
        rememberMe: input.rememberMe ?? false,
      });
      if (signin.status !== 200) throw new Error(`signin answered ${signin.status}: ${signin.text}`);
      const cookie = sessionCookie(signin.headers);
      if (!cookie) throw new Error('signin set no session cookie');
      return {
        token: signin.body.token,
        user: signin.body.user,
        cookie,
        email,
        password,
        username,
        position: signin.body.position,
      };
    },

    /** `count` users registered, verified and signed in at once, all with `input` (no username or e-mail). */
    registerVerifiedUsers<N extends number>(
      count: N,
      input: { isVeterinarian?: boolean; rememberMe?: boolean } = {},
    ): Promise<Users<N>> {
      return Promise.all(Array.from({ length: count }, () => api.registerVerifiedUser(input))) as Promise<
        Users<N>
      >;
    },
  };
  return api;
}

/** Google's side, locally: an RS256 key pair whose public half the app trusts instead of Google's key set. */
export type GoogleTestKeys = {
  keys: JWTVerifyGetKey;
  sign(claims?: GoogleTokenClaims): Promise<string>;
};

export type GoogleTokenClaims = {
  email?: string;
  name?: string;
  sub?: string;
  email_verified?: boolean;
  aud?: string;
  iss?: string;
  /** Expiry: seconds since the epoch, or a jose time span such as '10m'. */
  exp?: number | string;
};

export type GoogleSigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export const GOOGLE_TEST_CLIENT_ID = 'test-client';

export async function createGoogleTestKeys(): Promise<GoogleTestKeys> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const keys = createLocalJWKSet({ keys: [jwk] });
  return {
    keys,
    sign: (claims = {}) => signGoogleToken(privateKey, claims),
  };
}

export async function signGoogleToken(
  privateKey: GoogleSigningKey,
  claims: GoogleTokenClaims = {},
): Promise<string> {
  const email = claims.email ?? `${uniqueName('g')}@gmail.com`;
  return new SignJWT({
    email,
    name: claims.name ?? 'Google Tester',
    email_verified: claims.email_verified ?? true,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setSubject(claims.sub ?? `sub-${email}`)
    .setAudience(claims.aud ?? GOOGLE_TEST_CLIENT_ID)
    .setIssuer(claims.iss ?? 'https://accounts.google.com')
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? '10m')
    .sign(privateKey);
}

export type TestSocket = {
  socket: Socket;
  /** Every event the socket heard, in order. */
  got: { event: string; payload: unknown }[];
  /** The first heard `event` whose payload matches (waiting up to `ms`); throws with what was heard instead. */
  waitFor(event: string, match?: (payload: Json) => boolean, ms?: number): Promise<Json>;
};

/** A connected socket.io client with `token` on `url` (websocket, no reconnection unless asked), recording what it hears. */
export async function connectSocket(
  url: string,
  token: string,
  opts: { reconnection?: boolean } = {},
): Promise<TestSocket> {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: opts.reconnection ?? false,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
  });
  const got: TestSocket['got'] = [];
  socket.onAny((event: string, payload: unknown) => got.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  const waitFor = async (event: string, match: (p: Json) => boolean = () => true, ms = 5000) => {
    const until = Date.now() + ms;
    for (;;) {
      const hit = got.find((g) => g.event === event && match(g.payload));
      if (hit) return hit.payload as Json;
      if (Date.now() > until) throw new Error(`no ${event} within ${ms} ms; got ${JSON.stringify(got)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { socket, got, waitFor };
}
