import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * Issue 20 point 8: a JSON body nested thousands of levels deep is refused at the door with a 400 and a message, on
 * every route that takes a body (the live route table of both apps), with an Idempotency-Key or without, signed in
 * or not: nothing after the door walks it (the key's fingerprint overflowed the stack: a 500). The bodies fit the
 * query side's 20 kB limit (5,000 nested arrays are 10 kB).
 */
const SOME_ID = '3f1b8f0e-9d2c-4c7e-8a55-6c1d2e3f4a5b';
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const nestedArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('deeply nested JSON on every route', () => {
  let t: TestApp;
  let user: RegisteredUser;

  beforeAll(async () => {
    t = await startTestApp();
    user = await t.api.registerVerifiedUser();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers 400 with a message, never a 500, with and without an Idempotency-Key', async () => {
    const routes = t.app.routes.filter((r) => r.method !== 'GET' && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const url = t.url + route.path.replace(/:(\w+)/g, SOME_ID);
      for (const body of [nestedArray(5_000), nestedObject(3_000), nestedObject(33)])
        for (const key of [undefined, `deep-${sent}`])
          for (const token of [user.token, undefined]) {
            const res = await fetch(url, {
              method: route.method,
              headers: {
                'content-type': 'application/json',
                ...(key ? { 'idempotency-key': key } : {}),
                ...(token ? { authorization: `Bearer ${token}` } : {}),
              },
              body,
            });
            sent++;
            const text = await res.text();
            let message: unknown;
            try {
              message = (JSON.parse(text) as { message?: unknown }).message;
            } catch {
              message = undefined;
            }
            if (res.status !== 400 || typeof message !== 'string' || !/nested too deeply/.test(message))
              failures.push(
                `${route.method} ${route.path} [${body.length} chars, key ${key ? 'yes' : 'no'}, ${token ? 'signed in' : 'anonymous'}] → ${res.status} ${text.slice(0, 120)}`,
              );
          }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(400);
  });
});
