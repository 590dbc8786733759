import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSchemathesis, fuzz, SCHEMATHESIS_VERSION, type Fuzzer } from '../support/schemathesis';
import { startTestApp, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * The whole OpenAPI document fuzzed by a well-known schema-driven fuzzer (Schemathesis): every operation it
 * documents, with generated valid and invalid bodies, parameters and sequences, as a visitor, a member and an
 * administrator. No answer may be a server error and the app must still be up afterwards. Bounded in time
 * (FUZZ_SECONDS per identity); a failure prints the fuzzer's report with its seed, to replay it with `st run --seed`.
 */
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 40);

let fuzzer: Fuzzer;
let t: TestApp;
let member: RegisteredUser;
let adminToken: string;

describe(`Schemathesis ${SCHEMATHESIS_VERSION} over /api/docs`, () => {
  beforeAll(async () => {
    fuzzer = findSchemathesis();
    if ('missing' in fuzzer) {
      console.warn(`[schema fuzz] skipped: ${fuzzer.missing}`);
      return;
    }
    t = await startTestApp();
    member = await t.api.registerVerifiedUser();
    const admin = await t.api.post('/api/auth/signin', {
      email: t.adminCredentials!.email,
      password: t.adminCredentials!.password,
    });
    adminToken = admin.body.token;
  }, 400_000);

  afterAll(async () => {
    await t?.stop();
  });

  const identities: { who: string; token: () => string | null }[] = [
    { who: 'a visitor', token: () => null },
    { who: 'a member', token: () => member.token },
    { who: 'an administrator', token: () => adminToken },
  ];

  for (const { who, token: tokenOf } of identities)
    it(
      `finds no server error as ${who}`,
      async (ctx) => {
        if ('missing' in fuzzer) return ctx.skip(`schemathesis is not available: ${fuzzer.missing}`);
        const token = tokenOf();
        const run = await fuzz(fuzzer.bin, {
          baseUrl: t.url,
          seconds: SECONDS,
          headers: token ? { Authorization: `Bearer ${token}` } : {},
          // Signing out would end the very session the run signs its requests with.
          excludePaths: token ? ['/api/auth/signout'] : [],
        });
        const report = `seed ${run.seed}\n${run.output.slice(-6000)}`;
        expect(run.output, report).not.toMatch(/ST101|Server error|Network Error|Connection refused/i);
        expect(run.exitCode, report).toBe(0);
        // Still up and still itself.
        const health = await t.api.get('/api/health');
        expect(health.status).toBe(200);
        if (token) expect((await t.api.get('/api/auth/profile', token)).status).toBe(200);
      },
      (SECONDS + 180) * 1000,
    );
});
