import { existsSync } from 'node:fs';
import path from 'node:path';
import { startApp, type RunningApp, type StartOptions } from '@pawhaven/gateway';
import type { Config } from '@pawhaven/platform';
import { createTestDatabase } from '@pawhaven/platform/testing';

// E2E_FRONTEND_DIST lets two people build and test different frontend changes side by side.
const FRONTEND_DIST = process.env.E2E_FRONTEND_DIST
  ? path.resolve(process.env.E2E_FRONTEND_DIST)
  : path.resolve(import.meta.dirname, '../../frontend/dist');

export type E2eApp = { url: string; app: RunningApp; stop(): Promise<void> };

/**
 * The whole product on a free port over a fresh test database, serving the built frontend (frontend/dist).
 * Rate limits are raised so a test run is never throttled. `demoData` seeds the demo as `npm start` does on its
 * first start (demo accounts, ads, posts, a chat).
 */
export async function startE2eApp(
  config: Partial<Config> = {},
  opts: Pick<StartOptions, 'googleKeys' | 'demoData'> = {},
): Promise<E2eApp> {
  if (!existsSync(path.join(FRONTEND_DIST, 'index.html'))) {
    throw new Error(
      'frontend/dist is missing: run `npm run build --workspace frontend` before the browser tests',
    );
  }
  const db = await createTestDatabase({ max: 5 });
  let app: RunningApp;
  try {
    app = await startApp({
      databaseUrl: db.connectionString,
      port: 0,
      config: {
        RATE_LIMIT_SIGNIN: 1000,
        RATE_LIMIT_SIGNIN_ACCOUNT: 1000,
        RATE_LIMIT_REGISTER: 1000,
        RATE_LIMIT_OTP: 1000,
        RATE_LIMIT_RESET: 1000,
        RATE_LIMIT_WRITES: 5000,
        RATE_LIMIT_UPLOADS: 1000,
        RATE_LIMIT_NEW_ADS: 1000,
        RATE_LIMIT_ADOPTION_REQUESTS: 1000,
        RATE_LIMIT_CHANGE_PASSWORD: 1000,
        ...config,
      },
      frontendDir: FRONTEND_DIST,
      googleKeys: opts.googleKeys,
      demoData: opts.demoData,
    });
  } catch (e) {
    await db.drop();
    throw e;
  }
  return {
    url: app.url,
    app,
    async stop() {
      await app.stop();
      await db.drop();
    },
  };
}

let counter = 0;
/** A unique lower-case name for this run: usernames and e-mail local parts. */
export const uniqueName = (prefix = 'pet') =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;
