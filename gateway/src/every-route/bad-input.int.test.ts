import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@pawhaven/query-api';
import { startTestApp, type RegisteredUser, type TestApp } from '@pawhaven/testing';

/**
 * Issue 6 point 1: bad input is a 4xx with a message, appends nothing and stores nothing — on every route. The
 * routes come from the live route table of both apps, so a new endpoint is fuzzed the moment it is registered.
 */

const NUL = 'pet\u0000name';
const LONE_SURROGATE = 'pet\ud800name';
const PATH_PAYLOADS = ['%00', 'abc%00def', '%ED%A0%80', '%E0%A4%A', 'a%'];

type Route = { method: string; path: string };
type Case = { label: string; method: string; url: string; init: RequestInit };

type JsonSchema = { properties?: Record<string, unknown> };
const doc = openApiDocument();
type Body = { fields: string[]; multipart: boolean };
const bodyOf = (route: Route): Body => {
  const paths = doc.paths as Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
  >;
  const content =
    paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]?.requestBody?.content ?? {};
  const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema;
  return { fields: Object.keys(schema?.properties ?? {}), multipart: 'multipart/form-data' in content };
};

const fillPath = (path: string, value: string) => path.replace(/:(\w+)/g, value);
const SOME_ID = '3f1b8f0e-9d2c-4c7e-8a55-6c1d2e3f4a5b';

function casesFor(route: Route, token: string): Case[] {
  const auth = { authorization: `Bearer ${token}` };
  const cases: Case[] = [];
  const hasParams = route.path.includes(':');
  const base = fillPath(route.path, SOME_ID);
  const bodyless = route.method === 'GET' || route.method === 'HEAD';
  const json = (body: string): RequestInit => ({
    method: route.method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: bodyless ? undefined : body,
  });

  if (hasParams)
    for (const p of PATH_PAYLOADS)
      cases.push({
        label: `path ${p}`,
        method: route.method,
        url: fillPath(route.path, p),
        init: json('{}'),
      });
  cases.push({ label: 'query %00', method: route.method, url: `${base}?q=%00&city=a%00b`, init: json('{}') });
  cases.push({
    label: 'query surrogate',
    method: route.method,
    url: `${base}?q=%ED%A0%80`,
    init: json('{}'),
  });
  cases.push({
    label: 'cookie with NUL',
    method: route.method,
    url: base,
    init: {
      ...json('{}'),
      headers: { ...auth, 'content-type': 'application/json', cookie: 'ph_session=a%00b.c.d' },
    },
  });
  if (bodyless) return cases;

  const { fields, multipart } = bodyOf(route);
  for (const bad of [NUL, LONE_SURROGATE]) {
    const label = bad === NUL ? 'NUL' : 'lone surrogate';
    for (const f of fields.length ? fields : ['anything'])
      cases.push({
        label: `JSON ${f}=${label}`,
        method: route.method,
        url: base,
        init: json(JSON.stringify({ ...Object.fromEntries(fields.map((k) => [k, 'ok'])), [f]: bad })),
      });
    cases.push({
      label: `JSON key ${label}`,
      method: route.method,
      url: base,
      init: json(JSON.stringify({ [bad]: 'x' })),
    });
  }
  if (multipart) {
    // Multipart travels as UTF-8, which cannot carry a lone surrogate (it arrives as U+FFFD): NUL is the case.
    const form = new FormData();
    for (const f of fields.length ? fields : ['anything']) form.append(f, NUL);
    form.append('image', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'x.png');
    cases.push({
      label: 'multipart fields NUL',
      method: route.method,
      url: base,
      init: { method: route.method, headers: auth, body: form },
    });
    const named = new FormData();
    for (const f of fields) named.append(f, 'ok');
    named.append('image', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'x\u0000.png');
    cases.push({
      label: 'multipart file name NUL',
      method: route.method,
      url: base,
      init: { method: route.method, headers: auth, body: named },
    });
  }
  cases.push({ label: 'JSON truncated', method: route.method, url: base, init: json('{"name": "Bisc') });
  if (!multipart) return cases;
  cases.push({
    label: 'multipart without boundary',
    method: route.method,
    url: base,
    init: {
      method: route.method,
      headers: { ...auth, 'content-type': 'multipart/form-data' },
      body: 'name=x',
    },
  });
  cases.push({
    label: 'multipart cut short',
    method: route.method,
    url: base,
    init: {
      method: route.method,
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nBiscuit\r\n--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    },
  });
  return cases;
}

describe('bad input on every route', () => {
  let t: TestApp;
  let user: RegisteredUser;
  const counts = async () => {
    const [events, images] = await Promise.all([
      t.db.knex('events').count<{ count: string }[]>('* as count'),
      t.db.knex('images').count<{ count: string }[]>('* as count'),
    ]);
    return { events: Number(events[0]!.count), images: Number(images[0]!.count) };
  };

  beforeAll(async () => {
    t = await startTestApp();
    user = await t.api.registerVerifiedUser();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('walks a route table that has both command and query routes', () => {
    const methods = new Set(t.app.routes.map((r) => r.method));
    expect(methods).toEqual(new Set(['GET', 'POST', 'PUT', 'DELETE']));
    expect(t.app.routes.length).toBeGreaterThan(30);
  });

  it('answers unsafe text, malformed escapes and malformed bodies with a 400 and a message, storing nothing', async () => {
    const before = await counts();
    const failures: string[] = [];
    let sent = 0;
    for (const route of t.app.routes) {
      for (const c of casesFor(route, user.token)) {
        const res = await fetch(t.url + c.url, c.init);
        const text = await res.text();
        sent++;
        let message: unknown;
        try {
          message = (JSON.parse(text) as { message?: unknown }).message;
        } catch {
          message = undefined;
        }
        if (res.status !== 400 || typeof message !== 'string' || message.length === 0)
          failures.push(`${route.method} ${route.path} [${c.label}] → ${res.status} ${text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(300);
    expect(await counts()).toEqual(before);
  });

  it('refuses an impossible X-Consistent-After on every read with a 400', async () => {
    const failures: string[] = [];
    for (const route of t.app.routes.filter((r) => r.method === 'GET')) {
      for (const header of ['9999999999999999999', '-1', 'abc', '1e5']) {
        const res = await fetch(t.url + fillPath(route.path, SOME_ID), {
          headers: { authorization: `Bearer ${user.token}`, 'x-consistent-after': header },
        });
        if (res.status !== 400) failures.push(`${route.path} [${header}] → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers ids that are not ids on every read with a 4xx, never a 500', async () => {
    const failures: string[] = [];
    for (const route of t.app.routes.filter((r) => r.method === 'GET' && r.path.includes(':'))) {
      for (const id of ['abc', '1', 'x'.repeat(300), "1'or'1'='1", '00000000-0000-0000-0000-00000000000g']) {
        const res = await fetch(t.url + fillPath(route.path, encodeURIComponent(id)), {
          headers: { authorization: `Bearer ${user.token}` },
        });
        if (res.status >= 500) failures.push(`${route.path} [${id.slice(0, 20)}] → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
